/* SPDX-License-Identifier: MIT */
/*
 * list_rows.c - the annotated listing's tree of frames (the frames of matching
 * functions and the calls inlined under them) and from the tree to
 * routines and rows (list.c has the entry point and the text).
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base/bounds.h"
#include "model/model.h"
#include "view/graph.h"
#include "report/list.h"
#include "view/delta.h"
#include "view/view.h"
#include "write/write.h"
#include "report/lister.h"

/* --- the tree of frames ------------------------------------------------------ */

/* The node of frame ID of VIEW under PARENT (0: a root), made when new. */
static int
node_of(struct lister *l, const struct profconv_view *view, uint32_t parent,
    uint32_t id, uint32_t *out)
{
	const char *text = profconv__view_frame_text(view, id);
	size_t tlen = strlen(text);
	struct profconv_view_frame f;
	char stackkey[256], *key = stackkey;
	uint32_t got;
	bool inserted;
	int rc;

	if (tlen + sizeof(parent) > sizeof(stackkey)) {
		key = malloc(tlen + sizeof(parent));
		if (key == NULL)
			return profconv__nomem();
	}
	memcpy(key, &parent, sizeof(parent));
	memcpy(key + sizeof(parent), text, tlen);
	rc = profconv__keymap_intern(&l->keys, key, tlen + sizeof(parent),
	    (uint32_t)l->nnodes + 1, &got, &inserted);
	if (key != stackkey)
		free(key);
	if (rc < 0 || !inserted) {
		*out = got;
		return rc;
	}
	rc = PC_GROW(l->nodes, l->nodes_cap, l->nnodes, 1);
	if (rc == 0)
		rc = profconv_view_frame(view, id, &f);
	if (rc < 0)
		return rc;
	l->nodes[l->nnodes] = (struct tnode){ f.function, f.file, f.module,
		f.line, profconv__view_frame_start_line(view, id), parent, 0, 0,
		0, 0, 0 };
	if (parent != 0) {
		l->nodes[l->nnodes].next = l->nodes[parent - 1].child;
		l->nodes[parent - 1].child = (uint32_t)l->nnodes + 1;
	}
	*out = (uint32_t)++l->nnodes;
	return 0;
}

static void
count(struct lister *l, uint32_t node, int64_t v, bool leaf)
{
	struct tnode *n = &l->nodes[node - 1];

	if (n->stamp != l->stamp) {
		pc_add_sat(&n->cum, v);
		n->stamp = l->stamp;
	}
	if (leaf)
		pc_add_sat(&n->flat, v);
}

/* Does frame ID's function match?  Cached in MATCH (0 unknown, 1 no,
 * 2 yes). */
static bool
matches(struct lister *l, const struct profconv_view *view, uint8_t *match,
    uint32_t id)
{
	struct profconv_view_frame f;

	if (match[id] == 0) {
		match[id] = 1;
		if (profconv_view_frame(view, id, &f) == 0 &&
		    f.function[0] != '\0' && (l->names != NULL ?
		    bsearch(&f.function, l->names, l->nnames,
		    sizeof(*l->names), profconv__by_str) != NULL :
		    regexec(&l->rx, f.function, 0, NULL, 0) == 0))
			match[id] = 2;
	}
	return match[id] == 2;
}

/* Stacks per task of hit_task(). */
#define HIT_RANGE 65536

struct hits {
	const struct profconv_view *view;
	const uint8_t *match;	/* per frame: 2 when its function matches */
	uint8_t *hit;		/* per stack: 1 when a frame of it does */
	size_t n;
};

/* Which stacks of range R have a matching frame (a task of
 * profconv__jobs_run()). */
static int
hit_task(void *arg, size_t r)
{
	struct hits *h = arg;
	size_t i, j, end = (r + 1) * HIT_RANGE < h->n ? (r + 1) * HIT_RANGE :
	    h->n;
	struct pc_view_stack st;

	for (i = r * HIT_RANGE; i < end; i++) {
		h->hit[i] = 0;
		if (profconv__view_stack(h->view, i, &st) < 0)
			continue;
		for (j = 0; j < st.nframes; j++) {
			if (h->match[pc_stack_at(st.frames, j)] == 2) {
				h->hit[i] = 1;
				break;
			}
		}
	}
	return 0;
}

/*
 * Add L's stacks, value slot TI, as a base's part of the change when
 * FROM_BASE.  In a view of merged stacks, whose frames lie in the
 * samples' order, not the stacks', the stacks with a frame of a
 * matching function are found first, on the view's threads: reading
 * every stack's frames out of order is most of the time, and the tree
 * is made in stack order from those alone.
 */
int
profconv__list_add_view(struct lister *l, const struct lview *lv,
    bool from_base)
{
	const struct profconv_view *view = lv->v;
	size_t ti = lv->ti, nf = profconv_view_frame_count(view);
	size_t i, j, k, n = profconv_view_stack_count(view);
	struct pc_view_stack st;
	const uint8_t *marks;
	struct hits h;
	uint8_t *match, *hit;
	uint32_t node;
	int64_t v;
	int rc = 0;

	match = calloc(nf + 1, 1);
	hit = profconv__view_is_unmerged(view) ? NULL :
	    profconv__malloc_big(n + 1);
	if (match == NULL || (hit == NULL &&
	    !profconv__view_is_unmerged(view))) {
		free(match);
		free(hit);
		return profconv__nomem();
	}
	if (hit != NULL) {
		for (i = 1; i <= nf; i++)
			matches(l, view, match, (uint32_t)i);
		h = (struct hits){ view, match, hit, n };
		rc = profconv__jobs_run(profconv__view_jobs(view),
		    (n + HIT_RANGE - 1) / HIT_RANGE, hit_task, &h);
	}
	for (i = 0; rc == 0 && i < n; i++) {
		if (hit != NULL && !hit[i])
			continue;
		rc = profconv__view_stack(view, i, &st);
		if (rc < 0 || st.values == NULL)
			continue;
		v = lv->vals != NULL ? lv->vals[i] : st.values[ti];
		if (v == 0)
			continue;
		v = profconv__delta_part(v, from_base);
		marks = profconv__view_stack_inline(view, i);
		l->stamp++;
		for (j = 0; rc == 0 && j < st.nframes; j++) {
			if (!matches(l, view, match,
			    pc_stack_at(st.frames, j)))
				continue;
			rc = node_of(l, view, 0, pc_stack_at(st.frames, j),
			    &node);
			if (rc < 0)
				break;
			count(l, node, v, j + 1 == st.nframes);
			for (k = j + 1; rc == 0 && marks != NULL &&
			    k < st.nframes && marks[k]; k++) {
				rc = node_of(l, view, node,
				    pc_stack_at(st.frames, k), &node);
				if (rc == 0)
					count(l, node, v, k + 1 == st.nframes);
			}
		}
	}
	free(hit);
	free(match);
	return rc;
}

/* --- from the tree to routines and rows ------------------------------------ */

/* Nodes X and Y by function, file as displayed, then line. */
static int
by_place(const struct lister *l, uint32_t x, uint32_t y)
{
	const struct tnode *nx = &l->nodes[x], *ny = &l->nodes[y];
	int c = strcmp(nx->function, ny->function);

	if (c == 0)
		c = strcmp(l->displays[x], l->displays[y]);
	if (c == 0)
		c = PC_CMP(nx->line, ny->line);
	return c;
}

/* Order of roots: function, file as displayed, line. */
static int
by_routine(const void *a, const void *b, void *payload)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = by_place(payload, x, y);

	return c != 0 ? c : PC_CMP(x, y);
}

/* The build id of the mapping whose file's base name is MODULE, or "". */
static const char *
build_id_of(const struct profconv_profile *prof, const char *module)
{
	const struct pc_mapping *m;
	const char *file, *b;
	size_t i;

	if (module == NULL || *module == '\0')
		return "";
	for (i = 1; i <= prof->nmappings; i++) {
		m = pc_mapping(prof, (uint32_t)i);
		file = profconv__pstr(prof, m->file);
		b = strrchr(file, '/');
		b = b != NULL ? b + 1 : file;
		if (strcmp(b, module) == 0 && m->build_id != 0)
			return profconv__pstr(prof, m->build_id);
	}
	return "";
}

/* The build directories the symbolizer recorded for PROF's files, as
 * the sources' roots for those files. */
int
profconv__list_build_dirs(struct pc_sources *sources,
    const struct profconv_profile *prof)
{
	const struct pc_function *f;
	size_t i;
	int rc = 0;

	for (i = 1; rc == 0 && i <= prof->nfunctions; i++) {
		f = pc_function(prof, (uint32_t)i);
		if (f->build_dir != 0 && f->file != 0)
			rc = profconv__sources_build_dir(sources,
			    profconv__pstr(prof, f->file),
			    profconv__str(&prof->build_dirs, f->build_dir));
	}
	return rc;
}

/* A function of the program's own and what its stacks weigh. */
struct own_fn {
	const char *name;
	int64_t w;
};

static int
by_weight(const void *a, const void *b)
{
	const struct own_fn *x = a, *y = b;
	int c = PC_CMP(y->w, x->w);

	return c != 0 ? c : strcmp(x->name, y->name);
}

int
profconv__list_own_top(const struct profconv_view *view, size_t ti,
    const struct profconv_list_options *o, size_t max, const char **names,
    size_t *n)
{
	const struct profconv_profile *prof = profconv_view_profile(view);
	size_t nf = profconv_view_frame_count(view);
	size_t ns = profconv_view_stack_count(view), i, j;
	struct profconv_view_frame f;
	struct pc_view_stack st;
	struct pc_keymap fk = { 0 };
	struct pc_sources *s = NULL;
	struct own_fn *fs = NULL;
	size_t nfs = 0, cap = 0;
	uint32_t *slot, v;
	bool added;
	int64_t x;
	int rc;

	*n = 0;
	slot = calloc(nf + 1, sizeof(*slot));
	if (slot == NULL)
		return profconv__nomem();
	rc = profconv__sources_new(&s, o);
	if (rc == 0)
		rc = profconv__list_build_dirs(s, prof);
	/* Each frame's function, when its file is the program's own. */
	for (i = 1; rc == 0 && i <= nf; i++) {
		rc = profconv_view_frame(view, (uint32_t)i, &f);
		if (rc < 0 || f.function[0] == '\0' ||
		    !profconv__source_own(s, f.file))
			continue;
		rc = PC_GROW(fs, cap, nfs, 1);
		if (rc == 0)
			rc = profconv__keymap_intern(&fk, f.function,
			    strlen(f.function), (uint32_t)nfs + 1, &v, &added);
		if (rc == 0 && added)
			fs[nfs++] = (struct own_fn){ f.function, 0 };
		if (rc == 0)
			slot[i] = v;
	}
	/* Each stack for its own frame nearest the leaf (root first). */
	for (i = 0; rc == 0 && i < ns; i++) {
		rc = profconv__view_stack(view, i, &st);
		for (j = st.nframes; rc == 0 && j-- > 0;) {
			v = slot[pc_stack_at(st.frames, j)];
			if (v == 0)
				continue;
			x = st.values[ti];
			pc_add_sat(&fs[v - 1].w, x < 0 ? (x == INT64_MIN ?
			    INT64_MAX : -x) : x);
			break;
		}
	}
	if (rc == 0 && nfs > 0) {
		qsort(fs, nfs, sizeof(*fs), by_weight);
		for (i = 0; i < nfs && *n < max && fs[i].w > 0; i++)
			names[(*n)++] = fs[i].name;
	}
	free(fs);
	free(slot);
	profconv__keymap_free(&fk);
	profconv__sources_free(s);
	return rc;
}

/* What ROW may cost in a page, at most: its line shown (every byte
 * escaped to 6 at worst), its names, the markup around them. */
static size_t
row_bytes(const struct pc_list_row *row)
{
	const char *text;
	size_t len = 0;

	if (!profconv__source_line(row->src, row->line, &text, &len))
		len = 0;
	if (len > PC_SOURCE_MAX_LINE)
		len = PC_SOURCE_MAX_LINE;
	return 200 + 6 * (len + (row->function != NULL ?
	    strlen(row->function) : 0) + (row->file != NULL ?
	    strlen(row->file) : 0));
}

/* Add ROW to R: 0, 1 when the listing is full (R is cut), or an error. */
static int
add_row(struct lister *l, struct pc_list_routine *r, size_t *cap,
    const struct pc_list_row *row)
{
	int rc;

	if (l->rows >= PC_LIST_MAX_ROWS ||
	    (l->budget != 0 && l->bytes >= l->budget)) {
		r->cut = true;
		return 1;
	}
	rc = PC_GROW(r->rows, *cap, r->nrows, 1);
	if (rc == 0) {
		r->rows[r->nrows++] = *row;
		l->rows++;
		l->bytes += row_bytes(row);
	}
	return rc;
}

/* By function, file and line, for the calls inlined under one line. */
static int
by_inlined(const void *a, const void *b, void *payload)
{
	return by_place(payload, *(const uint32_t *)a - 1,
	    *(const uint32_t *)b - 1);
}

/* Rows for the calls inlined under NODE, DEPTH deep, and theirs. */
static int
inlined_rows(struct lister *l, const struct profconv_profile *prof,
    struct pc_list_routine *r, size_t *cap, uint32_t node, uint32_t depth)
{
	uint32_t c, *kids;
	size_t n = 0, i;
	int rc = 0;

	for (c = l->nodes[node - 1].child; c != 0; c = l->nodes[c - 1].next)
		n++;
	if (n == 0)
		return 0;
	kids = malloc(n * sizeof(*kids));
	if (kids == NULL)
		return profconv__nomem();
	n = 0;
	for (c = l->nodes[node - 1].child; c != 0; c = l->nodes[c - 1].next)
		kids[n++] = c;
	qsort_r(kids, n, sizeof(*kids), by_inlined, l);
	for (i = 0; rc == 0 && i < n; i++) {
		const struct tnode *k = &l->nodes[kids[i] - 1];
		struct pc_list_row row = { k->line, k->flat, k->cum, depth,
			k->function, l->displays[kids[i] - 1], NULL, true, 0 };

		if (k->flat == 0 && k->cum == 0)
			continue;
		if (k->file[0] != '\0')
			rc = profconv__source_get(l->sources,
			    l->displays[kids[i] - 1], k->file,
			    build_id_of(prof, k->module), &row.src);
		if (rc == 0)
			rc = add_row(l, r, cap, &row);
		if (rc == 0)
			rc = inlined_rows(l, prof, r, cap, kids[i], depth + 1);
	}
	free(kids);
	return rc;
}

/* The routine of roots ORDER[0..N-1] (one function, one file). */
static int
make_routine(struct lister *l, const struct profconv_profile *prof,
    const uint32_t *order, size_t n, struct pc_list_routine *r)
{
	const struct tnode *first = &l->nodes[order[0]];
	int64_t start = INT64_MAX, end = INT64_MIN, ln, s;
	size_t i, cap = 0, at;
	const char *text;
	size_t len;
	int rc;

	r->name = first->function;
	r->file = l->displays[order[0]];
	for (i = 0; i < n; i++) {
		const struct tnode *t = &l->nodes[order[i]];

		pc_add_sat(&r->flat, t->flat);
		pc_add_sat(&r->cum, t->cum);
		/* Lines come from the profile: any int64 at all. */
		s = t->start_line != 0 ? t->start_line :
		    t->line < INT64_MIN + 5 ? INT64_MIN : t->line - 5;
		if (s < start)
			start = s;
		if ((t->line > INT64_MAX - 5 ? INT64_MAX : t->line + 5) > end)
			end = t->line > INT64_MAX - 5 ? INT64_MAX : t->line + 5;
	}
	if (start < 1)
		start = 1;
	rc = profconv__source_get(l->sources, r->file, first->file,
	    build_id_of(prof, first->module), &r->src);
	if (rc < 0)
		return rc;
	l->bytes += 300 + 6 * (strlen(r->name) + strlen(r->file) +
	    (r->src->note != NULL ? strlen(r->src->note) : 0));
	at = 0;
	for (ln = start; ln <= end; ln++) {
		struct pc_list_row row = { ln, 0, 0, 0, NULL, NULL, r->src,
			false, 0 };
		size_t k;

		/* Lines far from every line that holds something: one row
		 * for the run of them (the function's first line kept). */
		if (r->src->text != NULL && ln != start) {
			int64_t next, prev, resume;

			while (at < n && l->nodes[order[at]].line < ln)
				at++;
			next = at < n ? l->nodes[order[at]].line : INT64_MAX;
			prev = at > 0 ? l->nodes[order[at - 1]].line : start;
			if (ln - prev > PC_LIST_CONTEXT &&
			    (next == INT64_MAX || next - ln > PC_LIST_CONTEXT)) {
				resume = next == INT64_MAX ||
				    next - PC_LIST_CONTEXT > end ? end + 1 :
				    next - PC_LIST_CONTEXT;
				if (resume > (int64_t)r->src->body->line_count)
					resume = (int64_t)r->src->body->
					    line_count + 1;
				if (resume <= ln)
					break;
				row.gap = resume - ln;
				rc = add_row(l, r, &cap, &row);
				if (rc != 0)
					return rc < 0 ? rc : 0;
				ln = resume - 1;
				continue;
			}
		}

		/* Without the source, only the lines that hold something:
		 * from one to the next, however far apart. */
		if (r->src->text == NULL) {
			while (at < n && l->nodes[order[at]].line < ln)
				at++;
			if (at == n)
				break;
			ln = row.line = l->nodes[order[at]].line;
		}
		if (r->src->text != NULL &&
		    !profconv__source_line(r->src, ln, &text, &len))
			break;
		while (at < n && l->nodes[order[at]].line < ln)
			at++;
		for (k = at; k < n && l->nodes[order[k]].line == ln; k++) {
			pc_add_sat(&row.flat, l->nodes[order[k]].flat);
			pc_add_sat(&row.cum, l->nodes[order[k]].cum);
			row.has_value = true;
		}
		rc = add_row(l, r, &cap, &row);
		for (k = at; rc == 0 && k < n && l->nodes[order[k]].line == ln;
		    k++)
			rc = inlined_rows(l, prof, r, &cap, order[k] + 1, 1);
		if (rc != 0 || ln == INT64_MAX)
			return rc < 0 ? rc : 0;
	}
	return 0;
}

int
profconv__list_make_listing(struct lister *l,
    const struct profconv_profile *prof)
{
	struct pc_listing *out = &l->out;
	uint32_t *order;
	size_t i, n = 0, j, cap = 0;
	int rc = 0;

	l->displays = calloc(l->nnodes + 1, sizeof(*l->displays));
	order = malloc((l->nnodes + 1) * sizeof(*order));
	if (l->displays == NULL || order == NULL) {
		free(order);
		return profconv__nomem();
	}
	for (i = 0; i < l->nnodes; i++) {
		l->displays[i] = l->nodes[i].file[0] != '\0' ?
		    profconv__source_display(l->sources, l->nodes[i].file) :
		    strdup("");
		if (l->displays[i] == NULL) {
			free(order);
			return profconv__nomem();
		}
		/* pprof's graph keeps no node whose values are all zero. */
		if (l->nodes[i].parent == 0 &&
		    (l->nodes[i].flat != 0 || l->nodes[i].cum != 0))
			order[n++] = (uint32_t)i;
	}
	qsort_r(order, n, sizeof(*order), by_routine, l);
	for (i = 0; rc == 0 && i < n; i = j) {
		struct pc_list_routine r = { 0 };
		const char *fn = l->nodes[order[i]].function;

		if (out->nroutines > 0 &&
		    out->routines[out->nroutines - 1].cut) {
			/* Full: the rest are counted, not listed. */
			for (j = i; j < n; j++)
				if (j == i || strcmp(l->nodes[order[j]].function,
				    l->nodes[order[j - 1]].function) != 0 ||
				    strcmp(l->displays[order[j]],
				    l->displays[order[j - 1]]) != 0)
					out->more++;
			break;
		}
		for (j = i; j < n && strcmp(l->nodes[order[j]].function, fn) ==
		    0 && strcmp(l->displays[order[j]],
		    l->displays[order[i]]) == 0; j++)
			;
		/* Frames without a file: pprof's "No source information",
		 * unless the function has a file elsewhere. */
		if (l->displays[order[i]][0] == '\0' && j < n &&
		    strcmp(l->nodes[order[j]].function, fn) == 0)
			continue;
		if (l->displays[order[i]][0] == '\0')
			r.name = fn;
		else
			rc = make_routine(l, prof, order + i, j - i, &r);
		if (rc == 0)
			rc = PC_GROW(out->routines, cap, out->nroutines, 1);
		if (rc == 0)
			out->routines[out->nroutines++] = r;
		else
			free(r.rows);
	}
	free(order);
	return rc;
}
