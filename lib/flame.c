/* SPDX-License-Identifier: MIT */
/*
 * flame.c - folded stacks for flame graphs (flamegraph.pl, inferno,
 * speedscope): "root;...;leaf COUNT", one line per distinct stack, sorted,
 * and the two-count differential form "stack BASE CUR".
 */

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* One distinct folded stack and its counts. */
struct fstack {
	uint32_t text;		/* index in the stack-text table */
	int64_t base, cur;
};

struct flamer {
	const struct profconv_flame_options *opts;
	struct pc_strtab texts;		/* frame texts, then stack texts */
	uint32_t *stack_of_text;	/* text index -> fstack + 1 */
	size_t stack_of_text_cap;
	struct fstack *stacks;
	size_t nstacks, stacks_cap;
	char *buf;
	size_t buf_cap, len;
	uint32_t *frames;		/* one sample's location texts */
	size_t frames_cap;
	regex_t focus, ignore;
	bool has_focus, has_ignore;
	/* Per profile being added. */
	const struct profconv_profile *prof;
	struct pc_pruner pruner;
	uint32_t *loc_text;		/* location id -> text index + 1 */
	uint8_t *loc_match;		/* 1 focus, 2 ignore (bit flags) + 4 known */
};

/* Make NAME safe for the folded format: no ';', no line breaks, and no
 * whitespace before a trailing number (flamegraph.pl would read the
 * number as a second count). */
static int
append_name(struct flamer *f, const char *name, size_t n)
{
	size_t i, start = f->len;
	int rc;

	rc = PC_GROW(f->buf, f->buf_cap, f->len, n + 1);
	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++) {
		char c = name[i];

		f->buf[f->len++] = c == ';' ? ':' :
		    (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
	}
	i = f->len;
	while (i > start && f->buf[i - 1] >= '0' && f->buf[i - 1] <= '9')
		i--;
	if (i < f->len && i > start && f->buf[i - 1] == ' ')
		f->buf[i - 1] = '_';
	return 0;
}

/* The frame text of one line of a location, by the chosen granularity. */
static int
append_line(struct flamer *f, const struct pc_location *l,
    const struct pc_line *ln)
{
	const struct profconv_profile *prof = f->prof;
	const struct pc_function *fn = &prof->functions[ln->function - 1];
	const char *name = profconv__pstr(prof, fn->name);
	char tmp[64];
	int rc;

	if (*name == '\0')
		name = profconv__pstr(prof, fn->system_name);
	if (*name == '\0') {
		snprintf(tmp, sizeof(tmp), "%#" PRIx64, l->address);
		name = tmp;
	}
	rc = append_name(f, name, strlen(name));
	if (rc == 0 && f->opts->names == PROFCONV_FLAME_LINES) {
		const char *file = profconv__pstr(prof, fn->file);
		const char *base = strrchr(file, '/');

		snprintf(tmp, sizeof(tmp), ":%" PRId64, ln->line);
		base = base != NULL ? base + 1 : file;
		if (*base != '\0') {
			rc = append_name(f, " ", 1);
			if (rc == 0)
				rc = append_name(f, base, strlen(base));
			if (rc == 0)
				rc = append_name(f, tmp, strlen(tmp));
		}
	}
	return rc;
}

static int
append_sep(struct flamer *f)
{
	int rc = PC_GROW(f->buf, f->buf_cap, f->len, 1);

	if (rc == 0)
		f->buf[f->len++] = ';';
	return rc;
}

/* Text of location ID: its frames outermost first, ';'-joined. */
static int
location_text(struct flamer *f, uint32_t id, uint32_t *out)
{
	const struct profconv_profile *prof = f->prof;
	const struct pc_location *l = &prof->locations[id - 1];
	uint32_t skip = profconv__prune_skip(&f->pruner, id);
	char tmp[256];
	const char *t;
	size_t i, first;
	int rc = 0;

	if (f->loc_text[id] != 0) {
		*out = f->loc_text[id] - 1;
		return 0;
	}
	f->len = 0;
	if (f->opts->names == PROFCONV_FLAME_ADDRESSES && l->nlines != 0) {
		/* The outermost function and the address: "name+0x4011f0". */
		rc = append_line(f, l, &prof->lines[l->line_off + l->nlines - 1]);
		snprintf(tmp, sizeof(tmp), "+%#" PRIx64, l->address);
		if (rc == 0)
			rc = append_name(f, tmp, strlen(tmp));
	} else if (l->nlines <= skip ||
	    f->opts->names == PROFCONV_FLAME_ADDRESSES) {
		t = profconv__frame_name(prof, id, tmp, sizeof(tmp));
		rc = append_name(f, t, strlen(t));
	} else {
		first = f->opts->no_inline ? l->nlines - 1 : skip;
		for (i = l->nlines; rc == 0 && i > first; i--) {
			if (i != l->nlines)
				rc = append_sep(f);
			if (rc == 0)
				rc = append_line(f, l,
				    &prof->lines[l->line_off + i - 1]);
		}
	}
	if (rc == 0)
		rc = profconv__strtab_intern(&f->texts, f->buf, f->len, out);
	if (rc == 0)
		f->loc_text[id] = *out + 1;
	return rc;
}

static int
compile(regex_t *re, const char *rx, bool *ok, const char *what)
{
	int err;

	*ok = false;
	if (rx == NULL)
		return 0;
	err = regcomp(re, rx, REG_EXTENDED | REG_NOSUB);
	if (err != 0) {
		char msg[128];

		regerror(err, re, msg, sizeof(msg));
		return profconv__fail(PROFCONV_EINVAL,
		    "invalid %s expression '%s': %s", what, rx, msg);
	}
	*ok = true;
	return 0;
}

/* Does any frame of the kept stack match the focus / ignore expression? */
static int
filters_pass(struct flamer *f, const uint32_t *stk, size_t first, size_t n,
    bool *pass)
{
	bool focus = !f->has_focus, ignore = false;
	uint32_t t;
	size_t i;
	int rc;

	for (i = first; i < n; i++) {
		uint8_t *m = &f->loc_match[stk[i]];

		if ((*m & 4) == 0) {
			rc = location_text(f, stk[i], &t);
			if (rc < 0)
				return rc;
			*m = 4;
			if (f->has_focus && regexec(&f->focus,
			    profconv__str(&f->texts, t), 0, NULL, 0) == 0)
				*m |= 1;
			if (f->has_ignore && regexec(&f->ignore,
			    profconv__str(&f->texts, t), 0, NULL, 0) == 0)
				*m |= 2;
		}
		focus = focus || (*m & 1) != 0;
		ignore = ignore || (*m & 2) != 0;
	}
	*pass = focus && !ignore;
	return 0;
}

static int
stack_for(struct flamer *f, uint32_t text, struct fstack **out)
{
	size_t old = f->stack_of_text_cap;
	int rc;

	if (text >= f->stack_of_text_cap) {
		rc = PC_GROW(f->stack_of_text, f->stack_of_text_cap, 0, text + 1);
		if (rc < 0)
			return rc;
		memset(f->stack_of_text + old, 0, (f->stack_of_text_cap - old) *
		    sizeof(*f->stack_of_text));
	}
	if (f->stack_of_text[text] == 0) {
		rc = PC_GROW(f->stacks, f->stacks_cap, f->nstacks, 1);
		if (rc < 0)
			return rc;
		f->stacks[f->nstacks] = (struct fstack){ text, 0, 0 };
		f->stack_of_text[text] = (uint32_t)++f->nstacks;
	}
	*out = &f->stacks[f->stack_of_text[text] - 1];
	return 0;
}

/* Fold one sample: root first, cut where drop_frames says. */
static int
fold_sample(struct flamer *f, size_t si, int ti, bool is_base)
{
	const struct profconv_profile *prof = f->prof;
	const struct pc_sample *s = &prof->samples[si];
	const uint32_t *stk = pc_sample_stack(prof, s);
	int64_t v = prof->values[si * prof->nsample_types + (size_t)ti];
	struct fstack *fs;
	size_t i, first, total = 0;
	uint32_t t;
	bool pass;
	int rc;

	if (v == 0)
		return 0;
	first = profconv__prune_stack(&f->pruner, stk, s->nlocs);
	rc = filters_pass(f, stk, first, s->nlocs, &pass);
	if (rc < 0 || !pass)
		return rc;
	rc = PC_GROW(f->frames, f->frames_cap, 0, s->nlocs);
	for (i = first; rc == 0 && i < s->nlocs; i++) {
		rc = location_text(f, stk[i], &f->frames[i]);
		total += 1 + f->texts.lens[f->frames[i]];
	}
	if (rc == 0)
		rc = PC_GROW(f->buf, f->buf_cap, 0, total + 16);
	if (rc == 0) {
		f->len = 0;
		for (i = s->nlocs; i > first; i--) {
			const char *x = profconv__str(&f->texts, f->frames[i - 1]);
			size_t n = f->texts.lens[f->frames[i - 1]];

			if (f->len != 0)
				f->buf[f->len++] = ';';
			memcpy(f->buf + f->len, x, n);
			f->len += n;
		}
		if (f->len == 0) {
			memcpy(f->buf, "[no stack]", 10);
			f->len = 10;
		}
		rc = profconv__strtab_intern(&f->texts, f->buf, f->len, &t);
	}
	if (rc == 0)
		rc = stack_for(f, t, &fs);
	if (rc == 0) {
		int64_t *acc = is_base ? &fs->base : &fs->cur;

		pc_add_sat(acc, v);
	}
	return rc;
}

static int
type_index(const struct profconv_profile *prof, const char *type)
{
	int ti;

	if (type == NULL) {
		ti = profconv_profile_default_sample_index(prof);
		if (ti < 0)
			return profconv__fail(PROFCONV_EINVAL,
			    "profile has no sample types");
		return ti;
	}
	ti = profconv_profile_sample_type_index(prof, type);
	if (ti < 0)
		return profconv__fail(PROFCONV_ENOTFOUND,
		    "profile has no sample type '%s'", type);
	return ti;
}

static int
add_profile(struct flamer *f, const struct profconv_profile *prof,
    bool is_base)
{
	size_t i;
	int ti, rc;

	ti = type_index(prof, f->opts->sample_type);
	if (ti < 0)
		return ti;
	f->prof = prof;
	rc = profconv__pruner_init(&f->pruner, prof,
	    !f->opts->keep_allocator_frames);
	if (rc < 0)
		return rc;
	f->loc_text = calloc(prof->nlocations + 1, sizeof(*f->loc_text));
	f->loc_match = calloc(prof->nlocations + 1, 1);
	if (f->loc_text == NULL || f->loc_match == NULL)
		rc = profconv__nomem();
	for (i = 0; rc == 0 && i < prof->nsamples; i++)
		rc = fold_sample(f, i, ti, is_base);
	profconv__pruner_free(&f->pruner);
	free(f->loc_text);
	free(f->loc_match);
	f->loc_text = NULL;
	f->loc_match = NULL;
	return rc;
}

static const struct pc_strtab *sort_texts;

static int
by_text(const void *a, const void *b)
{
	const struct fstack *x = a, *y = b;

	return strcmp(profconv__str(sort_texts, x->text),
	    profconv__str(sort_texts, y->text));
}

static int
print_stacks(struct flamer *f, FILE *fp, bool diff)
{
	size_t i;

	for (i = 0; i < f->nstacks; i++) {
		const struct fstack *s = &f->stacks[i];

		if (s->cur < 0 || s->base < 0)
			return profconv__fail(PROFCONV_EFORMAT,
			    "stack '%s' has a negative count (a delta "
			    "profile?); compare with a base instead",
			    profconv__str(&f->texts, s->text));
	}
	sort_texts = &f->texts;
	if (f->nstacks > 1)
		qsort(f->stacks, f->nstacks, sizeof(*f->stacks), by_text);
	for (i = 0; i < f->nstacks; i++) {
		const struct fstack *s = &f->stacks[i];

		if (!diff && s->cur == 0)
			continue;
		fputs(profconv__str(&f->texts, s->text), fp);
		if (diff)
			fprintf(fp, " %" PRId64, s->base);
		fprintf(fp, " %" PRId64 "\n", s->cur);
	}
	return 0;
}

int
profconv_flame_write(const struct profconv_profile *prof,
    const struct profconv_profile *base, FILE *fp,
    const struct profconv_flame_options *opts)
{
	struct profconv_flame_options def = PROFCONV_FLAME_OPTIONS_INIT;
	struct flamer f;
	int rc;

	if (opts == NULL)
		opts = &def;
	memset(&f, 0, sizeof(f));
	f.opts = opts;
	rc = profconv__strtab_init(&f.texts);
	if (rc == 0)
		rc = compile(&f.focus, opts->focus, &f.has_focus, "focus");
	if (rc == 0)
		rc = compile(&f.ignore, opts->ignore, &f.has_ignore, "ignore");
	if (rc == 0 && base != NULL)
		rc = add_profile(&f, base, true);
	if (rc == 0)
		rc = add_profile(&f, prof, false);
	if (rc == 0)
		rc = print_stacks(&f, fp, base != NULL);
	if (rc == 0 && (fflush(fp) != 0 || ferror(fp)))
		rc = profconv__fail(PROFCONV_EIO, "write error");
	if (f.has_focus)
		regfree(&f.focus);
	if (f.has_ignore)
		regfree(&f.ignore);
	profconv__strtab_free(&f.texts);
	free(f.stack_of_text);
	free(f.stacks);
	free(f.buf);
	free(f.frames);
	return rc;
}
