/* SPDX-License-Identifier: MIT */
/*
 * list.c - annotated source: what each line of a function holds, as go
 * tool pprof -list prints it, with inlined calls nested under the line
 * that made them.
 *
 * The values come from views at line granularity (one frame per function
 * and line, inlined calls expanded), so a listing shows the frames, names
 * and filters every other writer shows.  pprof's rules (report/source.go,
 * graph/graph.go at go 1.19's vendored copy): a frame's cum counts each
 * stack once however often the frame recurs in it, its flat the stacks it
 * ends; a function's range runs from its first line (or 5 lines before
 * its first sampled line) to 5 lines after its last sampled one, cut at
 * the end of the file; the total is the sum of the samples' magnitudes
 * before focus and ignore, or with a base, the base's.  With a base every value is CUR - BASE.
 * The sign of a base's samples, the totals and the reference come from
 * the rules every comparison shares (view/delta.c).
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

/* A frame of interest and the calls inlined under it, as a tree: roots
 * are the frames of matching functions, children the frames inlined
 * into their parent. */
struct tnode {
	const char *function, *file, *module;	/* borrowed from a view */
	int64_t line, start_line;
	uint32_t parent;	/* node + 1; 0: a root */
	uint32_t child, next;	/* first child, next sibling: node + 1 */
	int64_t flat, cum;
	size_t stamp;		/* the last stack counted, + 1 */
};

struct lister {
	const struct profconv_list_options *o;
	regex_t rx;
	bool have_rx;
	const char **names;	/* or these exact names, sorted */
	size_t nnames;
	size_t rows;		/* of every routine */
	size_t budget, bytes;	/* the page's bytes, estimated; 0: none */
	struct tnode *nodes;
	size_t nnodes, nodes_cap;
	struct pc_keymap keys;	/* (parent, frame text) -> node + 1 */
	size_t stamp;
	struct pc_delta_scale scale;	/* totals and reference */
	struct pc_sources *sources;
	struct pc_listing out;
	char **displays;	/* per node: its file as displayed */
};

/* --- pprof's numbers: one implementation, view/graph.c's ----------------- */

const char profconv__list_full[] = "the listing's bound is reached "
    "(rows, or the page's size)";

const char *
profconv__list_value(char buf[48], int64_t v, const char *unit)
{
	return profconv__measure_label(buf, 48, v, unit, "minimum");
}

const char *
profconv__list_percent(char buf[32], int64_t v, int64_t total)
{
	return profconv__measure_percent_padded(buf, 32, v, total);
}

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

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
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
		    sizeof(*l->names), by_name) != NULL :
		    regexec(&l->rx, f.function, 0, NULL, 0) == 0))
			match[id] = 2;
	}
	return match[id] == 2;
}

/*
 * A profile as the listing sees it: its line view (frames per function
 * and line, inline marks) and, when focus or ignore filter it, each
 * stack's value of the samples they keep.
 */
struct lview {
	struct profconv_view *v;
	int64_t *vals;		/* per stack; NULL: the view's own */
	size_t ti;
};

/* Add L's stacks, value slot TI, as a base's part of the change when
 * FROM_BASE. */
static int
add_view(struct lister *l, const struct lview *lv, bool from_base)
{
	const struct profconv_view *view = lv->v;
	size_t ti = lv->ti;
	size_t i, j, k, n = profconv_view_stack_count(view);
	struct profconv_view_stack st;
	const uint8_t *marks;
	uint8_t *match;
	uint32_t node;
	int64_t v;
	int rc = 0;

	match = calloc(profconv_view_frame_count(view) + 1, 1);
	if (match == NULL)
		return profconv__nomem();
	for (i = 0; rc == 0 && i < n; i++) {
		rc = profconv_view_stack(view, i, &st);
		if (rc < 0 || st.values == NULL)
			continue;
		v = lv->vals != NULL ? lv->vals[i] : st.values[ti];
		if (v == 0)
			continue;
		v = profconv__delta_part(v, from_base);
		marks = profconv__view_stack_inline(view, i);
		l->stamp++;
		for (j = 0; rc == 0 && j < st.nframes; j++) {
			if (!matches(l, view, match, st.frames[j]))
				continue;
			rc = node_of(l, view, 0, st.frames[j], &node);
			if (rc < 0)
				break;
			count(l, node, v, j + 1 == st.nframes);
			for (k = j + 1; rc == 0 && marks != NULL &&
			    k < st.nframes && marks[k]; k++) {
				rc = node_of(l, view, node, st.frames[k], &node);
				if (rc == 0)
					count(l, node, v, k + 1 == st.nframes);
			}
		}
	}
	free(match);
	return rc;
}

/* --- from the tree to routines and rows ------------------------------------ */

/* Order of roots: function, file as displayed, line. */
static int
by_routine(const void *a, const void *b, void *payload)
{
	const struct lister *l = payload;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct tnode *nx = &l->nodes[x], *ny = &l->nodes[y];
	int c = strcmp(nx->function, ny->function);

	if (c == 0)
		c = strcmp(l->displays[x], l->displays[y]);
	if (c == 0)
		c = nx->line < ny->line ? -1 : nx->line > ny->line;
	return c != 0 ? c : (x < y ? -1 : x > y);
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
static int
build_dirs(struct pc_sources *sources, const struct profconv_profile *prof)
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

	if (x->w != y->w)
		return x->w < y->w ? 1 : -1;
	return strcmp(x->name, y->name);
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
	struct profconv_view_stack st;
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
		rc = build_dirs(s, prof);
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
		rc = profconv_view_stack(view, i, &st);
		for (j = st.nframes; rc == 0 && j-- > 0;) {
			v = slot[st.frames[j]];
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
	const struct lister *l = payload;
	uint32_t x = *(const uint32_t *)a - 1, y = *(const uint32_t *)b - 1;
	const struct tnode *nx = &l->nodes[x], *ny = &l->nodes[y];
	int c = strcmp(nx->function, ny->function);

	if (c == 0)
		c = strcmp(l->displays[x], l->displays[y]);
	if (c == 0)
		c = nx->line < ny->line ? -1 : nx->line > ny->line;
	return c;
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

static int
make_listing(struct lister *l, const struct profconv_profile *prof)
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

/* --- text ------------------------------------------------------------------- */

/*
 * LEN bytes of source at S for a terminal: tabs kept (pprof keeps them),
 * every other control byte, DEL, bad UTF-8 and the controls a terminal
 * obeys escaped (profconv__text_safe()); cut at PC_SOURCE_MAX_LINE bytes.
 */
static void
put_source(FILE *fp, struct pc_textbuf *tb, const char *s, size_t len)
{
	size_t i = 0, j, show = len;
	char *chunk;

	if (show > PC_SOURCE_MAX_LINE) {
		show = PC_SOURCE_MAX_LINE;
		while (show > 0 && ((unsigned char)s[show] & 0xc0) == 0x80)
			show--;
	}
	chunk = malloc(show + 1);
	if (chunk == NULL) {
		fputs("[out of memory]", fp);
		return;
	}
	while (i < show) {
		if (s[i] == '\t') {
			fputc('\t', fp);
			i++;
			continue;
		}
		if (s[i] == '\0') {
			fputs("\\x00", fp);
			i++;
			continue;
		}
		for (j = i; j < show && s[j] != '\t' && s[j] != '\0'; j++)
			;
		memcpy(chunk, s + i, j - i);
		chunk[j - i] = '\0';
		fputs(profconv__text_safe(tb, chunk), fp);
		i = j;
	}
	free(chunk);
	if (show < len)
		fprintf(fp, " [... %zu more bytes]", len - show);
}

static const char *
value_or_dot(char buf[48], const struct pc_listing *l, int64_t v)
{
	return v == 0 ? "." : profconv__list_value(buf, v, l->unit);
}

static void
put_row(FILE *fp, struct pc_textbuf *tb, const struct pc_listing *l,
    const struct pc_list_row *row)
{
	char a[48], b[48];
	const char *text, *base;
	size_t len;

	fprintf(fp, "%10s %10s ", value_or_dot(a, l, row->flat),
	    value_or_dot(b, l, row->cum));
	if (row->gap != 0) {
		fprintf(fp, "%6s  [%" PRId64 " line%s not shown: far from "
		    "every line that holds something]\n", "...", row->gap,
		    row->gap != 1 ? "s" : "");
		return;
	}
	if (row->depth == 0) {
		fprintf(fp, "%6" PRId64 ":", row->line);
	} else {
		base = strrchr(row->file, '/');
		base = base != NULL ? base + 1 : row->file;
		fprintf(fp, "%*s+ %s %s:%" PRId64 ":", (int)(6 + 2 * row->depth),
		    "", profconv__text_safe(tb, row->function),
		    profconv__text_safe(tb, base), row->line);
	}
	if (profconv__source_line(row->src, row->line, &text, &len)) {
		if (row->depth != 0) {
			/* Inlined lines show their code, not its indent. */
			while (len > 0 && (*text == ' ' || *text == '\t')) {
				text++;
				len--;
			}
			fputc(' ', fp);
		}
		put_source(fp, tb, text, len);
	}
	fputc('\n', fp);
}

static int
write_text(const struct pc_listing *l, FILE *fp)
{
	struct pc_textbuf tb = { 0 };
	char a[48], b[48], p[32];
	size_t i, k;

	fprintf(fp, "Total: %s\n", profconv__list_value(a, l->total, l->unit));
	for (i = 0; i < l->nroutines; i++) {
		const struct pc_list_routine *r = &l->routines[i];

		if (r->file == NULL) {
			fprintf(fp, "No source information for %s\n",
			    profconv__text_safe(&tb, r->name));
			continue;
		}
		fprintf(fp, "ROUTINE ======================== %s in %s\n",
		    profconv__text_safe(&tb, r->name),
		    profconv__text_safe(&tb, r->file));
		fprintf(fp, "%10s %10s (flat, cum) %s of Total\n",
		    profconv__list_value(a, r->flat, l->unit),
		    profconv__list_value(b, r->cum, l->unit),
		    profconv__list_percent(p, r->cum, l->total));
		if (r->src->text == NULL)
			fprintf(fp, " Note: source %s; tried %s\n",
			    r->src->withheld ? "withheld" : "not found",
			    profconv__text_safe(&tb, r->src->note));
		for (k = 0; k < r->nrows; k++)
			put_row(fp, &tb, l, &r->rows[k]);
		if (r->cut)
			fprintf(fp, " Note: cut here: %s\n", profconv__list_full);
	}
	if (l->more != 0)
		fprintf(fp, "Note: %zu more function%s not listed: %s\n",
		    l->more, l->more != 1 ? "s" : "", profconv__list_full);
	profconv__textbuf_free(&tb);
	return 0;
}

/* --- the entry point ------------------------------------------------------- */

static void
lister_free(struct lister *l)
{
	size_t i;

	if (l->have_rx)
		regfree(&l->rx);
	free(l->names);
	for (i = 0; l->displays != NULL && i < l->nnodes; i++)
		free(l->displays[i]);
	free(l->displays);
	for (i = 0; i < l->out.nroutines; i++)
		free(l->out.routines[i].rows);
	free(l->out.routines);
	free(l->nodes);
	profconv__keymap_free(&l->keys);
	profconv__sources_free(l->sources);
}

/*
 * The samples of PROF that a view by function with focus and ignore
 * (VO's) keeps, added up per stack of LV's line view: focus and ignore
 * match function names, as in every other command, not the line view's
 * "name file:line" frames.
 */
static int
filter_values(const struct profconv_profile *prof,
    const struct profconv_view_options *vo, struct lview *lv)
{
	struct profconv_view_options fo = *vo;
	struct profconv_view *fv = NULL;
	size_t i, k;
	int rc;

	fo.granularity = PROFCONV_BY_FUNCTION;
	rc = profconv_view_new(&fv, prof, &fo);
	if (rc < 0)
		return rc;
	lv->vals = calloc(profconv_view_stack_count(lv->v) + 1,
	    sizeof(*lv->vals));
	if (lv->vals == NULL) {
		profconv_view_free(fv);
		return profconv__nomem();
	}
	for (i = 0; i < prof->nsamples; i++) {
		k = profconv__view_sample_stack(lv->v, i);
		if (k != 0 && profconv__view_sample_stack(fv, i) != 0)
			pc_add_sat(&lv->vals[k - 1],
			    pc_sample_values(prof, i)[lv->ti]);
	}
	profconv_view_free(fv);
	return 0;
}

/* The listing's view of PROF, and the index of its sample type. */
static int
list_view(const struct profconv_profile *prof,
    const struct profconv_list_options *o, struct lview *lv)
{
	struct profconv_view_options vo, lo;
	int rc;

	rc = profconv__options_take(&vo, o->view, &profconv__options_view);
	if (rc < 0)
		return rc;
	lo = vo;
	lo.granularity = PROFCONV_BY_LINE;
	lo.focus = lo.ignore = NULL;
	rc = profconv_view_new(&lv->v, prof, &lo);
	if (rc == 0)
		rc = profconv_view_sample_index(lv->v, o->sample_type, &lv->ti);
	if (rc == 0 && (vo.focus != NULL || vo.ignore != NULL))
		rc = filter_values(prof, &vo, lv);
	return rc;
}

/* What to list: functions matching a regex, or named exactly. */
struct what {
	const char *regex;
	const char *const *names;
	size_t nnames;
	bool fragment;		/* the HTML fragment, not as OPTS->html says */
	size_t budget;
};

/* REGEX compiled into L->rx, refused when beyond the bounds every regex
 * has (PC_RX_*) or invalid. */
static int
compile_rx(regex_t *rx, const char *regex)
{
	char why[192];
	int err;

	if (profconv__rx_check(regex, why, sizeof(why)) < 0)
		return profconv__fail(PROFCONV_EINVAL, "regex '%s' refused: %s",
		    regex, why);
	err = regcomp(rx, regex, REG_EXTENDED | REG_NOSUB);
	if (err != 0) {
		regerror(err, rx, why, sizeof(why));
		return profconv__fail(PROFCONV_EINVAL, "invalid regex '%s': "
		    "%s", regex, why);
	}
	return 0;
}

int
profconv_list_check(const char *regex, const struct profconv_list_options *opts)
{
	struct profconv_list_options o;
	regex_t rx;
	int rc;

	if ((rc = profconv__options_take(&o, opts, &profconv__options_list)) < 0)
		return rc;
	if (regex == NULL)
		return profconv__fail(PROFCONV_EINVAL, "list: no regex");
	if ((rc = compile_rx(&rx, regex)) < 0)
		return rc;
	regfree(&rx);
	return 0;
}

/* The base's sample type must be the profile's: a value of one is no
 * change of the other. */
static int
same_type(const struct profconv_profile *cur, size_t ci,
    const struct profconv_profile *base, size_t bi)
{
	const char *ct = profconv__pstr(cur, cur->sample_types[ci].type);
	const char *cu = profconv__pstr(cur, cur->sample_types[ci].unit);
	const char *bt = profconv__pstr(base, base->sample_types[bi].type);
	const char *bu = profconv__pstr(base, base->sample_types[bi].unit);

	if (strcmp(ct, bt) == 0 && strcmp(cu, bu) == 0)
		return 0;
	return profconv__fail(PROFCONV_EINVAL, "list: the base's sample type "
	    "'%s' (%s) is not the profile's '%s' (%s)", bt, bu, ct, cu);
}

/* The listing of W's functions. */
static int
list_write(const struct profconv_profile *cur,
    const struct profconv_profile *base, const struct what *w, FILE *fp,
    const struct profconv_list_options *opts)
{
	struct profconv_list_options o;
	struct lview vc = { 0 }, vb = { 0 };
	struct lister l = { 0 };
	size_t i;
	int rc;

	if ((rc = profconv__options_take(&o, opts, &profconv__options_list)) < 0)
		return rc;
	if (cur == NULL || (w->regex == NULL && w->names == NULL) ||
	    fp == NULL)
		return profconv__fail(PROFCONV_EINVAL, "list: no profile, "
		    "regex or output");
	if (w->regex != NULL) {
		if ((rc = compile_rx(&l.rx, w->regex)) < 0)
			return rc;
		l.have_rx = true;
	} else {
		l.names = malloc((w->nnames + 1) * sizeof(*l.names));
		if (l.names == NULL)
			return profconv__nomem();
		for (i = 0; i < w->nnames; i++)
			l.names[i] = w->names[i];
		l.nnames = w->nnames;
		qsort(l.names, l.nnames, sizeof(*l.names), by_name);
	}
	l.o = &o;
	l.budget = w->budget;
	rc = list_view(cur, &o, &vc);
	if (rc == 0 && base != NULL)
		rc = list_view(base, &o, &vb);
	if (rc == 0 && base != NULL)
		rc = same_type(cur, vc.ti, base, vb.ti);
	if (rc == 0)
		rc = add_view(&l, &vc, false);
	if (rc == 0 && vb.v != NULL)
		rc = add_view(&l, &vb, true);
	if (rc == 0)
		profconv__delta_scale(&l.scale, base != NULL ?
		    profconv__delta_total(base, vb.ti) : 0,
		    profconv__delta_total(cur, vc.ti), 0);
	if (rc == 0)
		rc = profconv__sources_new(&l.sources, &o);
	if (rc == 0)
		rc = build_dirs(l.sources, cur);
	if (rc == 0 && base != NULL)
		rc = build_dirs(l.sources, base);
	if (rc == 0) {
		l.out.total = l.scale.reference;
		l.out.unit = profconv__pstr(cur,
		    cur->sample_types[vc.ti].unit);
		l.out.type = profconv__pstr(cur,
		    cur->sample_types[vc.ti].type);
		l.out.diff = base != NULL;
		rc = make_listing(&l, cur);
	}
	if (rc == 0 && l.out.nroutines == 0)
		rc = w->regex != NULL ? profconv__fail(PROFCONV_ENOTFOUND,
		    "no matches found for regexp: %s", w->regex) :
		    profconv__fail(PROFCONV_ENOTFOUND, "no source information "
		    "for %s of the %zu functions (no file or line in the "
		    "profile)", w->nnames != 1 ? "any" : "the one",
		    w->nnames);
	if (rc == 0)
		rc = w->fragment ?
		    profconv__list_write_html_fragment(&l.out, fp) :
		    o.html ? profconv__list_write_html(&l.out, fp, w->regex) :
		    write_text(&l.out, fp);
	if (rc == 0 && (fflush(fp) != 0 || ferror(fp)))
		rc = profconv__fail(PROFCONV_EIO, "write error: %s",
		    strerror(errno));
	lister_free(&l);
	profconv_view_free(vc.v);
	profconv_view_free(vb.v);
	free(vc.vals);
	free(vb.vals);
	return rc;
}

int
profconv_list_write(const struct profconv_profile *cur,
    const struct profconv_profile *base, const char *regex, FILE *fp,
    const struct profconv_list_options *opts)
{
	struct what w = { 0 };

	w.regex = regex;
	if (regex == NULL)
		return profconv__fail(PROFCONV_EINVAL, "list: no profile, "
		    "regex or output");
	return list_write(cur, base, &w, fp, opts);
}

int
profconv__list_write_fragment(const struct profconv_profile *cur,
    const struct profconv_profile *base, const char *const *names,
    size_t n, FILE *fp, const struct profconv_list_options *opts,
    size_t budget)
{
	struct what w = { NULL, names, n, true, budget };

	if (names == NULL)
		return profconv__fail(PROFCONV_EINVAL, "list: no names");
	return list_write(cur, base, &w, fp, opts);
}
