/* SPDX-License-Identifier: MIT */
/*
 * graph.c - the call graph of a view, with the semantics of pprof's graph
 * outputs (google/pprof internal/graph/graph.go and report.go's
 * newTrimmedGraph), so that the DOT it gives has pprof's nodes, edges
 * and weights.
 *
 * A node is a function of the view (with line granularity, a function
 * and line); functions without a name are one node per module
 * ("[libfoo.so]"), as pprof names them.  Each sample is walked root to
 * leaf: every node and edge counts its value once per sample, a node left
 * out makes the next edge "residual", an edge into an inlined line is
 * "inline" while every call it stands for is, and the flat value goes to
 * the leaf only when the leaf was kept.  The graph is built from the
 * samples again after each cut, as pprof does:
 *
 *  1. all nodes; those whose |cum| is under nodefraction of the sum of
 *     the flat values go;
 *  2. the rest sorted by entropy score (a node that passes its value
 *     straight through scores low), tags and edges under their cutoffs
 *     dropped, the first nodecount nodes kept (tags count as nodes);
 *  3. tags and edges under their cutoffs dropped again, and residual
 *     edges whose ends are joined another way removed.
 */

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "view/delta.h"
#include "view/graph.h"
#include "view/view.h"

#define NONE UINT32_MAX

/* What a node is, from the frames of the views: interned once. */
struct gkey {
	const char *name, *file, *objfile;
	int64_t line;
	char *printable;
};

/* A sample of CUR (or of BASE, negated) as the graph reads it. */
struct gsample {
	const uint32_t *frames;	/* the view's frame ids, root first */
	const uint8_t *inl;
	uint32_t nframes;
	uint8_t view;		/* 0 CUR, 1 BASE */
	uint32_t group;		/* string labels (index in groups) */
	uint32_t num_off, nnum;	/* its numeric tags in the build's nums */
	int64_t w;
};

struct gnum {
	uint32_t name;		/* index in groups: the formatted value */
	int64_t value;
};

/* An edge and a tag while building. */
struct bedge {
	uint32_t src, dst;	/* keys */
	int64_t w;
	size_t stamp;
	bool residual, inl, dead;
};

struct btag {
	uint32_t key, group, name;
	bool numeric, dead;
	int64_t value, flat, cum;
};

struct pc_graph_build {
	struct gkey *keys;
	size_t nkeys, keys_cap;
	struct pc_keymap keymap;
	uint32_t *frame_key[2];	/* view frame id -> key */

	struct pc_keymap groupmap;	/* label texts -> index */
	char **groups;
	size_t ngroups, groups_cap;

	struct gsample *gsamples;
	size_t ngsamples, gsamples_cap;
	struct gnum *nums;
	size_t nnums, nums_cap;
	const char *num_unit;

	/* One build. */
	int64_t *flat, *cum;
	int64_t *cum_base;	/* key -> the base's part of cum, negated */
	size_t *stamp;		/* key -> sample + 1 that last counted it */
	uint32_t *touched;	/* keys counted, in order */
	size_t ntouched;
	struct bedge *edges;
	size_t nedges, edges_cap;
	struct pc_u64map edgemap;
	struct btag *tags;
	size_t ntags, tags_cap;
	struct pc_keymap tagmap;
	uint32_t *nodes;	/* the graph's keys, in order */
	size_t nnodes;
	int64_t *score;		/* key -> entropy score */
	uint32_t *in_off, *out_off, *in, *out;	/* adjacency, edge ids */
	uint32_t *pos;		/* key -> place in nodes + 1 */
};

/* --- pprof's measurement ------------------------------------------------------- */

struct unit {
	const char *name;
	const char *aliases[4];
	double factor;
};

struct unit_type {
	const struct unit *units;
	size_t n;
	const struct unit *deflt;
};

static const struct unit memory_units[] = {
	{ "B", { "b", "byte" }, 1 },
	{ "kB", { "kb", "kbyte", "kilobyte" }, 1024.0 },
	{ "MB", { "mb", "mbyte", "megabyte" }, 1048576.0 },
	{ "GB", { "gb", "gbyte", "gigabyte" }, 1073741824.0 },
	{ "TB", { "tb", "tbyte", "terabyte" }, 1099511627776.0 },
	{ "PB", { "pb", "pbyte", "petabyte" }, 1125899906842624.0 },
};
static const struct unit time_units[] = {
	{ "ns", { "ns", "nanosecond" }, 1 },
	{ "us", { "\xce\xbcs", "us", "microsecond" }, 1e3 },
	{ "ms", { "ms", "millisecond" }, 1e6 },
	{ "s", { "s", "sec", "second" }, 1e9 },
	{ "hrs", { "hour", "hr" }, 3600e9 },
};
static const struct unit time_default = { "s", { NULL }, 1e9 };
static const struct unit gcu_units[] = {
	{ "n*GCU", { "nanogcu" }, 1e-9 },
	{ "u*GCU", { "microgcu" }, 1e-6 },
	{ "m*GCU", { "milligcu" }, 1e-3 },
	{ "GCU", { "gcu" }, 1 },
	{ "k*GCU", { "kilogcu" }, 1e3 },
	{ "M*GCU", { "megagcu" }, 1e6 },
	{ "G*GCU", { "gigagcu" }, 1e9 },
	{ "T*GCU", { "teragcu" }, 1e12 },
	{ "P*GCU", { "petagcu" }, 1e15 },
};
static const struct unit gcu_default = { "GCU", { NULL }, 1 };

static const struct unit_type unit_types[] = {
	{ memory_units, PC_ARRAY_LEN(memory_units), &memory_units[0] },
	{ time_units, PC_ARRAY_LEN(time_units), &time_default },
	{ gcu_units, PC_ARRAY_LEN(gcu_units), &gcu_default },
};

/* The unit of UT that UNIT names (lower case, one final 's' dropped
 * from names longer than two bytes), or NULL. */
static const struct unit *
sniff_unit(const struct unit_type *ut, const char *unit)
{
	char low[64];
	size_t n = strlen(unit), i, j;

	if (n >= sizeof(low))
		return NULL;
	for (i = 0; i < n; i++)
		low[i] = (char)(unit[i] >= 'A' && unit[i] <= 'Z' ?
		    unit[i] - 'A' + 'a' : unit[i]);
	if (n > 2 && low[n - 1] == 's')
		n--;
	low[n] = '\0';
	for (i = 0; i < ut->n; i++)
		for (j = 0; j < 4 && ut->units[i].aliases[j] != NULL; j++)
			if (strcmp(ut->units[i].aliases[j], low) == 0)
				return &ut->units[i];
	return NULL;
}

static bool
convert_unit(const struct unit_type *ut, int64_t value, const char *from,
    const char *to, double *out, const char **unit)
{
	const struct unit *f = sniff_unit(ut, from), *t, *best = NULL;
	double v;
	size_t i;

	if (f == NULL)
		return false;
	v = (double)value * f->factor;
	if (strcmp(to, "minimum") == 0 || strcmp(to, "auto") == 0) {
		double fac = 0;

		for (i = 0; i < ut->n; i++)
			if (ut->units[i].factor >= fac &&
			    v / ut->units[i].factor >= 1.0) {
				fac = ut->units[i].factor;
				best = &ut->units[i];
			}
		t = best != NULL ? best : ut->deflt;
	} else {
		t = sniff_unit(ut, to);
		if (t == NULL)
			t = ut->deflt;
	}
	*out = v / t->factor;
	*unit = t->name;
	return true;
}

double
profconv__measure_scale(int64_t v, const char *from, const char *to,
    const char **unit)
{
	static const char *const plain[] = { "count", "sample", "unit",
	    "minimum", "auto" };
	double r;
	size_t i;

	if (v < 0 && v != INT64_MIN)
		return -profconv__measure_scale(-v, from, to, unit);
	for (i = 0; i < PC_ARRAY_LEN(unit_types); i++)
		if (convert_unit(&unit_types[i], v, from, to, &r, unit))
			return r;
	*unit = to;
	for (i = 0; i < PC_ARRAY_LEN(plain); i++)
		if (strcmp(to, plain[i]) == 0)
			*unit = "";
	return (double)v;
}

char *
profconv__measure_label(char *buf, size_t size, int64_t v,
    const char *from, const char *to)
{
	const char *unit;
	double d = profconv__measure_scale(v, from, to, &unit);
	char num[400];
	size_t n;

	snprintf(num, sizeof(num), "%.2f", d);
	n = strlen(num);
	if (n >= 3 && strcmp(num + n - 3, ".00") == 0)
		num[n - 3] = '\0';
	if (strcmp(num, "0") == 0 || strcmp(num, "-0") == 0)
		snprintf(buf, size, "0");
	else
		snprintf(buf, size, "%s%s", num, unit);
	return buf;
}

char *
profconv__measure_percent_padded(char *buf, size_t size, int64_t v,
    int64_t total)
{
	double r = 0;

	if (total != 0)
		r = fabs((double)v / (double)total) * 100;
	if (r >= 99.95 && r <= 100.05)
		snprintf(buf, size, "  100%%");
	else if (r >= 1.0)
		snprintf(buf, size, "%5.2f%%", r);
	else
		snprintf(buf, size, "%5.2g%%", r);
	return buf;
}

char *
profconv__measure_percent(char *buf, size_t size, int64_t v, int64_t total)
{
	char *p = profconv__measure_percent_padded(buf, size, v, total);

	while (*p == ' ')
		p++;
	memmove(buf, p, strlen(p) + 1);
	return buf;
}

/* --- keys: what each frame is as a node ------------------------------------- */

static int
printable(struct gkey *k)
{
	size_t n = strlen(k->name) + strlen(k->file) + strlen(k->objfile) + 48;
	char *p = malloc(n);

	if (p == NULL)
		return profconv__nomem();
	if (*k->name == '\0' && *k->file != '\0')
		snprintf(p, n, "%s", k->file);	/* pprof -files */
	else if (*k->name == '\0')
		snprintf(p, n, *k->objfile != '\0' ? "[%s]" : "<unknown>",
		    k->objfile);
	else if (k->line != 0)
		snprintf(p, n, "%s %s:%" PRId64, k->name, k->file, k->line);
	else if (*k->file != '\0')
		snprintf(p, n, "%s %s", k->name, k->file);
	else
		snprintf(p, n, "%s", k->name);
	k->printable = p;
	return 0;
}

/* PATH made lexically clean as Go's filepath.Clean does ("./a/../b"
 * is "b"), into a new string. */
char *
profconv__clean_path(const char *path)
{
	size_t n = strlen(path), r = 0, w = 0, dotdot = 0;
	bool rooted = n > 0 && path[0] == '/';
	char *out = malloc(n + 2);

	if (out == NULL)
		return NULL;
	if (n == 0) {
		out[0] = '.';
		out[1] = '\0';
		return out;
	}
	if (rooted) {
		out[w++] = '/';
		r = dotdot = 1;
	}
	while (r < n) {
		if (path[r] == '/') {
			r++;
		} else if (path[r] == '.' && (r + 1 == n || path[r + 1] == '/')) {
			r++;
		} else if (path[r] == '.' && path[r + 1] == '.' &&
		    (r + 2 == n || path[r + 2] == '/')) {
			r += 2;
			if (w > dotdot) {
				for (w--; w > dotdot && out[w] != '/'; w--)
					;
			} else if (!rooted) {
				if (w > 0)
					out[w++] = '/';
				out[w++] = '.';
				out[w++] = '.';
				dotdot = w;
			}
		} else {
			if ((rooted && w != 1) || (!rooted && w != 0))
				out[w++] = '/';
			for (; r < n && path[r] != '/'; r++)
				out[w++] = path[r];
		}
	}
	if (w == 0)
		out[w++] = '.';
	out[w] = '\0';
	return out;
}

/* The key of frame F of a view, interned. */
static int
frame_key(struct pc_graph_build *b, const struct profconv_view_frame *f,
    enum profconv_granularity g, uint32_t *out)
{
	struct gkey k = { f->function, "", "", 0, NULL };
	bool lines = g == PROFCONV_BY_LINE;
	char *kb;
	size_t n;
	bool inserted;
	int rc;

	/* pprof -files: no name, the file or else the module; its node
	 * key keeps the function's start line too, which would make a node
	 * per function: a node per file here, as the view has a frame per
	 * file. */
	if (g == PROFCONV_BY_FILE)
		k.name = "";
	if ((g == PROFCONV_BY_FILE || g == PROFCONV_BY_FILE_FUNCTION) &&
	    *f->file != '\0') {
		k.file = profconv__clean_path(f->file);
		if (k.file == NULL)
			return profconv__nomem();
	} else if (*k.name == '\0') {
		k.objfile = f->module;
	} else if (lines && *f->file != '\0') {
		k.file = profconv__clean_path(f->file);
		if (k.file == NULL)
			return profconv__nomem();
		k.line = f->line;
	} else if (lines) {
		k.line = f->line;
	}
	n = strlen(k.name) + strlen(k.file) + strlen(k.objfile) + 32;
	kb = malloc(n);
	if (kb == NULL)
		return profconv__nomem();
	n = (size_t)snprintf(kb, n, "%s%c%s%c%s%c%" PRId64, k.name, 0,
	    k.file, 0, k.objfile, 0, k.line);
	rc = profconv__keymap_intern(&b->keymap, kb, n, (uint32_t)b->nkeys,
	    out, &inserted);
	free(kb);
	if (rc == 0 && inserted) {
		rc = PC_GROW(b->keys, b->keys_cap, b->nkeys, 1);
		if (rc == 0)
			rc = printable(&k);
		if (rc == 0) {
			b->keys[b->nkeys++] = k;
			return 0;
		}
	}
	if (*k.file != '\0')
		free((char *)k.file);
	return rc;
}

static int
map_frames(struct pc_graph_build *b, const struct profconv_view *v, int vi)
{
	size_t n = profconv_view_frame_count(v), i;
	struct profconv_view_frame f;
	enum profconv_granularity g = profconv__view_granularity(v);
	int rc = 0;

	b->frame_key[vi] = malloc((n + 1) * sizeof(uint32_t));
	if (b->frame_key[vi] == NULL)
		return profconv__nomem();
	for (i = 1; rc == 0 && i <= n; i++) {
		profconv_view_frame(v, (uint32_t)i, &f);
		rc = frame_key(b, &f, g, &b->frame_key[vi][i]);
	}
	return rc;
}

/* --- samples -------------------------------------------------------------- */

static int
intern_group(struct pc_graph_build *b, const char *s, size_t len,
    uint32_t *out)
{
	bool inserted;
	char *copy;
	int rc;

	rc = profconv__keymap_intern(&b->groupmap, s, len,
	    (uint32_t)b->ngroups, out, &inserted);
	if (rc < 0 || !inserted)
		return rc;
	if ((rc = PC_GROW(b->groups, b->groups_cap, b->ngroups, 1)) < 0)
		return rc;
	copy = malloc(len + 1);
	if (copy == NULL)
		return profconv__nomem();
	memcpy(copy, s, len);
	copy[len] = '\0';
	b->groups[b->ngroups++] = copy;
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* pprof's joinLabels: the string labels "key:value", sorted, joined by
 * "\n" (the two characters). */
static int
sample_group(struct pc_graph_build *b, const struct profconv_profile *prof,
    const struct pc_sample *s, uint32_t *out)
{
	const struct pc_label *l = pc_sample_labels(prof, s);
	char **parts = NULL, *text = NULL;
	size_t i, n = 0, len = 0, at = 0;
	int rc = 0;

	for (i = 0; i < s->nlabels; i++)
		if (l[i].str != 0)
			n++;
	if (n == 0)
		return intern_group(b, "", 0, out);
	parts = calloc(n, sizeof(*parts));
	if (parts == NULL)
		return profconv__nomem();
	for (i = 0, n = 0; rc == 0 && i < s->nlabels; i++) {
		const char *k, *v;

		if (l[i].str == 0)
			continue;
		k = profconv__pstr(prof, l[i].key);
		v = profconv__pstr(prof, l[i].str);
		parts[n] = malloc(strlen(k) + strlen(v) + 2);
		if (parts[n] == NULL) {
			rc = profconv__nomem();
			break;
		}
		snprintf(parts[n], strlen(k) + strlen(v) + 2, "%s:%s", k, v);
		len += strlen(parts[n]) + 2;
		n++;
	}
	if (rc == 0) {
		qsort(parts, n, sizeof(*parts), cmp_str);
		text = malloc(len + 1);
		if (text == NULL)
			rc = profconv__nomem();
	}
	for (i = 0; rc == 0 && i < n; i++) {
		if (i > 0) {
			memcpy(text + at, "\\n", 2);
			at += 2;
		}
		memcpy(text + at, parts[i], strlen(parts[i]));
		at += strlen(parts[i]);
	}
	if (rc == 0)
		rc = intern_group(b, text, at, out);
	for (i = 0; i < n; i++)
		free(parts[i]);
	free(parts);
	free(text);
	return rc;
}

/* pprof's NumLabelUnits for "bytes": the first unit a sample gives it,
 * else "bytes". */
static void
find_num_unit(struct pc_graph_build *b, const struct profconv_profile *prof)
{
	size_t si, i;

	for (si = 0; b->num_unit == NULL && si < prof->nsamples; si++) {
		const struct pc_sample *s = pc_sample(prof, si);
		const struct pc_label *l = pc_sample_labels(prof, s);

		for (i = 0; i < s->nlabels; i++)
			if (l[i].str == 0 && l[i].unit != 0 &&
			    strcmp(profconv__pstr(prof, l[i].key), "bytes") == 0 &&
			    *profconv__pstr(prof, l[i].unit) != '\0') {
				b->num_unit = profconv__pstr(prof, l[i].unit);
				break;
			}
	}
}

static int
sample_nums(struct pc_graph_build *b, const struct profconv_profile *prof,
    const struct pc_sample *s, struct gsample *gs)
{
	const struct pc_label *l = pc_sample_labels(prof, s);
	char label[128];
	size_t i;
	int rc = 0;

	gs->num_off = (uint32_t)b->nnums;
	for (i = 0; rc == 0 && i < s->nlabels; i++) {
		struct gnum g;

		if (l[i].str != 0 ||
		    strcmp(profconv__pstr(prof, l[i].key), "bytes") != 0)
			continue;
		profconv__measure_label(label, sizeof(label), l[i].num,
		    b->num_unit, "minimum");
		g.value = l[i].num;
		rc = intern_group(b, label, strlen(label), &g.name);
		if (rc == 0)
			rc = PC_GROW(b->nums, b->nums_cap, b->nnums, 1);
		if (rc == 0) {
			b->nums[b->nnums++] = g;
			gs->nnum++;
		}
	}
	return rc;
}

/* What build() reads of a sample, apart from its weight: its view,
 * the keys of its frames and whether each is inline, its labels. */
static uint64_t
sample_hash(const struct pc_graph_build *b, const struct gsample *s)
{
	uint64_t h = profconv__hash_u64((uint64_t)s->view << 32 | s->group);
	size_t i;

	h = profconv__hash_u64(h ^ s->nframes);
	for (i = 0; i < s->nframes; i++)
		h = profconv__hash_u64(h ^ ((uint64_t)b->frame_key[s->view][
		    s->frames[i]] << 1 | (s->inl != NULL && s->inl[i])));
	for (i = 0; i < s->nnum; i++) {
		const struct gnum *g = &b->nums[s->num_off + i];

		h = profconv__hash_u64(h ^ g->name);
		h = profconv__hash_u64(h ^ (uint64_t)g->value);
	}
	return h;
}

static bool
same_sample(const struct pc_graph_build *b, const struct gsample *x,
    const struct gsample *y)
{
	size_t i;

	if (x->view != y->view || x->group != y->group ||
	    x->nframes != y->nframes || x->nnum != y->nnum)
		return false;
	for (i = 0; i < x->nframes; i++)
		if (b->frame_key[x->view][x->frames[i]] !=
		    b->frame_key[y->view][y->frames[i]] ||
		    (x->inl != NULL && x->inl[i]) !=
		    (y->inl != NULL && y->inl[i]))
			return false;
	for (i = 0; i < x->nnum; i++)
		if (b->nums[x->num_off + i].name !=
		    b->nums[y->num_off + i].name ||
		    b->nums[x->num_off + i].value !=
		    b->nums[y->num_off + i].value)
			return false;
	return true;
}

/*
 * Add GS, or its weight to an earlier sample build() cannot tell from
 * it.  Every build's nodes, edges and tags then come out as they would
 * from the samples one by one, in the same order (a later copy touches
 * nothing an earlier one did not), at a fraction of the work: a big
 * profile's millions of stacks by address are far fewer by key.  Two
 * samples whose hashes meet but differ stay apart.
 */
static int
add_sample(struct pc_graph_build *b, struct pc_u64map *seen,
    struct gsample *gs)
{
	uint64_t h = sample_hash(b, gs);
	uint32_t idx;
	int rc;

	if (profconv__u64map_get(seen, h, &idx) &&
	    same_sample(b, &b->gsamples[idx], gs)) {
		pc_add_sat(&b->gsamples[idx].w, gs->w);
		b->nnums = gs->num_off;	/* its copies of the same labels */
		return 0;
	}
	rc = PC_GROW(b->gsamples, b->gsamples_cap, b->ngsamples, 1);
	if (rc == 0 && !profconv__u64map_get(seen, h, &idx))
		rc = profconv__u64map_put(seen, h, (uint32_t)b->ngsamples);
	if (rc == 0)
		b->gsamples[b->ngsamples++] = *gs;
	return rc;
}

static int
add_samples(struct pc_graph_build *b, const struct profconv_view *v, int vi,
    size_t type)
{
	const struct profconv_profile *prof = profconv_view_profile(v);
	size_t si, st, nt = prof->nsample_types;
	struct profconv_view_stack stack;
	struct pc_u64map seen = { 0 };
	int rc = 0;

	for (si = 0; rc == 0 && si < prof->nsamples; si++) {
		struct gsample gs = { 0 };
		int64_t w = prof->values[si * nt + type];

		st = profconv__view_sample_stack(v, si);
		if (st == 0 || w == 0)
			continue;
		profconv_view_stack(v, st - 1, &stack);
		gs.frames = stack.frames;
		gs.inl = profconv__view_stack_inline(v, st - 1);
		gs.nframes = (uint32_t)stack.nframes;
		gs.view = (uint8_t)vi;
		gs.w = profconv__delta_part(w, vi == 1);
		rc = sample_group(b, prof, pc_sample(prof, si), &gs.group);
		if (rc == 0)
			rc = sample_nums(b, prof, pc_sample(prof, si), &gs);
		if (rc == 0)
			rc = add_sample(b, &seen, &gs);
	}
	profconv__u64map_free(&seen);
	return rc;
}

/* --- one build from the samples ---------------------------------------------- */

static void
reset(struct pc_graph_build *b)
{
	size_t i;

	for (i = 0; i < b->ntouched; i++) {
		uint32_t k = b->touched[i];

		b->flat[k] = b->cum[k] = b->cum_base[k] = 0;
		b->stamp[k] = 0;
	}
	b->ntouched = 0;
	b->nedges = 0;
	b->ntags = 0;
	profconv__u64map_free(&b->edgemap);
	memset(&b->edgemap, 0, sizeof(b->edgemap));
	profconv__keymap_free(&b->tagmap);
	memset(&b->tagmap, 0, sizeof(b->tagmap));
}

static int
tag_add(struct pc_graph_build *b, uint32_t key, bool numeric, uint32_t group,
    uint32_t name, int64_t value, int64_t w, bool flat)
{
	uint32_t kb[4] = { key, numeric, group, name }, idx;
	bool inserted;
	struct btag *t;
	int rc;

	rc = profconv__keymap_intern(&b->tagmap, kb, sizeof(kb),
	    (uint32_t)b->ntags, &idx, &inserted);
	if (rc == 0 && inserted) {
		rc = PC_GROW(b->tags, b->tags_cap, b->ntags, 1);
		if (rc == 0)
			b->tags[b->ntags++] = (struct btag){ key, group, name,
			    numeric, false, value, 0, 0 };
	}
	if (rc < 0)
		return rc;
	t = &b->tags[idx];
	pc_add_sat(flat ? &t->flat : &t->cum, w);
	return 0;
}

/* pprof's Node.addSample. */
static int
add_to_node(struct pc_graph_build *b, uint32_t k, const struct gsample *s,
    bool flat)
{
	size_t i;
	int rc = 0;

	pc_add_sat(flat ? &b->flat[k] : &b->cum[k], s->w);
	if (!flat && s->view == 1)
		pc_add_sat(&b->cum_base[k], s->w);
	if (*b->groups[s->group] != '\0')
		rc = tag_add(b, k, false, s->group, s->group, 0, s->w, flat);
	for (i = 0; rc == 0 && i < s->nnum; i++) {
		const struct gnum *g = &b->nums[s->num_off + i];

		rc = tag_add(b, k, true, s->group, g->name, g->value, s->w,
		    flat);
	}
	return rc;
}

static int
add_edge(struct pc_graph_build *b, uint32_t src, uint32_t dst, size_t stamp,
    const struct gsample *s, bool residual, bool inl)
{
	uint64_t key = (uint64_t)src << 32 | dst;
	uint32_t idx;
	struct bedge *e;
	int rc;

	if (!profconv__u64map_get(&b->edgemap, key, &idx)) {
		rc = PC_GROW(b->edges, b->edges_cap, b->nedges, 1);
		if (rc == 0)
			rc = profconv__u64map_put(&b->edgemap, key,
			    (uint32_t)b->nedges);
		if (rc < 0)
			return rc;
		idx = (uint32_t)b->nedges++;
		b->edges[idx] = (struct bedge){ src, dst, 0, 0, residual, inl,
			false };
	}
	e = &b->edges[idx];
	if (e->stamp == stamp)
		return 0;	/* once per sample */
	e->stamp = stamp;
	pc_add_sat(&e->w, s->w);
	e->residual |= residual;
	if (!inl)
		e->inl = false;
	return 0;
}

/* pprof's newGraph over the samples, with only the keys KEPT has
 * (every key when KEPT is NULL). */
static int
build(struct pc_graph_build *b, const uint8_t *kept)
{
	size_t si, j;
	int rc = 0;

	reset(b);
	for (si = 0; rc == 0 && si < b->ngsamples; si++) {
		const struct gsample *s = &b->gsamples[si];
		uint32_t parent = NONE;
		bool residual = false;

		for (j = 0; rc == 0 && j < s->nframes; j++) {
			uint32_t k = b->frame_key[s->view][s->frames[j]];

			if (kept != NULL && !kept[k]) {
				residual = true;
				continue;
			}
			if (b->stamp[k] == 0)
				b->touched[b->ntouched++] = k;
			if (b->stamp[k] != si + 1) {
				b->stamp[k] = si + 1;
				rc = add_to_node(b, k, s, false);
			}
			/* An edge into a frame that is not its location's
			 * outermost line is inline. */
			if (rc == 0 && parent != NONE && k != parent)
				rc = add_edge(b, parent, k, si + 1, s,
				    residual, s->inl != NULL && s->inl[j]);
			parent = k;
			residual = false;
		}
		if (rc == 0 && parent != NONE && !residual)
			rc = add_to_node(b, parent, s, true);
	}
	if (rc < 0)
		return rc;
	/* pprof's selectNodesForGraph. */
	b->nnodes = 0;
	for (j = 0; j < b->ntouched; j++) {
		uint32_t k = b->touched[j];

		if (b->cum[k] != 0 || b->flat[k] != 0)
			b->nodes[b->nnodes++] = k;
	}
	return 0;
}

/* --- order: pprof's EntropyOrder ---------------------------------------------- */

/* |V|, wrapping as Go's does: INT64_MIN stays INT64_MIN. */
static int64_t
abs64(int64_t v)
{
	return v < 0 ? (int64_t)(0 - (uint64_t)v) : v;
}

/* Go's int64(X) on amd64: NaN and values out of range are INT64_MIN. */
static int64_t
go_int64(double x)
{
	if (isnan(x) || x >= 9223372036854775808.0 ||
	    x < -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)x;
}

/* The edges into and out of each node, the live ones. */
static void
adjacency(struct pc_graph_build *b)
{
	size_t i, n = b->nkeys;

	memset(b->in_off, 0, (n + 1) * sizeof(uint32_t));
	memset(b->out_off, 0, (n + 1) * sizeof(uint32_t));
	for (i = 0; i < b->nedges; i++) {
		if (b->edges[i].dead)
			continue;
		b->in_off[b->edges[i].dst + 1]++;
		b->out_off[b->edges[i].src + 1]++;
	}
	for (i = 0; i < n; i++) {
		b->in_off[i + 1] += b->in_off[i];
		b->out_off[i + 1] += b->out_off[i];
	}
	for (i = 0; i < b->nedges; i++) {
		const struct bedge *e = &b->edges[i];

		if (e->dead)
			continue;
		b->in[b->in_off[e->dst]++] = (uint32_t)i;
		b->out[b->out_off[e->src]++] = (uint32_t)i;
	}
	for (i = n; i > 0; i--) {
		b->in_off[i] = b->in_off[i - 1];
		b->out_off[i] = b->out_off[i - 1];
	}
	b->in_off[0] = b->out_off[0] = 0;
}

static double
edge_entropy(const struct pc_graph_build *b, const uint32_t *edges,
    size_t n, int64_t self)
{
	double score = 0, total = (double)self, frac;
	int64_t t = self;
	size_t i;

	for (i = 0; i < n; i++)
		if (b->edges[edges[i]].w > 0)
			t += abs64(b->edges[edges[i]].w);
	total = (double)t;
	if (t == 0)
		return 0;
	for (i = 0; i < n; i++) {
		frac = (double)abs64(b->edges[edges[i]].w) / total;
		score += -frac * log2(frac);
	}
	if (self > 0) {
		frac = (double)abs64(self) / total;
		score += -frac * log2(frac);
	}
	return score;
}

static int64_t
entropy_score(const struct pc_graph_build *b, uint32_t k)
{
	size_t nin = b->in_off[k + 1] - b->in_off[k];
	size_t nout = b->out_off[k + 1] - b->out_off[k];
	double score = 0;

	score += nin == 0 ? 1 : edge_entropy(b, b->in + b->in_off[k], nin, 0);
	score += nout == 0 ? 1 : edge_entropy(b, b->out + b->out_off[k], nout,
	    b->flat[k]);
	/* An edge of weight 0 makes the score NaN, as in pprof (0 * log2 0):
	 * such a node sorts last.  Sums wrap as Go's. */
	return (int64_t)((uint64_t)go_int64(score * (double)b->cum[k]) +
	    (uint64_t)b->flat[k]);
}

static int
by_score(const void *pa, const void *pb, void *payload)
{
	const struct pc_graph_build *b = payload;
	uint32_t l = *(const uint32_t *)pa, r = *(const uint32_t *)pb;
	int64_t ls = abs64(b->score[l]), rs = abs64(b->score[r]);
	int c;

	if (ls != rs)
		return ls > rs ? -1 : 1;
	c = strcmp(b->keys[l].printable, b->keys[r].printable);
	if (c != 0)
		return c;
	if (abs64(b->flat[l]) != abs64(b->flat[r]))
		return abs64(b->flat[l]) > abs64(b->flat[r]) ? -1 : 1;
	return l < r ? -1 : l > r;
}

static void
sort_nodes(struct pc_graph_build *b)
{
	size_t i;

	adjacency(b);
	for (i = 0; i < b->nnodes; i++)
		b->score[b->nodes[i]] = entropy_score(b, b->nodes[i]);
	qsort_r(b->nodes, b->nnodes, sizeof(*b->nodes), by_score, b);
}

/* --- trimming ------------------------------------------------------------------ */

/* POS[K]: the place of key K in the graph's nodes + 1, 0 when not in. */
static void
mark_nodes(struct pc_graph_build *b)
{
	size_t i;

	memset(b->pos, 0, b->nkeys * sizeof(*b->pos));
	for (i = 0; i < b->nnodes; i++)
		b->pos[b->nodes[i]] = (uint32_t)i + 1;
}

static void
trim_tags(struct pc_graph_build *b, int64_t cutoff)
{
	size_t i;

	for (i = 0; i < b->ntags; i++)
		if (abs64(b->tags[i].flat) < cutoff &&
		    abs64(b->tags[i].cum) < cutoff)
			b->tags[i].dead = true;
}

/* Edges into nodes of the graph under CUTOFF go; how many.  (An edge
 * into a node whose values cancelled out, which is not in the graph,
 * stays, as in pprof: it still counts as an out edge of its source.) */
static size_t
trim_edges(struct pc_graph_build *b, int64_t cutoff)
{
	size_t i, n = 0;

	mark_nodes(b);
	for (i = 0; i < b->nedges; i++) {
		struct bedge *e = &b->edges[i];

		if (!e->dead && b->pos[e->dst] != 0 && abs64(e->w) < cutoff) {
			e->dead = true;
			n++;
		}
	}
	return n;
}

/* pprof's countTags: the live tags with a flat value. */
static size_t
count_tags(const struct pc_graph_build *b, uint32_t k, const size_t *first)
{
	size_t i, n = 0;

	for (i = first[k]; i < b->ntags && b->tags[i].key == k; i++)
		if (!b->tags[i].dead && b->tags[i].flat != 0)
			n++;
	return n;
}

static int
by_tag_key(const void *pa, const void *pb)
{
	const struct btag *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->numeric != b->numeric)
		return a->numeric ? 1 : -1;
	return a->name < b->name ? -1 : a->name > b->name;
}

/* The tags sorted by node (the tag map is rebuilt by the next build);
 * FIRST[K] is the first of key K's. */
static int
group_tags(struct pc_graph_build *b, size_t **first)
{
	size_t i;

	if (b->ntags > 0)
		qsort(b->tags, b->ntags, sizeof(*b->tags), by_tag_key);
	*first = malloc((b->nkeys + 1) * sizeof(**first));
	if (*first == NULL)
		return profconv__nomem();
	for (i = 0; i <= b->nkeys; i++)
		(*first)[i] = b->ntags;
	for (i = b->ntags; i > 0; i--)
		(*first)[b->tags[i - 1].key] = i - 1;
	return 0;
}

/* pprof's selectTopNodes in visual mode: how many nodes to keep. */
static int
top_nodes(struct pc_graph_build *b, size_t max, size_t *keep)
{
	size_t i, count = 0, *first, t;
	int rc = group_tags(b, &first);

	if (rc < 0)
		return rc;
	for (i = 0; i < b->nnodes; i++) {
		t = count_tags(b, b->nodes[i], first);
		count += (t < 4 ? t : 4) + 1;
		if (count >= max) {
			max = i + 1;
			break;
		}
	}
	free(first);
	*keep = max < b->nnodes ? max : b->nnodes;
	return 0;
}

static int
by_edge(const struct pc_graph_build *b, const struct bedge *x,
    const struct bedge *y)
{
	int c;

	if (x->w != y->w && abs64(x->w) != abs64(y->w))
		return abs64(x->w) > abs64(y->w) ? -1 : 1;
	c = strcmp(b->keys[x->src].printable, b->keys[y->src].printable);
	if (c == 0)
		c = strcmp(b->keys[x->dst].printable,
		    b->keys[y->dst].printable);
	return c;
}

static int
by_edge_id(const void *pa, const void *pb, void *payload)
{
	const struct pc_graph_build *b = payload;

	return by_edge(b, &b->edges[*(const uint32_t *)pa],
	    &b->edges[*(const uint32_t *)pb]);
}

/* Can E's source reach its destination through other live edges? */
static int
redundant(struct pc_graph_build *b, uint32_t eid, bool *out)
{
	const struct bedge *e = &b->edges[eid];
	uint32_t *queue = malloc((b->nkeys + 1) * sizeof(*queue));
	uint8_t *seen = calloc(b->nkeys + 1, 1);
	size_t head = 0, tail = 0, i;

	*out = false;
	if (queue == NULL || seen == NULL) {
		free(queue);
		free(seen);
		return profconv__nomem();
	}
	queue[tail++] = e->dst;
	seen[e->dst] = 1;
	while (head < tail && !*out) {
		uint32_t n = queue[head++];

		for (i = b->in_off[n]; i < b->in_off[n + 1]; i++) {
			const struct bedge *ie = &b->edges[b->in[i]];

			if (b->in[i] == eid || ie->dead || seen[ie->src])
				continue;
			if (ie->src == e->src) {
				*out = true;
				break;
			}
			seen[ie->src] = 1;
			queue[tail++] = ie->src;
		}
	}
	free(queue);
	free(seen);
	return 0;
}

/* pprof's RemoveRedundantEdges. */
static int
remove_redundant(struct pc_graph_build *b)
{
	size_t i, j, n;
	uint32_t *in;
	bool r;
	int rc = 0;

	adjacency(b);
	for (i = b->nnodes; rc == 0 && i > 0; i--) {
		uint32_t k = b->nodes[i - 1];

		n = b->in_off[k + 1] - b->in_off[k];
		in = malloc((n + 1) * sizeof(*in));
		if (in == NULL)
			return profconv__nomem();
		memcpy(in, b->in + b->in_off[k], n * sizeof(*in));
		qsort_r(in, n, sizeof(*in), by_edge_id, b);
		for (j = n; rc == 0 && j > 0; j--) {
			struct bedge *e = &b->edges[in[j - 1]];

			if (e->dead)
				continue;
			if (!e->residual)
				break;
			rc = redundant(b, in[j - 1], &r);
			if (rc == 0 && r)
				e->dead = true;
		}
		free(in);
	}
	return rc;
}

/* --- the whole --------------------------------------------------------------------- */

static int
alloc_build(struct pc_graph_build *b)
{
	size_t n = b->nkeys + 1, d = 0, i;

	for (i = 0; i < b->ngsamples; i++)
		d += b->gsamples[i].nframes;
	b->flat = calloc(n, sizeof(*b->flat));
	b->cum = calloc(n, sizeof(*b->cum));
	b->cum_base = calloc(n, sizeof(*b->cum_base));
	b->stamp = calloc(n, sizeof(*b->stamp));
	b->touched = malloc(n * sizeof(*b->touched));
	b->nodes = malloc(n * sizeof(*b->nodes));
	b->score = calloc(n, sizeof(*b->score));
	b->in_off = malloc((n + 1) * sizeof(*b->in_off));
	b->out_off = malloc((n + 1) * sizeof(*b->out_off));
	b->in = malloc((d + 1) * sizeof(*b->in));
	b->out = malloc((d + 1) * sizeof(*b->out));
	b->pos = calloc(n, sizeof(*b->pos));
	if (b->flat == NULL || b->cum == NULL || b->cum_base == NULL ||
	    b->stamp == NULL ||
	    b->touched == NULL || b->nodes == NULL || b->score == NULL ||
	    b->in_off == NULL || b->out_off == NULL || b->in == NULL ||
	    b->out == NULL || b->pos == NULL)
		return profconv__nomem();
	return 0;
}

/* Rebuild with only the first KEEP nodes of the graph. */
static int
rebuild_with(struct pc_graph_build *b, size_t keep)
{
	uint8_t *kept = calloc(b->nkeys + 1, 1);
	size_t i;
	int rc;

	if (kept == NULL)
		return profconv__nomem();
	for (i = 0; i < keep; i++)
		kept[b->nodes[i]] = 1;
	rc = build(b, kept);
	free(kept);
	return rc;
}

/* newTrimmedGraph in visual mode. */
static int
trimmed(struct pc_graph *g, struct pc_graph_build *b,
    const struct pc_graph_options *o)
{
	int64_t total = 0, node_cut, edge_cut;
	size_t i, keep;
	int rc;

	if ((rc = build(b, NULL)) < 0)
		return rc;
	for (i = 0; i < b->nnodes; i++)
		pc_add_sat(&total, b->flat[b->nodes[i]]);
	node_cut = abs64((int64_t)((double)total * o->nodefraction));
	edge_cut = abs64((int64_t)((double)total * o->edgefraction));
	if (node_cut > 0) {
		for (i = 0, keep = 0; i < b->nnodes; i++)
			if (abs64(b->cum[b->nodes[i]]) >= node_cut)
				b->nodes[keep++] = b->nodes[i];
		if (keep != b->nnodes) {
			g->dropped_nodes = b->nnodes - keep;
			if ((rc = rebuild_with(b, keep)) < 0)
				return rc;
		}
	}
	g->orig_count = b->nnodes;
	sort_nodes(b);
	if (o->nodecount > 0) {
		trim_tags(b, node_cut);
		trim_edges(b, edge_cut);
		if ((rc = top_nodes(b, o->nodecount, &keep)) < 0)
			return rc;
		if (keep != b->nnodes) {
			if ((rc = rebuild_with(b, keep)) < 0)
				return rc;
			sort_nodes(b);
		}
	}
	trim_tags(b, node_cut);
	g->dropped_edges = trim_edges(b, edge_cut);
	return remove_redundant(b);
}

/* The result: nodes in order, live edges heaviest first, live tags. */
static int
result(struct pc_graph *g, struct pc_graph_build *b)
{
	size_t i, n = 0, *first = NULL;
	uint32_t *ids;
	int rc;

	g->nodes = calloc(b->nnodes + 1, sizeof(*g->nodes));
	ids = malloc((b->nedges + 1) * sizeof(*ids));
	g->edges = malloc((b->nedges + 1) * sizeof(*g->edges));
	g->tags = malloc((b->ntags + 1) * sizeof(*g->tags));
	if (g->nodes == NULL || ids == NULL || g->edges == NULL ||
	    g->tags == NULL) {
		free(ids);
		return profconv__nomem();
	}
	mark_nodes(b);
	for (i = 0; i < b->nedges; i++) {
		const struct bedge *e = &b->edges[i];

		if (e->dead || b->pos[e->src] == 0)
			continue;
		g->nodes[b->pos[e->src] - 1].has_out = true;
		/* pprof writes an edge into a node that is not in the graph
		 * (its values cancelled out) to "N0"; it is left out here. */
		if (b->pos[e->dst] != 0)
			ids[n++] = (uint32_t)i;
	}
	qsort_r(ids, n, sizeof(*ids), by_edge_id, b);
	/* At most PC_GRAPH_MAX_EDGES, the heaviest: a graph of many more
	 * is no picture, and Graphviz's layout of it never ends. */
	if (n > PC_GRAPH_MAX_EDGES) {
		g->capped_edges = n - PC_GRAPH_MAX_EDGES;
		n = PC_GRAPH_MAX_EDGES;
	}
	for (i = 0; i < n; i++) {
		const struct bedge *e = &b->edges[ids[i]];

		g->edges[i] = (struct pc_gedge){ b->pos[e->src] - 1,
			b->pos[e->dst] - 1, e->w, e->residual, e->inl };
	}
	g->nedges = n;
	free(ids);
	if ((rc = group_tags(b, &first)) < 0)
		return rc;
	for (i = 0; i < b->nnodes; i++) {
		uint32_t k = b->nodes[i];
		struct pc_gnode *gn = &g->nodes[i];
		size_t t;

		gn->name = b->keys[k].name;
		gn->file = b->keys[k].file;
		gn->line = b->keys[k].line;
		gn->objfile = b->keys[k].objfile;
		gn->printable = b->keys[k].printable;
		gn->flat = b->flat[k];
		gn->cum = b->cum[k];
		/* What the node held before and after, and how it changed,
		 * by the rules every comparison shares. */
		gn->base = pc_sub_sat(0, b->cum_base[k]);
		gn->cur = pc_sub_sat(b->cum[k], b->cum_base[k]);
		gn->change = profconv__delta_change(&g->scale, gn->cum,
		    gn->base, gn->cur);
		gn->tag_off = g->ntags;
		for (t = first[k]; t < b->ntags && b->tags[t].key == k; t++) {
			const struct btag *bt = &b->tags[t];

			if (bt->dead)
				continue;
			g->tags[g->ntags++] = (struct pc_gtag){
				b->groups[bt->group], b->groups[bt->name],
				bt->numeric, b->num_unit, bt->value, bt->flat,
				bt->cum };
		}
		gn->ntags = g->ntags - gn->tag_off;
	}
	g->nnodes = b->nnodes;
	free(first);
	return 0;
}

/* pprof's computeTotal, taken before focus and ignore apply (pprof's
 * default, percentages of the whole profile): the reference of the
 * rules every comparison shares, the base's total in a diff. */
static void
report_scale(struct pc_graph *g, const struct profconv_view *cur,
    const struct profconv_view *base, const struct pc_graph_options *o)
{
	profconv__delta_scale(&g->scale, base == NULL ? 0 :
	    profconv__delta_total(profconv_view_profile(base), o->base_type),
	    profconv__delta_total(profconv_view_profile(cur), o->type), 0);
	g->total = g->scale.reference;
}

int
profconv__graph_new(struct pc_graph **out, const struct profconv_view *cur,
    const struct profconv_view *base, const struct pc_graph_options *o)
{
	struct pc_graph *g = calloc(1, sizeof(*g));
	struct pc_graph_build *b = calloc(1, sizeof(*b));
	int rc = 0;

	*out = NULL;
	if (g == NULL || b == NULL) {
		free(g);
		free(b);
		return profconv__nomem();
	}
	g->build = b;
	rc = map_frames(b, cur, 0);
	if (rc == 0 && base != NULL)
		rc = map_frames(b, base, 1);
	if (rc == 0) {
		find_num_unit(b, profconv_view_profile(cur));
		if (base != NULL)
			find_num_unit(b, profconv_view_profile(base));
		if (b->num_unit == NULL)
			b->num_unit = "bytes";
		rc = intern_group(b, "", 0, &(uint32_t){ 0 });
	}
	if (rc == 0)
		rc = add_samples(b, cur, 0, o->type);
	if (rc == 0 && base != NULL)
		rc = add_samples(b, base, 1, o->base_type);
	if (rc == 0)
		rc = alloc_build(b);
	if (rc == 0) {
		report_scale(g, cur, base, o);
		rc = trimmed(g, b, o);
	}
	if (rc == 0)
		rc = result(g, b);
	if (rc < 0) {
		profconv__graph_free(g);
		return rc;
	}
	*out = g;
	return 0;
}

void
profconv__graph_free(struct pc_graph *g)
{
	struct pc_graph_build *b;
	size_t i;

	if (g == NULL)
		return;
	b = g->build;
	if (b != NULL) {
		for (i = 0; i < b->nkeys; i++) {
			free(b->keys[i].printable);
			if (*b->keys[i].file != '\0')
				free((char *)b->keys[i].file);
		}
		free(b->keys);
		profconv__keymap_free(&b->keymap);
		free(b->frame_key[0]);
		free(b->frame_key[1]);
		profconv__keymap_free(&b->groupmap);
		for (i = 0; i < b->ngroups; i++)
			free(b->groups[i]);
		free(b->groups);
		free(b->gsamples);
		free(b->nums);
		free(b->flat);
		free(b->cum);
		free(b->cum_base);
		free(b->stamp);
		free(b->touched);
		free(b->edges);
		profconv__u64map_free(&b->edgemap);
		free(b->tags);
		profconv__keymap_free(&b->tagmap);
		free(b->nodes);
		free(b->score);
		free(b->in_off);
		free(b->out_off);
		free(b->in);
		free(b->out);
		free(b->pos);
		free(b);
	}
	free(g->nodes);
	free(g->edges);
	free(g->tags);
	free(g);
}
