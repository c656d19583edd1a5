/* SPDX-License-Identifier: MIT */
/*
 * suppressed.c - what leak suppressions hid, for the leak reports
 * (profdiff --leaks and proftrend): per suppression that hid anything,
 * how many stacks and how many of the report's units, as a table
 * footer and as JSON.
 */

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "write/write.h"
#include "report/trend.h"

void
profconv__hidden_free(struct pc_hidden_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		free(l->h[i].pattern);
		free(l->h[i].file);
	}
	free(l->h);
	memset(l, 0, sizeof(*l));
}

int
profconv__hidden_take(struct pc_hidden_list *l,
    const struct profconv_view *view, size_t type, bool first)
{
	struct profconv_suppression s;
	size_t i, n = profconv_view_suppression_count(view);

	if (l->h == NULL && n != 0) {
		l->h = calloc(n, sizeof(*l->h));
		if (l->h == NULL)
			return profconv__nomem();
		l->n = n;
		for (i = 0; i < n; i++) {
			profconv_view_suppression(view, i, &s);
			l->h[i].pattern = strdup(s.pattern);
			l->h[i].file = strdup(s.file);
			l->h[i].line = s.line;
			if (l->h[i].pattern == NULL || l->h[i].file == NULL)
				return profconv__nomem();
		}
	}
	for (i = 0; i < n && i < l->n; i++) {
		profconv_view_suppression(view, i, &s);
		if (first) {
			l->h[i].first = s.values[type];
		} else {
			l->h[i].stacks = s.samples;
			l->h[i].last = s.values[type];
		}
	}
	return 0;
}

/* A number of bytes (or units, unless BYTES) for a person. */
static void
amount(FILE *fp, int64_t v, bool bytes)
{
	const char *unit;
	double x;

	if (!bytes || (v > -1024 && v < 1024)) {
		fprintf(fp, "%" PRId64 "%s", v, bytes ? " B" : "");
		return;
	}
	unit = profconv__bytes_unit(v, &x);
	fprintf(fp, "%.2f %s", x, unit);
}

void
profconv__hidden_print(FILE *fp, const struct pc_hidden_list *l,
    bool bytes, bool growth)
{
	struct pc_textbuf tb = { 0 };
	size_t i, used = 0, stacks = 0;

	for (i = 0; i < l->n; i++)
		if (l->h[i].stacks != 0) {
			used++;
			stacks += l->h[i].stacks;
		}
	if (used == 0)
		return;
	fprintf(fp, "\nsuppressed: %zu stack%s, by %zu suppression%s "
	    "(--suppressions, --no-default-suppressions):\n", stacks,
	    stacks == 1 ? "" : "s", used, used == 1 ? "" : "s");
	for (i = 0; i < l->n; i++) {
		const struct pc_hidden *h = &l->h[i];

		if (h->stacks == 0)
			continue;
		fprintf(fp, "  %zu stack%s, ", h->stacks,
		    h->stacks == 1 ? "" : "s");
		amount(fp, h->last, bytes);
		if (growth) {
			fputs(" (growth ", fp);
			amount(fp, pc_sub_sat(h->last, h->first), bytes);
			putc(')', fp);
		}
		fprintf(fp, ": leak:%s", profconv__text_safe(&tb, h->pattern));
		if (h->line != 0)
			fprintf(fp, " (%s:%zu)\n",
			    profconv__text_safe(&tb, h->file), h->line);
		else
			fputs(" (built-in)\n", fp);
	}
	profconv__textbuf_free(&tb);
}

void
profconv__hidden_json(FILE *fp, const struct pc_hidden_list *l, bool growth)
{
	size_t i, k = 0;

	if (l->n == 0)
		return;		/* no suppressions: no member */
	fputs(",\n\"suppressed\":[", fp);
	for (i = 0; i < l->n; i++) {
		const struct pc_hidden *h = &l->h[i];

		if (h->stacks == 0)
			continue;
		fputs(k++ != 0 ? ",\n{\"pattern\":" : "\n{\"pattern\":", fp);
		profconv__json_cstr(fp, h->pattern);
		fputs(",\"file\":", fp);
		if (h->line != 0)
			profconv__json_cstr(fp, h->file);
		else
			fputs("null", fp);
		fprintf(fp, ",\"line\":%zu,\"stacks\":%zu,\"value\":%" PRId64,
		    h->line, h->stacks, h->last);
		if (growth)
			fprintf(fp, ",\"growth\":%" PRId64,
			    pc_sub_sat(h->last, h->first));
		putc('}', fp);
	}
	fputs("]", fp);
}
