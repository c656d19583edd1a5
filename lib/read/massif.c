/* SPDX-License-Identifier: MIT */
/*
 * massif.c - reader of Valgrind massif output files (massif.out.PID): one
 * snapshot's heap tree becomes in-use bytes per stack (heaptrack-massif.md,
 * Part B and C.2), and the snapshots can be listed as a series.
 *
 * The file is read once.  Every heap tree is parsed (that checks it); the
 * one asked for is kept, and becomes the profile at the end.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/lex.h"
#include "read/readers.h"

/* A node of a heap tree, in file (pre-)order. */
struct ms_node {
	int64_t bytes, children_bytes;
	uint64_t addr;
	size_t text, text_len;		/* into the tree's TEXT */
	uint32_t parent;		/* node index + 1, 0 for the root */
	uint32_t nchildren;
	uint32_t depth;			/* nodes above it (its stack's frames) */
	bool has_addr;
};

struct ms_tree {
	struct ms_node *v;
	size_t n, cap;
	char *text;
	size_t text_len, text_cap;
};

/* A snapshot's header, and its tree when it has one. */
struct ms_snap {
	struct profconv_snapshot info;
	struct ms_tree tree;
};

struct ms_reader {
	struct pc_input *in;
	int64_t want;			/* options.snapshot */
	char *desc, *cmd, *time_unit;
	struct ms_snap cur, chosen, largest;
	bool have_chosen, have_largest;
	size_t nsnaps, ndetailed;
	/* Listing mode: every header goes here, and with KEEP_TREES the
	 * detailed snapshots' trees to KEPT, whose I[] are their places in
	 * the list. */
	struct profconv_snapshot *list;
	size_t list_cap;
	bool listing, keep_trees;
	struct ms_snap *kept;
	size_t *kept_at, nkept, kept_cap, kept_at_cap;
	uint32_t *pending;		/* children still to read, per depth */
	size_t pending_cap;
};

/* A failure naming the current line: "line N: ...". */
#define bad(r, ...) profconv__fail_line((r)->in->lineno, __VA_ARGS__)

/* The next line that is neither blank nor a '#' comment; 0 at the end. */
static int
next_line(struct ms_reader *r, const char **line, size_t *len)
{
	int rc;

	/* ms_print skips blank lines too. */
	do
		rc = profconv__input_getline(r->in, line, len);
	while (rc == 1 && (*len == 0 || (*line)[0] == '#'));
	return rc;
}

/* A line that must come next: "KEY=VALUE" with a decimal VALUE. */
static int
expect_number(struct ms_reader *r, const char *key, int64_t *out)
{
	const char *line, *p, *end;
	size_t len, klen = strlen(key);
	int rc;

	rc = next_line(r, &line, &len);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return profconv__fail(PROFCONV_EFORMAT, "truncated massif data:"
		    " the input ends where '%s=' was expected", key);
	end = line + len;
	p = line + klen + 1;
	if (len <= klen || memcmp(line, key, klen) != 0 || line[klen] != '=' ||
	    !profconv__parse_i64(&p, end, out) || p != end || *out < 0)
		return bad(r, "expected '%s=NUMBER'", key);
	return 0;
}

/* A header line "KEY: VALUE"; *OUT is a malloc'd copy of VALUE. */
static int
header_value(struct ms_reader *r, const char *line, size_t len,
    const char *key, char **out)
{
	size_t klen = strlen(key);

	if (!pc_has_prefix(line, len, key))
		return bad(r, "expected '%s' in the massif header", key);
	free(*out);
	*out = strndup(line + klen, len - klen);
	return *out != NULL ? 0 : profconv__nomem();
}

/* "desc: ..." (one or more, as ms_print allows), "cmd: ...", "time_unit: ...". */
static int
read_header(struct ms_reader *r)
{
	const char *line;
	size_t len;
	char *more = NULL, *joined;
	int rc;

	rc = next_line(r, &line, &len);
	if (rc == 1)
		rc = header_value(r, line, len, "desc: ", &r->desc);
	else if (rc == 0)
		rc = profconv__fail(PROFCONV_EFORMAT, "empty massif data");
	while (rc >= 0 && (rc = next_line(r, &line, &len)) == 1 &&
	    pc_has_prefix(line, len, "desc: ")) {
		rc = header_value(r, line, len, "desc: ", &more);
		if (rc == 0 && asprintf(&joined, "%s %s", r->desc, more) < 0)
			rc = profconv__nomem();
		if (rc == 0) {
			free(r->desc);
			r->desc = joined;
		}
	}
	free(more);
	if (rc == 1)
		rc = header_value(r, line, len, "cmd: ", &r->cmd);
	else if (rc == 0)
		rc = profconv__fail(PROFCONV_EFORMAT, "truncated massif data: "
		    "no 'cmd:' line");
	if (rc == 0)
		rc = next_line(r, &line, &len);
	if (rc == 1)
		rc = header_value(r, line, len, "time_unit: ", &r->time_unit);
	else if (rc == 0)
		rc = profconv__fail(PROFCONV_EFORMAT, "truncated massif data: "
		    "no 'time_unit:' line");
	return rc;
}

/* --- heap trees ------------------------------------------------------------- */

/*
 * One tree line, "<indent>n<children>: <bytes> <text>".  The child counts,
 * not the indentation, give the shape (as ms_print reads it).
 */
static int
parse_node(struct ms_reader *r, struct ms_tree *t, const char *line,
    size_t len, uint32_t parent)
{
	const char *p = line, *end = line + len, *q;
	struct ms_node *nd;
	uint64_t nch;
	int rc;

	while (p < end && *p == ' ')
		p++;
	if (p == end || *p++ != 'n' || !profconv__parse_u64(&p, end, &nch) ||
	    nch > UINT32_MAX || end - p < 2 || p[0] != ':' || p[1] != ' ')
		return bad(r, "malformed heap tree line, expected "
		    "'nCHILDREN: BYTES TEXT'");
	p += 2;
	rc = PC_GROW(t->v, t->cap, t->n, 1);
	if (rc < 0)
		return rc;
	nd = &t->v[t->n];
	memset(nd, 0, sizeof(*nd));
	if (!profconv__parse_i64(&p, end, &nd->bytes) || nd->bytes < 0 ||
	    (p < end && *p != ' '))
		return bad(r, "malformed byte count in a heap tree line");
	if (p < end)
		p++;
	nd->nchildren = (uint32_t)nch;
	nd->parent = parent;
	nd->depth = parent != 0 ? t->v[parent - 1].depth + 1 : 0;
	/* "0xADDR: ..." is a frame; anything else is the root or an
	 * aggregate of entries below the threshold. */
	q = p + 2;
	if (end - p > 3 && p[0] == '0' && p[1] == 'x' &&
	    profconv__parse_hex(&q, end, &nd->addr) && end - q >= 2 &&
	    q[0] == ':' && q[1] == ' ') {
		nd->has_addr = true;
		p = q + 2;
	}
	rc = PC_GROW(t->text, t->text_cap, t->text_len, (size_t)(end - p));
	if (rc < 0)
		return rc;
	nd->text = t->text_len;
	nd->text_len = (size_t)(end - p);
	if (p != end)
		memcpy(t->text + t->text_len, p, (size_t)(end - p));
	t->text_len += (size_t)(end - p);
	t->n++;
	return 0;
}

/* Read a whole tree; check that children never hold more than parents. */
static int
read_tree(struct ms_reader *r, struct ms_tree *t, int64_t heap)
{
	const char *line;
	size_t len, depth = 0;
	uint32_t parent = 0;
	int rc;

	t->n = t->text_len = 0;
	for (;;) {
		rc = next_line(r, &line, &len);
		if (rc == 0)
			rc = profconv__fail(PROFCONV_EFORMAT, "truncated massif "
			    "data: a heap tree ends at line %llu",
			    (unsigned long long)r->in->lineno);
		if (rc < 0)
			return rc;
		rc = parse_node(r, t, line, len, parent);
		if (rc < 0)
			return rc;
		if (parent != 0) {
			pc_add_sat(&t->v[parent - 1].children_bytes,
			    t->v[t->n - 1].bytes);
			r->pending[depth - 1]--;
		}
		if (t->v[t->n - 1].nchildren != 0) {
			rc = PC_GROW(r->pending, r->pending_cap, depth, 1);
			if (rc < 0)
				return rc;
			r->pending[depth++] = t->v[t->n - 1].nchildren;
			parent = (uint32_t)t->n;
		}
		/* Climb out of the nodes whose children are all read. */
		while (depth != 0 && r->pending[depth - 1] == 0) {
			if (t->v[parent - 1].children_bytes >
			    t->v[parent - 1].bytes)
				return bad(r, "heap tree children hold more "
				    "bytes than their parent");
			parent = t->v[parent - 1].parent;
			depth--;
		}
		if (depth == 0)
			break;
	}
	if (t->v[0].bytes != heap)
		return bad(r, "heap tree holds %" PRId64 " bytes, mem_heap_B "
		    "says %" PRId64, t->v[0].bytes, heap);
	return 0;
}

static void
swap_snap(struct ms_snap *a, struct ms_snap *b)
{
	struct ms_snap t = *a;

	*a = *b;
	*b = t;
}

/* Keep the snapshot just read if it is the one asked for. */
static void
consider(struct ms_reader *r)
{
	struct profconv_snapshot *s = &r->cur.info;
	int64_t total = s->heap_bytes + s->heap_extra_bytes + s->stacks_bytes;
	int64_t best = r->largest.info.heap_bytes +
	    r->largest.info.heap_extra_bytes + r->largest.info.stacks_bytes;

	if (!s->detailed)
		return;
	if ((r->want == PROFCONV_SNAPSHOT_PEAK && s->peak) ||
	    r->want == PROFCONV_SNAPSHOT_LAST ||
	    (r->want >= 0 && (uint64_t)r->want == s->number)) {
		swap_snap(&r->cur, &r->chosen);
		r->have_chosen = true;
	} else if (r->want == PROFCONV_SNAPSHOT_PEAK &&
	    (!r->have_largest || total > best)) {
		swap_snap(&r->cur, &r->largest);
		r->have_largest = true;
	}
}

/* Keep the snapshot just read, tree and all (its buffers move; the next
 * snapshot is read into new ones). */
static int
keep_tree(struct ms_reader *r)
{
	int rc;

	rc = PC_GROW(r->kept, r->kept_cap, r->nkept, 1);
	if (rc == 0)
		rc = PC_GROW(r->kept_at, r->kept_at_cap, r->nkept, 1);
	if (rc < 0)
		return rc;
	r->kept_at[r->nkept] = r->nsnaps - 1;
	r->kept[r->nkept++] = r->cur;
	memset(&r->cur.tree, 0, sizeof(r->cur.tree));
	return 0;
}

/* "snapshot=N" and the lines after it; LINE is the first. */
static int
read_snapshot(struct ms_reader *r, const char *line, size_t len)
{
	struct profconv_snapshot *s = &r->cur.info;
	const char *p = line + 9, *end = line + len;
	int rc;

	memset(s, 0, sizeof(*s));
	if (!pc_has_prefix(line, len, "snapshot=") ||
	    !profconv__parse_u64(&p, end, &s->number) || p != end)
		return bad(r, "expected 'snapshot=NUMBER'");
	rc = expect_number(r, "time", &s->time);
	if (rc == 0)
		rc = expect_number(r, "mem_heap_B", &s->heap_bytes);
	if (rc == 0)
		rc = expect_number(r, "mem_heap_extra_B", &s->heap_extra_bytes);
	if (rc == 0)
		rc = expect_number(r, "mem_stacks_B", &s->stacks_bytes);
	if (rc == 0)
		rc = next_line(r, &line, &len);
	if (rc == 0)
		rc = profconv__fail(PROFCONV_EFORMAT, "truncated massif data: "
		    "the input ends where 'heap_tree=' was expected");
	if (rc < 0)
		return rc;
	if (len == 14 && memcmp(line, "heap_tree=peak", 14) == 0)
		s->peak = s->detailed = 1;
	else if (len == 18 && memcmp(line, "heap_tree=detailed", 18) == 0)
		s->detailed = 1;
	else if (len != 15 || memcmp(line, "heap_tree=empty", 15) != 0)
		return bad(r, "expected 'heap_tree=empty|detailed|peak'");
	if (s->detailed)
		rc = read_tree(r, &r->cur.tree, s->heap_bytes);
	if (rc < 0)
		return rc;
	r->nsnaps++;
	r->ndetailed += s->detailed != 0;
	if (r->listing) {
		rc = PC_GROW(r->list, r->list_cap, r->nsnaps - 1, 1);
		if (rc == 0)
			r->list[r->nsnaps - 1] = *s;
		if (rc == 0 && r->keep_trees && s->detailed)
			rc = keep_tree(r);
		return rc;
	}
	consider(r);
	return 0;
}

static int
read_file(struct ms_reader *r)
{
	const char *line;
	size_t len;
	int rc;

	rc = read_header(r);
	while (rc == 0 && (rc = next_line(r, &line, &len)) == 1)
		rc = read_snapshot(r, line, len);
	if (rc == 0 && r->nsnaps == 0)
		rc = profconv__fail(PROFCONV_EFORMAT,
		    "massif data without snapshots");
	return rc;
}

/* --- the profile ------------------------------------------------------------ */

struct ms_builder {
	struct profconv_profile *prof;
	const struct ms_tree *tree;
	struct pc_u64map fn_by_key;	/* name << 32 | file -> function id */
	struct pc_keymap loc_by_key;
	struct pc_keymap map_by_file;	/* object -> mapping id */
	char **objs;			/* mapping id - 1 -> object */
	uint8_t *obj_flags;
	size_t nobjs, objs_cap, flags_cap;
	uint32_t *stack;
	size_t stack_cap;
	uint32_t *path;
	size_t path_cap;
};

/* What a frame's text says: "FN (FILE:LINE)", "FN (in OBJ)" or "FN". */
struct ms_frame {
	const char *fn, *file, *obj;
	size_t fn_len, file_len, obj_len;
	int64_t line;
};

/*
 * Split a frame's text.  The location is the last " (...)" with no
 * parenthesis inside, since names may hold "(", ")" and spaces.
 */
static void
parse_frame(const char *s, size_t len, struct ms_frame *f)
{
	const char *end = s + len, *open, *p, *colon = NULL;
	int64_t line;

	memset(f, 0, sizeof(*f));
	f->fn = s;
	f->fn_len = len;
	if (len < 4 || end[-1] != ')')
		return;
	for (open = end - 2; open > s && *open != '(' && *open != ')'; open--)
		;
	if (open <= s || *open != '(' || open[-1] != ' ')
		return;
	p = open + 1;
	if (end - 1 - p > 3 && memcmp(p, "in ", 3) == 0) {
		f->obj = p + 3;
		f->obj_len = (size_t)(end - 1 - f->obj);
	} else {
		for (colon = end - 2; colon > p && *colon != ':'; colon--)
			;
		p = colon + 1;
		if (colon <= open + 1 || !profconv__parse_i64(&p, end - 1,
		    &line) || p != end - 1 || line < 0)
			return;
		f->file = open + 1;
		f->file_len = (size_t)(colon - f->file);
		f->line = line;
	}
	f->fn_len = (size_t)(open - 1 - s);
}

static int
function_of(struct ms_builder *b, const char *name, size_t name_len,
    const char *file, size_t file_len, uint32_t *id)
{
	struct profconv_function f = { 0 };
	uint32_t n, fl;
	uint64_t key;
	int rc;

	rc = profconv__strtab_intern(&b->prof->strings, name, name_len, &n);
	if (rc == 0)
		rc = profconv__strtab_intern(&b->prof->strings, file, file_len,
		    &fl);
	if (rc < 0)
		return rc;
	key = (uint64_t)n << 32 | fl;
	if (profconv__u64map_get(&b->fn_by_key, key, id))
		return 0;
	f.name = f.system_name = profconv__pstr(b->prof, n);
	f.file = profconv__pstr(b->prof, fl);
	rc = profconv_profile_add_function(b->prof, &f, id);
	if (rc == 0)
		rc = profconv__u64map_put(&b->fn_by_key, key, *id);
	return rc;
}

/* The mapping of object OBJ, numbered by first use, added at the end. */
static int
mapping_of(struct ms_builder *b, const char *obj, size_t len, uint32_t *id)
{
	bool inserted;
	int rc;

	*id = 0;
	if (len == 0 || (len == 3 && memcmp(obj, "???", 3) == 0))
		return 0;
	rc = profconv__keymap_intern(&b->map_by_file, obj, len,
	    (uint32_t)b->nobjs + 1, id, &inserted);
	if (rc < 0 || !inserted)
		return rc;
	rc = PC_GROW(b->objs, b->objs_cap, b->nobjs, 1);
	if (rc == 0)
		rc = PC_GROW(b->obj_flags, b->flags_cap, b->nobjs, 1);
	if (rc < 0)
		return rc;
	b->obj_flags[b->nobjs] = 0;
	b->objs[b->nobjs] = strndup(obj, len);
	if (b->objs[b->nobjs] == NULL)
		return profconv__nomem();
	b->nobjs++;
	return 0;
}

/* The line a frame node gives, if any (false for "???"). */
static int
node_line(struct ms_builder *b, const struct ms_node *nd, struct pc_line *l,
    uint32_t *mapping, bool *has_line)
{
	const char *text = b->tree->text + nd->text;
	struct ms_frame f;
	int rc;

	*has_line = false;
	l->line = l->column = 0;
	if (!nd->has_addr) {
		/* An aggregate of entries below massif's threshold. */
		char *name;

		*mapping = 0;
		if (asprintf(&name, "[%.*s]", (int)nd->text_len, text) < 0)
			return profconv__nomem();
		rc = function_of(b, name, strlen(name), "", 0, &l->function);
		free(name);
		*has_line = true;
		return rc;
	}
	parse_frame(text, nd->text_len, &f);
	rc = mapping_of(b, f.obj, f.obj_len, mapping);
	if (rc < 0)
		return rc;
	if (f.fn_len == 3 && memcmp(f.fn, "???", 3) == 0 && f.file == NULL)
		return 0;
	*has_line = true;
	l->line = f.line;
	if (*mapping != 0)
		b->obj_flags[*mapping - 1] |= PC_MAP_HAS_FUNCTIONS;
	return function_of(b, f.fn, f.fn_len, f.file != NULL ? f.file : "",
	    f.file_len, &l->function);
}

/* The location of nodes PATH[0..N) (one node, or an inline chain). */
static int
location_of(struct ms_builder *b, const uint32_t *path, size_t n,
    uint32_t *id)
{
	const struct ms_node *nd = &b->tree->v[path[0]];
	struct pc_line lines[64];
	uint32_t mapping = 0, m;
	unsigned char key[16 + 64 * 12];
	size_t i, nl = 0, klen;
	bool has_line, inserted;
	int rc;

	for (i = 0; i < n; i++) {
		rc = node_line(b, &b->tree->v[path[i]], &lines[nl], &m,
		    &has_line);
		if (rc < 0)
			return rc;
		if (i == 0)
			mapping = m;
		nl += has_line;
	}
	memcpy(key, &nd->addr, 8);
	memcpy(key + 8, &mapping, 4);
	klen = 12;
	for (i = 0; i < nl; i++) {
		memcpy(key + klen, &lines[i].function, 4);
		memcpy(key + klen + 4, &lines[i].line, 8);
		klen += 12;
	}
	rc = profconv__keymap_intern(&b->loc_by_key, key, klen,
	    (uint32_t)b->prof->nlocations + 1, id, &inserted);
	if (rc < 0 || !inserted)
		return rc;
	return profconv__add_location_raw(b->prof, mapping, nd->addr, lines,
	    nl, false, id);
}

static bool
same_line(const struct ms_tree *t, uint32_t a, uint32_t b)
{
	return t->v[a].text_len == t->v[b].text_len &&
	    memcmp(t->text + t->v[a].text, t->text + t->v[b].text,
	    t->v[a].text_len) == 0;
}

/*
 * How many nodes from PATH[0] form one location.  massif prints an inline
 * chain as nodes with one address, each with one child, innermost first;
 * recursion through one call site looks the same but repeats its lines.
 * So a run of one address folds by its smallest period whose lines are
 * distinct (a period of 1 is plain recursion).
 */
static size_t
fold_length(const struct ms_tree *t, const uint32_t *path, size_t n)
{
	size_t run = 1, p, i, j;
	bool ok;

	if (!t->v[path[0]].has_addr)
		return 1;
	while (run < n && run < 64 && t->v[path[run]].has_addr &&
	    t->v[path[run]].addr == t->v[path[0]].addr)
		run++;
	for (p = 1; p <= run; p++) {
		if (run % p != 0)
			continue;
		ok = true;
		for (i = p; i < run && ok; i++)
			ok = same_line(t, path[i], path[i - p]);
		for (i = 0; i < p && ok; i++) {
			for (j = i + 1; j < p && ok; j++)
				ok = !same_line(t, path[i], path[j]);
			/* Inline nodes but the real function have one child. */
			if (i + 1 < p && t->v[path[i]].nchildren != 1)
				ok = false;
		}
		if (ok)
			return p;
	}
	return 1;
}

/* The sample of node X: its frames from the allocation site outwards. */
static int
add_node_sample(struct ms_builder *b, uint32_t x, int64_t own)
{
	const struct ms_tree *t = b->tree;
	size_t n = 0, i, k, ns = 0;
	uint32_t v, id;
	int rc;

	for (v = x + 1; t->v[v - 1].parent != 0; v = t->v[v - 1].parent) {
		rc = PC_GROW(b->path, b->path_cap, n, 1);
		if (rc < 0)
			return rc;
		b->path[n++] = v - 1;
	}
	/* Innermost (the tree's first level) first. */
	for (i = 0; i < n / 2; i++) {
		v = b->path[i];
		b->path[i] = b->path[n - 1 - i];
		b->path[n - 1 - i] = v;
	}
	for (i = 0; i < n; i += k) {
		k = fold_length(t, b->path + i, n - i);
		rc = location_of(b, b->path + i, k, &id);
		if (rc == 0)
			rc = PC_GROW(b->stack, b->stack_cap, ns, 1);
		if (rc < 0)
			return rc;
		b->stack[ns++] = id;
	}
	return profconv__add_sample_raw(b->prof, b->stack, ns, &own, NULL, 0);
}

static int
add_mappings(struct ms_builder *b)
{
	struct profconv_mapping m;
	size_t i;
	int rc;

	for (i = 0; i < b->nobjs; i++) {
		memset(&m, 0, sizeof(m));
		m.file = b->objs[i];
		m.has_functions = !!(b->obj_flags[i] & PC_MAP_HAS_FUNCTIONS);
		rc = profconv_profile_add_mapping(b->prof, &m, NULL);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * What the tree counts.  Valgrind's xtree memory reports (--xtree-memory,
 * a ".ms" file) use massif's format with one snapshot per event, named
 * by the root's text: "curB : currently allocated Bytes" and so on.
 */
static void
value_type(const struct ms_tree *t, struct profconv_value_type *vt)
{
	static const struct { const char *event, *type, *unit; } events[] = {
		{ "curB : ", "inuse_space", "bytes" },
		{ "curBk : ", "inuse_objects", "count" },
		{ "totB : ", "alloc_space", "bytes" },
		{ "totBk : ", "alloc_objects", "count" },
		{ "totFdB : ", "freed_space", "bytes" },
		{ "totFdBk : ", "freed_objects", "count" },
	};
	const char *text = t->text + t->v[0].text;
	size_t i;

	vt->type = "inuse_space";
	vt->unit = "bytes";
	for (i = 0; i < PC_ARRAY_LEN(events); i++)
		if (pc_has_prefix(text, t->v[0].text_len, events[i].event)) {
			vt->type = events[i].type;
			vt->unit = events[i].unit;
		}
}

static int
add_header(struct ms_reader *r, struct profconv_profile *prof,
    const struct ms_snap *s, bool fallback)
{
	const struct profconv_snapshot *i = &s->info;
	struct profconv_value_type vt;
	int rc;

	value_type(&s->tree, &vt);
	rc = profconv_profile_add_sample_type(prof, vt.type, vt.unit);
	if (rc == 0)
		rc = profconv_profile_set_period(prof, "space", "bytes", 1);
	if (rc == 0)
		rc = profconv__add_commentf(prof, "massif snapshot %" PRIu64
		    "%s of %zu, time=%" PRId64 " (%s)", i->number, i->peak ?
		    " (peak)" : "", r->nsnaps, i->time, r->time_unit);
	if (rc == 0 && fallback)
		rc = profconv__add_commentf(prof, "massif recorded no peak "
		    "snapshot: this is the detailed snapshot with the largest "
		    "total");
	if (rc == 0)
		rc = profconv__add_commentf(prof, "mem_heap_extra_B=%" PRId64
		    " mem_stacks_B=%" PRId64 " (not in the samples)",
		    i->heap_extra_bytes, i->stacks_bytes);
	if (rc == 0)
		rc = profconv__add_commentf(prof, "desc: %.400s", r->desc);
	if (rc == 0)
		rc = profconv__add_commentf(prof, "cmd: %.400s", r->cmd);
	if (rc == 0 && strcmp(r->time_unit, "ms") == 0 &&
	    i->time <= INT64_MAX / 1000000)
		profconv_profile_set_time(prof, 0, i->time * 1000000);
	return rc;
}

static void
builder_free(struct ms_builder *b)
{
	size_t i;

	profconv__u64map_free(&b->fn_by_key);
	profconv__keymap_free(&b->loc_by_key);
	profconv__keymap_free(&b->map_by_file);
	for (i = 0; i < b->nobjs; i++)
		free(b->objs[i]);
	free(b->objs);
	free(b->obj_flags);
	free(b->stack);
	free(b->path);
}

/*
 * A chain of N nodes each holding a few bytes of its own is N lines of
 * input and N * N / 2 frames of samples: the samples' bytes in the model
 * are bounded by the input bound, as the pprof decoder bounds them, and
 * counted (at most one frame per node) before any is made.
 */
static int
check_budget(const struct ms_reader *r, const struct ms_tree *t)
{
	uint64_t bytes = 0, frames = 0, n = 0;
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].bytes > t->v[i].children_bytes) {
			n++;
			frames += t->v[i].depth;
		}
	bytes = n * (sizeof(struct pc_sample) + sizeof(int64_t)) +
	    frames * sizeof(uint32_t);
	if (bytes <= r->in->max)
		return 0;
	return profconv__fail(PROFCONV_EFORMAT, "massif heap tree of %zu "
	    "nodes expands to %llu stacks of %llu frames, more than the input "
	    "bound, %llu MiB, of memory", t->n, (unsigned long long)n,
	    (unsigned long long)frames, (unsigned long long)(r->in->max >> 20));
}

static int
build(struct ms_reader *r, const struct ms_snap *s, bool fallback,
    struct profconv_profile **out)
{
	struct ms_builder b;
	const struct ms_node *nd;
	size_t i;
	int rc;

	memset(&b, 0, sizeof(b));
	b.tree = &s->tree;
	rc = check_budget(r, &s->tree);
	if (rc < 0)
		return rc;
	rc = profconv_profile_new(&b.prof);
	if (rc == 0)
		rc = add_header(r, b.prof, s, fallback);
	/* Bytes no child holds end at their node (the root: no frames). */
	for (i = 0; rc == 0 && i < s->tree.n; i++) {
		nd = &s->tree.v[i];
		if (nd->bytes > nd->children_bytes)
			rc = add_node_sample(&b, (uint32_t)i,
			    nd->bytes - nd->children_bytes);
	}
	if (rc == 0)
		rc = add_mappings(&b);
	if (rc == 0) {
		*out = b.prof;
		b.prof = NULL;
	}
	profconv_profile_free(b.prof);
	builder_free(&b);
	return rc;
}

/* Why the snapshot asked for is not there. */
static int
not_found(struct ms_reader *r)
{
	if (r->want == PROFCONV_SNAPSHOT_PEAK ||
	    r->want == PROFCONV_SNAPSHOT_LAST)
		return profconv__fail(PROFCONV_ENOTFOUND, "massif data has no "
		    "detailed snapshot (no heap tree in %zu snapshots)",
		    r->nsnaps);
	return profconv__fail(PROFCONV_ENOTFOUND, "massif snapshot %" PRId64
	    " %s (%zu snapshots, %zu with a heap tree)", r->want,
	    (uint64_t)r->want < r->nsnaps ? "has no heap tree" :
	    "does not exist", r->nsnaps, r->ndetailed);
}

static void
reader_free(struct ms_reader *r)
{
	free(r->desc);
	free(r->cmd);
	free(r->time_unit);
	free(r->cur.tree.v);
	free(r->cur.tree.text);
	free(r->chosen.tree.v);
	free(r->chosen.tree.text);
	free(r->largest.tree.v);
	free(r->largest.tree.text);
	free(r->pending);
	free(r->list);
	for (size_t i = 0; i < r->nkept; i++) {
		free(r->kept[i].tree.v);
		free(r->kept[i].tree.text);
	}
	free(r->kept);
	free(r->kept_at);
}

static int
read_massif(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	struct ms_reader r;
	int rc;

	*out = NULL;
	memset(&r, 0, sizeof(r));
	r.in = in;
	r.want = opts != NULL ? opts->snapshot : PROFCONV_SNAPSHOT_PEAK;
	if (r.want < 0 && r.want != PROFCONV_SNAPSHOT_PEAK &&
	    r.want != PROFCONV_SNAPSHOT_LAST)
		rc = profconv__fail(PROFCONV_EINVAL, "invalid snapshot %" PRId64,
		    r.want);
	else
		rc = read_file(&r);
	if (rc == 0 && r.have_chosen)
		rc = build(&r, &r.chosen, false, out);
	else if (rc == 0 && r.have_largest)
		rc = build(&r, &r.largest, true, out);
	else if (rc == 0)
		rc = not_found(&r);
	reader_free(&r);
	return rc;
}

int
profconv_snapshots_read(struct profconv_snapshot **out, size_t *count,
    FILE *fp, const struct profconv_read_options *opts)
{
	struct profconv_read_options o;
	struct ms_reader r;
	struct pc_input in;
	int rc;

	*out = NULL;
	*count = 0;
	memset(&r, 0, sizeof(r));
	r.in = &in;
	r.listing = true;
	if ((rc = profconv__options_take(&o, opts, &profconv__options_read)) < 0)
		return rc;
	opts = &o;
	rc = profconv__input_init(&in, fp, NULL, 0,
	    opts != NULL ? opts->max_input : 0);
	if (rc == 0)
		rc = read_file(&r);
	if (rc == 0) {
		*out = r.list;
		*count = r.nsnaps;
		r.list = NULL;
	}
	profconv__input_free(&in);
	reader_free(&r);
	return rc;
}

void
profconv_snapshots_free(struct profconv_snapshot *snapshots)
{
	free(snapshots);
}

int
profconv_snapshots_read_profiles(struct profconv_snapshot **snapshots,
    struct profconv_profile ***profiles, size_t *count, FILE *fp,
    const struct profconv_read_options *opts)
{
	struct profconv_read_options o;
	struct profconv_profile **profs = NULL;
	struct ms_reader r;
	struct pc_input in;
	size_t i;
	int rc;

	*snapshots = NULL;
	*profiles = NULL;
	*count = 0;
	memset(&r, 0, sizeof(r));
	r.in = &in;
	r.listing = r.keep_trees = true;
	if ((rc = profconv__options_take(&o, opts, &profconv__options_read)) < 0)
		return rc;
	rc = profconv__input_init(&in, fp, NULL, 0, o.max_input);
	if (rc == 0)
		rc = read_file(&r);
	if (rc == 0 && (profs = calloc(r.nsnaps, sizeof(*profs))) == NULL)
		rc = profconv__nomem();
	/* Built after the whole file is read: each says "snapshot N of
	 * <all of them>", as reading that one snapshot does. */
	for (i = 0; rc == 0 && i < r.nkept; i++)
		rc = build(&r, &r.kept[i], false, &profs[r.kept_at[i]]);
	if (rc == 0) {
		*snapshots = r.list;
		*profiles = profs;
		*count = r.nsnaps;
		r.list = NULL;
		profs = NULL;
	}
	profconv_snapshot_profiles_free(profs, r.nsnaps);
	profconv__input_free(&in);
	reader_free(&r);
	return rc;
}

void
profconv_snapshot_profiles_free(struct profconv_profile **profiles,
    size_t count)
{
	size_t i;

	if (profiles == NULL)
		return;
	for (i = 0; i < count; i++)
		profconv_profile_free(profiles[i]);
	free(profiles);
}

/* The first line: "desc: ..." (massif's own options, or "(none)"). */
static bool
sniff_massif(const unsigned char *head, size_t len, bool whole)
{
	(void)whole;
	return profconv__head_first_line_has(head, len,
	    (const char *const[]){ "desc: ", NULL });
}

const struct pc_reader profconv__reader_massif = {
	PROFCONV_FORMAT_MASSIF, "massif", sniff_massif, read_massif, NULL
};
