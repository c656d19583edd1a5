/* SPDX-License-Identifier: MIT */
/* print.c - the text writers: a full, diffable dump and a summary. */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* --- the full dump ----------------------------------------------------------- */

static void
print_header(const struct profconv_profile *prof, FILE *fp, bool brief)
{
	int def = profconv_profile_default_sample_index(prof);
	size_t i;

	fputs("sample types:", fp);
	for (i = 0; i < prof->nsample_types; i++)
		fprintf(fp, " %s/%s%s",
		    profconv__pstr(prof, prof->sample_types[i].type),
		    profconv__pstr(prof, prof->sample_types[i].unit),
		    (int)i == def ? "[default]" : "");
	fputc('\n', fp);
	if (prof->period_type.type != 0 || prof->period != 0)
		fprintf(fp, "period: %" PRId64 " %s/%s\n", prof->period,
		    profconv__pstr(prof, prof->period_type.type),
		    profconv__pstr(prof, prof->period_type.unit));
	if (prof->time_nanos != 0)
		fprintf(fp, "time: %" PRId64 " ns\n", prof->time_nanos);
	if (prof->duration_nanos != 0)
		fprintf(fp, "duration: %" PRId64 " ns\n", prof->duration_nanos);
	for (i = 0; i < prof->ncomments; i++)
		fprintf(fp, "comment: %s\n",
		    profconv__pstr(prof, prof->comments[i]));
	if (brief)
		return;
	if (prof->drop_frames != 0)
		fprintf(fp, "drop frames: %s\n",
		    profconv__pstr(prof, prof->drop_frames));
	if (prof->keep_frames != 0)
		fprintf(fp, "keep frames: %s\n",
		    profconv__pstr(prof, prof->keep_frames));
	if (prof->doc_url != 0)
		fprintf(fp, "doc url: %s\n", profconv__pstr(prof, prof->doc_url));
}

static void
print_label(const struct profconv_profile *prof, const struct pc_label *l,
    FILE *fp)
{
	fprintf(fp, " %s=", profconv__pstr(prof, l->key));
	if (l->str != 0)
		fprintf(fp, "\"%s\"", profconv__pstr(prof, l->str));
	else if (l->unit != 0)
		fprintf(fp, "%" PRId64 "%s", l->num, profconv__pstr(prof, l->unit));
	else
		fprintf(fp, "%" PRId64, l->num);
}

static void
print_samples(const struct profconv_profile *prof, FILE *fp)
{
	size_t i, j, nt = prof->nsample_types;

	fprintf(fp, "samples: %zu\n", prof->nsamples);
	for (i = 0; i < prof->nsamples; i++) {
		const struct pc_sample *s = &prof->samples[i];

		for (j = 0; j < nt; j++)
			fprintf(fp, " %10" PRId64, prof->values[i * nt + j]);
		fputs(":", fp);
		for (j = 0; j < s->nlocs; j++)
			fprintf(fp, " %" PRIu32, prof->stack[s->loc_off + j]);
		fputc('\n', fp);
		if (s->nlabels == 0)
			continue;
		fputs("   labels:", fp);
		for (j = 0; j < s->nlabels; j++)
			print_label(prof, &prof->labels[s->label_off + j], fp);
		fputc('\n', fp);
	}
}

static void
print_locations(const struct profconv_profile *prof, FILE *fp)
{
	size_t i, j;

	fprintf(fp, "locations: %zu\n", prof->nlocations);
	for (i = 0; i < prof->nlocations; i++) {
		const struct pc_location *l = &prof->locations[i];

		fprintf(fp, " %6zu: %#" PRIx64 " M=%" PRIu32 "%s\n", i + 1,
		    l->address, l->mapping, l->is_folded ? " [folded]" : "");
		for (j = 0; j < l->nlines; j++) {
			const struct pc_line *ln = &prof->lines[l->line_off + j];
			const struct pc_function *f =
			    &prof->functions[ln->function - 1];

			fprintf(fp, "         F=%" PRIu32 " %s %s:%" PRId64
			    ":%" PRId64 "\n", ln->function,
			    profconv__pstr(prof, f->name),
			    profconv__pstr(prof, f->file), ln->line, ln->column);
		}
	}
}

static void
print_functions(const struct profconv_profile *prof, FILE *fp)
{
	size_t i;

	fprintf(fp, "functions: %zu\n", prof->nfunctions);
	for (i = 0; i < prof->nfunctions; i++) {
		const struct pc_function *f = &prof->functions[i];

		fprintf(fp, " %6zu: %s [%s] %s s=%" PRId64 "\n", i + 1,
		    profconv__pstr(prof, f->name),
		    profconv__pstr(prof, f->system_name),
		    profconv__pstr(prof, f->file), f->start_line);
	}
}

static void
print_mappings(const struct profconv_profile *prof, FILE *fp)
{
	size_t i;

	fprintf(fp, "mappings: %zu\n", prof->nmappings);
	for (i = 0; i < prof->nmappings; i++) {
		const struct pc_mapping *m = &prof->mappings[i];

		fprintf(fp, " %6zu: %#" PRIx64 "/%#" PRIx64 "/%#" PRIx64
		    " %s %s%s%s%s%s\n", i + 1, m->start, m->limit, m->offset,
		    profconv__pstr(prof, m->file),
		    profconv__pstr(prof, m->build_id),
		    m->flags & PC_MAP_HAS_FUNCTIONS ? " [FN]" : "",
		    m->flags & PC_MAP_HAS_FILENAMES ? " [FL]" : "",
		    m->flags & PC_MAP_HAS_LINE_NUMBERS ? " [LN]" : "",
		    m->flags & PC_MAP_HAS_INLINE_FRAMES ? " [IN]" : "");
	}
}

/* --- the summary --------------------------------------------------------------- */

const char *
profconv__frame_name(const struct profconv_profile *prof, uint32_t id,
    char *buf, size_t size)
{
	const struct pc_location *l = &prof->locations[id - 1];
	const struct pc_mapping *m;
	const char *file, *base;

	if (l->nlines != 0) {
		const struct pc_function *f =
		    &prof->functions[prof->lines[l->line_off].function - 1];

		if (f->name != 0)
			return profconv__pstr(prof, f->name);
		if (f->system_name != 0)
			return profconv__pstr(prof, f->system_name);
	}
	if (l->mapping != 0) {
		m = &prof->mappings[l->mapping - 1];
		file = profconv__pstr(prof, m->file);
		base = strrchr(file, '/');
		base = base != NULL ? base + 1 : file;
		if (*base != '\0' && l->address >= m->start) {
			snprintf(buf, size, "%s+%#" PRIx64, base,
			    l->address - m->start + m->offset);
			return buf;
		}
	}
	snprintf(buf, size, "%#" PRIx64, l->address);
	return buf;
}

/* An aggregate: a stack (or, for functions, a name) and its values. */
struct agg {
	size_t sample;		/* a sample that has this stack */
	const char *name;	/* the frame name, for functions */
	int64_t flat, cum;
};

struct aggtab {
	struct agg *items;
	size_t n, cap;
	uint32_t *slots;	/* item index + 1 */
	size_t nslots;
};

static bool
same_stack(const struct profconv_profile *prof, size_t a, size_t b)
{
	const struct pc_sample *x = &prof->samples[a], *y = &prof->samples[b];

	return x->nlocs == y->nlocs && (x->nlocs == 0 ||
	    memcmp(pc_sample_stack(prof, x), pc_sample_stack(prof, y),
	    x->nlocs * sizeof(uint32_t)) == 0);
}

static uint64_t
stack_hash(const struct profconv_profile *prof, size_t si)
{
	const struct pc_sample *s = &prof->samples[si];

	return profconv__hash_bytes(pc_sample_stack(prof, s),
	    s->nlocs * sizeof(uint32_t), 0);
}

static int
agg_rehash(struct aggtab *t, const struct profconv_profile *prof)
{
	size_t ns = t->nslots != 0 ? t->nslots * 2 : 1024, i, j;
	uint32_t *slots = calloc(ns, sizeof(*slots));

	if (slots == NULL)
		return profconv__nomem();
	for (i = 0; i < t->n; i++) {
		for (j = stack_hash(prof, t->items[i].sample) & (ns - 1);
		    slots[j] != 0; j = (j + 1) & (ns - 1))
			;
		slots[j] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = ns;
	return 0;
}

/* Find or add the item for sample SI's stack. */
static int
agg_find(struct aggtab *t, const struct profconv_profile *prof, size_t si,
    struct agg **out)
{
	size_t i, mask;
	int rc;

	if ((t->n + 1) * 2 > t->nslots) {
		rc = agg_rehash(t, prof);
		if (rc < 0)
			return rc;
	}
	mask = t->nslots - 1;
	for (i = stack_hash(prof, si) & mask; t->slots[i] != 0;
	    i = (i + 1) & mask) {
		struct agg *a = &t->items[t->slots[i] - 1];

		if (same_stack(prof, a->sample, si)) {
			*out = a;
			return 0;
		}
	}
	rc = PC_GROW(t->items, t->cap, t->n, 1);
	if (rc < 0)
		return rc;
	t->items[t->n] = (struct agg){ si, NULL, 0, 0 };
	t->slots[i] = (uint32_t)++t->n;
	*out = &t->items[t->n - 1];
	return 0;
}

static int
by_flat_desc(const void *a, const void *b)
{
	const struct agg *x = a, *y = b;
	int64_t ax = x->flat < 0 ? -x->flat : x->flat;
	int64_t ay = y->flat < 0 ? -y->flat : y->flat;

	if (ax != ay)
		return ax < ay ? 1 : -1;
	if (x->name != NULL && y->name != NULL)
		return strcmp(x->name, y->name);
	return x->sample < y->sample ? -1 : x->sample > y->sample;
}

static void
pct(FILE *fp, int64_t v, int64_t total)
{
	if (total != 0)
		fprintf(fp, " %6.2f%%", 100.0 * (double)v / (double)total);
	else
		fputs("       -", fp);
}

static int
print_top_stacks(const struct profconv_profile *prof, FILE *fp, int ti,
    int64_t total, size_t top)
{
	struct aggtab t = { 0 };
	struct agg *a;
	char buf[2][128];
	size_t i, j;
	int rc = 0;

	for (i = 0; rc == 0 && i < prof->nsamples; i++) {
		rc = agg_find(&t, prof, i, &a);
		if (rc == 0)
			pc_add_sat(&a->flat,
			    prof->values[i * prof->nsample_types + ti]);
	}
	if (rc == 0) {
		if (t.n > 1)
			qsort(t.items, t.n, sizeof(*t.items), by_flat_desc);
		fprintf(fp, "top %zu stacks by %s (of %zu distinct):\n",
		    top < t.n ? top : t.n, profconv__pstr(prof,
		    prof->sample_types[ti].type), t.n);
		for (i = 0; i < t.n && i < top; i++) {
			const struct pc_sample *s = &prof->samples[t.items[i].sample];

			fprintf(fp, " %14" PRId64, t.items[i].flat);
			pct(fp, t.items[i].flat, total);
			fputs(" ", fp);
			/* Root first, as people read call paths. */
			for (j = s->nlocs; j > 0; j--)
				fprintf(fp, "%s%s", j == s->nlocs ? "" : ";",
				    profconv__frame_name(prof, prof->stack[s->loc_off +
				    j - 1], buf[j & 1], sizeof(buf[0])));
			if (s->nlocs == 0)
				fputs("<empty stack>", fp);
			fputc('\n', fp);
		}
	}
	free(t.items);
	free(t.slots);
	return rc;
}

/*
 * Flat and cumulative values per function name.  Each location is named
 * once; names index plain arrays, so the work is linear in the frames.
 */
struct fn_sums {
	uint32_t *loc_name;	/* location id -> name index + 1 */
	struct agg *items;	/* by name index */
	uint64_t *last;		/* by name index: last sample counted + 1 */
	size_t cap, last_cap;
};

static int
fn_name_of(struct fn_sums *fs, struct pc_strtab *names,
    const struct profconv_profile *prof, uint32_t id, uint32_t *out)
{
	char buf[128];
	size_t old = fs->cap;
	int rc;

	if (fs->loc_name[id] != 0) {
		*out = fs->loc_name[id] - 1;
		return 0;
	}
	rc = profconv__strtab_intern_cstr(names,
	    profconv__frame_name(prof, id, buf, sizeof(buf)), out);
	if (rc == 0 && *out >= fs->cap) {
		rc = PC_GROW(fs->items, fs->cap, 0, *out + 1);
		if (rc == 0)
			rc = PC_GROW(fs->last, fs->last_cap, 0, fs->cap);
		if (rc == 0) {
			memset(fs->items + old, 0, (fs->cap - old) * sizeof(*fs->items));
			memset(fs->last + old, 0, (fs->cap - old) * sizeof(*fs->last));
		}
	}
	if (rc == 0)
		fs->loc_name[id] = *out + 1;
	return rc;
}

static int
print_top_functions(const struct profconv_profile *prof, FILE *fp, int ti,
    int64_t total, size_t top)
{
	struct fn_sums fs = { 0 };
	struct pc_strtab names;
	size_t i, j, n = 0;
	uint32_t idx;
	int64_t v;
	int rc;

	rc = profconv__strtab_init(&names);
	fs.loc_name = calloc(prof->nlocations + 1, sizeof(*fs.loc_name));
	if (rc == 0 && fs.loc_name == NULL)
		rc = profconv__nomem();
	for (i = 0; rc == 0 && i < prof->nsamples; i++) {
		const struct pc_sample *s = &prof->samples[i];

		v = prof->values[i * prof->nsample_types + ti];
		for (j = 0; rc == 0 && j < s->nlocs; j++) {
			rc = fn_name_of(&fs, &names, prof,
			    prof->stack[s->loc_off + j], &idx);
			if (rc < 0)
				break;
			if (j == 0)
				pc_add_sat(&fs.items[idx].flat, v);
			/* Count a function once per stack (recursion). */
			if (fs.last[idx] != i + 1) {
				fs.last[idx] = i + 1;
				pc_add_sat(&fs.items[idx].cum, v);
			}
		}
	}
	/* Compact the used names (index 0, "", is never a frame name). */
	for (i = 1; rc == 0 && i < names.len; i++) {
		fs.items[n] = fs.items[i];
		fs.items[n++].name = profconv__str(&names, (uint32_t)i);
	}
	if (rc == 0) {
		if (n > 1)
			qsort(fs.items, n, sizeof(*fs.items), by_flat_desc);
		fprintf(fp, "top %zu functions by %s (flat, flat%%, cum, "
		    "cum%%):\n", top < n ? top : n,
		    profconv__pstr(prof, prof->sample_types[ti].type));
		for (i = 0; i < n && i < top; i++) {
			fprintf(fp, " %14" PRId64, fs.items[i].flat);
			pct(fp, fs.items[i].flat, total);
			fprintf(fp, " %14" PRId64, fs.items[i].cum);
			pct(fp, fs.items[i].cum, total);
			fprintf(fp, " %s\n", fs.items[i].name);
		}
	}
	free(fs.loc_name);
	free(fs.items);
	free(fs.last);
	profconv__strtab_free(&names);
	return rc;
}

static int
print_summary(const struct profconv_profile *prof, FILE *fp, size_t top)
{
	int ti = profconv_profile_default_sample_index(prof);
	int64_t total = 0, sum;
	size_t i;
	int rc;

	fprintf(fp, "samples: %zu  locations: %zu  functions: %zu  "
	    "mappings: %zu\n", prof->nsamples, prof->nlocations,
	    prof->nfunctions, prof->nmappings);
	for (i = 0; i < prof->nsample_types; i++) {
		profconv_profile_total(prof, i, &sum);
		if ((int)i == ti)
			total = sum;
		fprintf(fp, "total %s/%s: %" PRId64 "%s\n",
		    profconv__pstr(prof, prof->sample_types[i].type),
		    profconv__pstr(prof, prof->sample_types[i].unit), sum,
		    (int)i == ti ? " [default]" : "");
	}
	if (ti < 0 || prof->nsamples == 0 || top == 0)
		return 0;
	rc = print_top_stacks(prof, fp, ti, total, top);
	if (rc == 0)
		rc = print_top_functions(prof, fp, ti, total, top);
	return rc;
}

int
profconv_profile_print(const struct profconv_profile *prof, FILE *fp,
    const struct profconv_print_options *opts)
{
	struct profconv_print_options def = PROFCONV_PRINT_OPTIONS_INIT;
	int rc = 0;

	if (opts == NULL)
		opts = &def;
	errno = 0;
	print_header(prof, fp, opts->summary != 0);
	if (opts->summary) {
		rc = print_summary(prof, fp, opts->top);
	} else {
		print_samples(prof, fp);
		print_locations(prof, fp);
		print_functions(prof, fp);
		print_mappings(prof, fp);
	}
	if (rc == 0 && (fflush(fp) != 0 || ferror(fp)))
		rc = profconv__fail(PROFCONV_EIO, "write error: %s",
		    strerror(errno != 0 ? errno : EIO));
	return rc;
}
