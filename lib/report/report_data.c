/* SPDX-License-Identifier: MIT */
/*
 * report_data.c - the call tree the report page's script draws its
 * views from (the live top table and flame graph, page/explore.js).
 *
 * The tree is the view's: its stacks, read through the view's stack
 * iteration, one frame per source line (the view at line granularity
 * unless another one was asked), so the script can group by function,
 * by line or by file, and focus or ignore by function name.  Each node
 * keeps its self value for every sample type.  Pruning as pprof's
 * -nodefraction: a node whose cum is at most FRACTION of the total for
 * every sample type is dropped with its subtree, its values kept apart
 * as the "pruned" value of its nearest kept ancestor (in that node's
 * cum and width, never in any function's flat), so totals stay whole,
 * no flat is distorted and the page can say what it left out in
 * pprof's words.  A node budget raises
 * the fraction as far as needed: the BUDGET heaviest nodes stay (cum
 * never grows from a node to its callee, so they form a tree), and the
 * statement names the cut that was applied.
 *
 * The JSON goes inside a <script> element: '<', '>' and '&' are written
 * as \u003c, \u003e, \u0026 (they can only occur inside strings), so
 * neither "</script" nor "<!--" can appear in it.
 */

#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base/bounds.h"
#include "model/model.h"
#include "page/page.h"
#include "view/view.h"
#include "view/graph.h"
#include "write/write.h"
#include "report/report_data.h"
#include "report/trendsvg.h"
#include "report/report_tree.h"

static int
hash_grow(struct tree *t)
{
	size_t ncap = t->hcap != 0 ? 2 * t->hcap : 1024, i;
	uint64_t *keys = calloc(ncap, sizeof(*keys));
	uint32_t *vals = calloc(ncap, sizeof(*vals));

	if (keys == NULL || vals == NULL) {
		free(keys);
		free(vals);
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	}
	for (i = 0; i < t->hcap; i++) {
		size_t h;

		if (t->vals[i] == 0)
			continue;
		h = profconv__hash_u64(t->keys[i]) & (ncap - 1);
		while (vals[h] != 0)
			h = (h + 1) & (ncap - 1);
		keys[h] = t->keys[i];
		vals[h] = t->vals[i];
	}
	free(t->keys);
	free(t->vals);
	t->keys = keys;
	t->vals = vals;
	t->hcap = ncap;
	return 0;
}

int
profconv__report_node_add(struct tree *t, uint32_t parent, uint32_t frame,
    uint32_t *out)
{
	if (t->n >= UINT32_MAX - 1)
		return profconv__fail(PROFCONV_ENOMEM, "call tree too large");
	if (PC_GROW(t->parent, t->pcap, t->n, 1) < 0)
		return PROFCONV_ENOMEM;
	if (PC_GROW(t->frame, t->fcap, t->n, 1) < 0)
		return PROFCONV_ENOMEM;
	if (PC_GROW(t->self, t->selfcap, t->n * t->nt, t->nt) < 0)
		return PROFCONV_ENOMEM;
	t->parent[t->n] = parent;
	t->frame[t->n] = frame;
	if (t->nt > 0)	/* a series' tree has no columns of its own */
		memset(&t->self[t->n * t->nt], 0, t->nt * sizeof(int64_t));
	*out = (uint32_t)t->n++;
	return 0;
}

/* The child of PARENT for FRAME, made when new. */
static int
child(struct tree *t, uint32_t parent, uint32_t frame, uint32_t *out)
{
	uint64_t key = (uint64_t)parent << 32 | frame;
	size_t h;
	int rc;

	if (2 * (t->hn + 1) > t->hcap && (rc = hash_grow(t)) < 0)
		return rc;
	h = profconv__hash_u64(key) & (t->hcap - 1);
	while (t->vals[h] != 0) {
		if (t->keys[h] == key) {
			*out = t->vals[h] - 1;
			return 0;
		}
		h = (h + 1) & (t->hcap - 1);
	}
	if ((rc = profconv__report_node_add(t, parent, frame, out)) < 0)
		return rc;
	t->keys[h] = key;
	t->vals[h] = *out + 1;
	t->hn++;
	return 0;
}

void
profconv__report_tree_free(struct tree *t)
{
	free(t->parent);
	free(t->frame);
	free(t->self);
	free(t->keys);
	free(t->vals);
	profconv__u64map_free(&t->leaves);
	free(t->leaf);
	free(t->lpool);
	free(t->lnodes);
	free(t->order[0]);
	free(t->order[1]);
	free(t->tnode);
	free(t->tcol);
	free(t->tval);
}

/* --- strings ------------------------------------------------------------- */

static uint64_t
str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

int
profconv__report_str_index(struct strs *st, const char *s, uint32_t *out)
{
	size_t i, h;

	if (2 * (st->n + 1) > st->hcap) {
		size_t ncap = st->hcap != 0 ? 2 * st->hcap : 1024;
		uint32_t *nh = calloc(ncap, sizeof(*nh));

		if (nh == NULL)
			return profconv__fail(PROFCONV_ENOMEM, "out of memory");
		for (i = 0; i < st->n; i++) {
			h = str_hash(st->s[i]) & (ncap - 1);
			while (nh[h] != 0)
				h = (h + 1) & (ncap - 1);
			nh[h] = (uint32_t)i + 1;
		}
		free(st->h);
		st->h = nh;
		st->hcap = ncap;
	}
	h = str_hash(s) & (st->hcap - 1);
	while (st->h[h] != 0) {
		if (strcmp(st->s[st->h[h] - 1], s) == 0) {
			*out = st->h[h] - 1;
			return 0;
		}
		h = (h + 1) & (st->hcap - 1);
	}
	if (PC_GROW(st->s, st->cap, st->n, 1) < 0)
		return PROFCONV_ENOMEM;
	st->s[st->n] = s;
	st->h[h] = (uint32_t)st->n + 1;
	*out = (uint32_t)st->n++;
	return 0;
}

/* --- frames shared by several views ------------------------------------------ */

void
profconv__report_gframes_free(struct gframes *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->owned[i]);
	free(g->owned);
	free(g->fn);
	free(g->file);
	free(g->line);
	free(g->keys.s);
	free(g->keys.h);
}

/* The shared id of frame ID of V (its strings must outlive G). */
int
profconv__report_gframe(struct gframes *g, const struct profconv_view *v, uint32_t id,
    uint32_t *out)
{
	struct profconv_view_frame fr;
	const char *fn, *file;
	char *key, *clean = NULL;
	size_t len, klen, nfn, nfile;
	int rc;

	if ((rc = profconv_view_frame(v, id, &fr)) < 0)
		return rc;
	/* The function's name as the view by function names it (the
	 * address when there is no symbol); the file cleaned as the
	 * views by file clean it (and pprof: "/a/b/../c.c" is "/a/c.c"). */
	fn = fr.function[0] != '\0' ? fr.function : fr.name;
	file = fr.file;
	if (*file != '\0' && (file = clean = profconv__clean_path(file)) == NULL)
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	/* "FN\nFILE\nLINE", then copies of FN and FILE: the view may go
	 * before the page is written. */
	nfn = strlen(fn);
	nfile = strlen(file);
	len = 2 * (nfn + nfile) + 32;
	/* Room first, so that a failure leaves no key behind. */
	if (PC_GROW(g->owned, g->ocap, g->n, 1) < 0 ||
	    PC_GROW(g->fn, g->cap, g->n, 1) < 0 ||
	    PC_GROW(g->file, g->fcap, g->n, 1) < 0 ||
	    PC_GROW(g->line, g->lcap, g->n, 1) < 0) {
		free(clean);
		return PROFCONV_ENOMEM;
	}
	if ((key = malloc(len)) == NULL) {
		free(clean);
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	}
	klen = (size_t)snprintf(key, len, "%s\n%s\n%" PRId64, fn, file,
	    fr.line);
	if ((rc = profconv__report_str_index(&g->keys, key, out)) < 0 || *out < g->n) {
		free(key);
		free(clean);
		return rc < 0 ? rc : 0;
	}
	g->owned[g->n] = key;
	g->fn[g->n] = memcpy(key + klen + 1, fn, nfn + 1);
	g->file[g->n] = memcpy(key + klen + 1 + nfn + 1, file, nfile + 1);
	g->line[g->n] = fr.line;
	g->n++;
	free(clean);
	return 0;
}

/* The stack added last: its frames' shared ids and their nodes, root
 * first.  A view's stacks come sorted, so the next one mostly begins
 * with the same frames and finds their nodes here, not in T's hash. */
struct path {
	uint32_t *gid, *node;
	uint32_t *next;		/* the stack being added */
	size_t n, gcap, ncap, xcap;
	uint32_t known;		/* when N is 0: the kept stack found last
				 * + 1, whose path is T's to copy */
};

/* Is kept stack K the frames GID[0..N-1]? */
static bool
leaf_is(const struct tree *t, uint32_t k, const uint32_t *gid, size_t n)
{
	const struct tree_leaf *l = &t->leaf[k];

	return l->n == n && (n == 0 || memcmp(t->lpool + l->off, gid,
	    n * sizeof(*gid)) == 0);
}

/* The kept stack of the frames GID[0..N-1] (hash *H, made when 0 and
 * needed), into *K: the one after the last found, or by the hash. */
static bool
known_leaf(struct tree *t, uint64_t *h, const uint32_t *gid, size_t n,
    uint32_t *k)
{
	if (t->cursor < t->norder[0]) {
		*k = t->order[0][t->cursor];
		if (leaf_is(t, *k, gid, n)) {
			t->cursor++;
			return true;
		}
	}
	*h = profconv__hash_bytes(gid, n * sizeof(*gid), 0);
	if (!profconv__u64map_get(&t->leaves, *h, k) || !leaf_is(t, *k, gid,
	    n))
		return false;
	/* The add before met it: what follows it there comes next. */
	if (t->leaf[*k].gen == t->gen - 1)
		t->cursor = (size_t)t->leaf[*k].pos + 1;
	return true;
}

/* Kept stack K met by this add, next in its order. */
static int
met_leaf(struct tree *t, uint32_t k)
{
	if (t->norder[1] >= UINT32_MAX ||
	    PC_GROW(t->order[1], t->ordercap[1], t->norder[1], 1) < 0)
		return PROFCONV_ENOMEM;
	t->leaf[k].gen = t->gen;
	t->leaf[k].pos = (uint32_t)t->norder[1];
	t->order[1][t->norder[1]++] = k;
	return 0;
}

/* Keep the stack of the frames GID[0..N-1] (hash H), their nodes
 * NODES, unless a stack of the same hash is kept already (that one keeps
 * the slow way). */
static int
keep_leaf(struct tree *t, uint64_t h, const uint32_t *gid,
    const uint32_t *nodes, size_t n, uint32_t node)
{
	uint32_t k;

	if (profconv__u64map_get(&t->leaves, h, &k))
		return 0;
	if (t->nleaf >= UINT32_MAX ||
	    PC_GROW(t->leaf, t->leafcap, t->nleaf, 1) < 0 ||
	    PC_GROW(t->lpool, t->lpcap, t->lpn, n + 1) < 0 ||
	    PC_GROW(t->lnodes, t->lncap, t->lpn, n + 1) < 0)
		return PROFCONV_ENOMEM;
	if (n != 0) {
		memcpy(t->lpool + t->lpn, gid, n * sizeof(*gid));
		memcpy(t->lnodes + t->lpn, nodes, n * sizeof(*nodes));
	}
	t->leaf[t->nleaf] = (struct tree_leaf){ node, (uint32_t)n, t->lpn,
	    0, 0 };
	t->lpn += n;
	if (profconv__u64map_put(&t->leaves, h, (uint32_t)t->nleaf) < 0)
		return PROFCONV_ENOMEM;
	return met_leaf(t, (uint32_t)t->nleaf++);
}

/* The node of the frames GID[0..N-1] in T, made where missing: the
 * frames they share with P (the stack before) have P's nodes. */
static int
path_node(struct tree *t, struct path *p, const uint32_t *gid, size_t n,
    uint32_t *out)
{
	uint32_t node = 0;
	bool same = true;
	size_t j;
	int rc;

	for (j = 0; j < n; j++) {
		if (same && j < p->n && p->gid[j] == gid[j]) {
			node = p->node[j];
			continue;
		}
		same = false;
		if ((rc = child(t, node, gid[j], &node)) < 0)
			return rc;
		p->node[j] = node;
	}
	*out = node;
	return 0;
}

/* The node of stack S in T, made where missing.  MAP takes V's frame
 * ids to shared ids + 1, made in the order the frames come. */
static int
stack_node(struct tree *t, struct gframes *g, const struct profconv_view *v,
    uint32_t *map, struct path *p, const struct pc_view_stack *s,
    uint32_t *out)
{
	uint32_t gid, k, *swap;
	uint64_t h = 0;
	size_t j;
	int rc;

	if (PC_GROW(p->gid, p->gcap, 0, s->nframes) < 0 ||
	    PC_GROW(p->node, p->ncap, 0, s->nframes) < 0 ||
	    PC_GROW(p->next, p->xcap, 0, s->nframes) < 0)
		return PROFCONV_ENOMEM;
	for (j = 0; j < s->nframes; j++) {
		uint32_t f = pc_stack_at(s->frames, j);

		if (map[f] == 0) {
			if ((rc = profconv__report_gframe(g, v, f, &gid)) < 0)
				return rc;
			map[f] = gid + 1;
		}
		p->next[j] = map[f] - 1;
	}
	if (t->by_stack && known_leaf(t, &h, p->next, s->nframes, &k)) {
		*out = t->leaf[k].node;
		p->n = 0;	/* its path is copied when needed */
		p->known = k + 1;
		return met_leaf(t, k);
	}
	if (p->n == 0 && p->known != 0) {
		/* As much of it as this stack can share. */
		const struct tree_leaf *l = &t->leaf[p->known - 1];
		size_t m = l->n < s->nframes ? l->n : s->nframes;

		if (m != 0) {
			memcpy(p->gid, t->lpool + l->off, m * sizeof(*p->gid));
			memcpy(p->node, t->lnodes + l->off, m *
			    sizeof(*p->node));
		}
		p->n = m;
	}
	p->known = 0;
	rc = path_node(t, p, p->next, s->nframes, out);
	/* known_leaf() made H when it found nothing. */
	if (rc == 0 && t->by_stack)
		rc = keep_leaf(t, h, p->next, p->node, s->nframes, *out);
	if (rc < 0) {
		p->n = 0;	/* its nodes are half written */
		return rc;
	}
	swap = p->gid;
	p->gid = p->next;
	p->next = swap;
	j = p->gcap;
	p->gcap = p->xcap;
	p->xcap = j;
	p->n = s->nframes;
	return 0;
}

/*
 * Add V's stacks to T: with TI == SIZE_MAX every sample type K into
 * column K, or with COLS each of V's COL types K into column COLS[K]
 * (none when SIZE_MAX); else sample type TI into column COL.
 */
int
profconv__report_tree_add(struct tree *t, struct gframes *g,
    const struct profconv_view *v,
    size_t ti, size_t col, const size_t *cols)
{
	size_t i, k, n = profconv_view_stack_count(v);
	size_t nf = profconv_view_frame_count(v);
	struct pc_view_stack s;
	struct path p = { 0 };
	uint32_t node, *map;
	int rc = 0;

	if (t->n == 0 && (rc = profconv__report_node_add(t, 0, 0, &node)) < 0)
		return rc;
	if (t->by_stack) {	/* the last add's order is the one before */
		uint32_t *o = t->order[0];
		size_t c = t->ordercap[0];

		t->order[0] = t->order[1];
		t->ordercap[0] = t->ordercap[1];
		t->norder[0] = t->norder[1];
		t->order[1] = o;
		t->ordercap[1] = c;
		t->norder[1] = 0;
		t->cursor = 0;
		t->gen++;
	}
	/* frame id -> shared id + 1 */
	if ((map = calloc(nf + 1, sizeof(*map))) == NULL)
		return profconv__fail(PROFCONV_ENOMEM, "out of memory");
	for (i = 0; i < n && rc == 0; i++) {
		if ((rc = profconv__view_stack(v, i, &s)) < 0 ||
		    (rc = stack_node(t, g, v, map, &p, &s, &node)) < 0)
			break;
		if (ti == SIZE_MAX && cols != NULL) {
			for (k = 0; k < col; k++)
				if (cols[k] != SIZE_MAX)
					pc_add_sat(&t->self[node * t->nt +
					    cols[k]], s.values[k]);
		} else if (ti == SIZE_MAX) {
			for (k = 0; k < t->nt; k++)
				pc_add_sat(&t->self[node * t->nt + k],
				    s.values[k]);
		} else if (s.values[ti] != 0) {
			if (PC_GROW(t->tnode, t->tncap, t->tn, 1) < 0 ||
			    PC_GROW(t->tcol, t->tccap, t->tn, 1) < 0 ||
			    PC_GROW(t->tval, t->tvcap, t->tn, 1) < 0) {
				rc = PROFCONV_ENOMEM;
				break;
			}
			t->tnode[t->tn] = node;
			t->tcol[t->tn] = (uint32_t)col;
			t->tval[t->tn++] = s.values[ti];
		}
	}
	free(p.gid);
	free(p.node);
	free(p.next);
	free(map);
	return rc;
}

/* --- JSON safe inside <script> -------------------------------------------- */

/* A JSON string whose '<', '>' and '&' are \u escapes. */
void
profconv__report_json_str(FILE *fp, const char *s)
{
	char *buf = NULL, *p;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (m == NULL) {
		fputs("\"\"", fp);	/* the caller sees ferror at the end */
		return;
	}
	profconv__json_cstr(m, s);
	if (fclose(m) != 0 || buf == NULL) {
		free(buf);
		fputs("\"\"", fp);
		return;
	}
	for (p = buf; p < buf + len; p++) {
		if (*p == '<')
			fputs("\\u003c", fp);
		else if (*p == '>')
			fputs("\\u003e", fp);
		else if (*p == '&')
			fputs("\\u0026", fp);
		else
			putc(*p, fp);
	}
	free(buf);
}

/* --- the Explore tab ------------------------------------------------------- */

/* The hole of explore.html's tables: the rows the top table shows. */
static void
fill_top(FILE *fp, const char *name, size_t len, void *arg)
{
	if (len == 3 && memcmp(name, "top", len) == 0)
		fprintf(fp, "%zu", *(const size_t *)arg);
}

static void
live_open(FILE *fp, size_t top, bool diff)
{
	const char *html = profconv__page_explore_html;

	profconv__page_put(fp, html, "open", NULL, NULL);
	profconv__page_put(fp, html, diff ? "diff_table" : "table", fill_top,
	    &top);
	profconv__page_put(fp, html, "flame", NULL, NULL);
}

static void
live_close(FILE *fp)
{
	profconv__page_put(fp, profconv__page_explore_html, "close", NULL,
	    NULL);
}

int
profconv__report_live(FILE *fp, const struct profconv_profile *base,
    const struct profconv_profile *prof,
    const struct profconv_view_options *vo, double fraction, size_t budget,
    size_t def, size_t top)
{
	int rc;

	live_open(fp, top, base != NULL);
	if (base != NULL)
		rc = profconv__report_data_diff(fp, base, prof, vo, fraction, budget,
		    def);
	else
		rc = profconv__report_data(fp, prof, vo, fraction, budget,
		    def);
	if (rc < 0)
		return rc;
	live_close(fp);
	return 0;
}

int
profconv__report_live_view(FILE *fp, const struct profconv_view *v,
    double fraction, size_t budget, size_t def, size_t top)
{
	int rc;

	live_open(fp, top, false);
	if ((rc = profconv__report_data_view(fp, v, fraction, budget,
	    def)) < 0)
		return rc;
	live_close(fp);
	return 0;
}

int
profconv__report_live_series(FILE *fp, struct profconv_report_series *s,
    const char *const *order, size_t n, double fraction, size_t budget,
    size_t top)
{
	int rc;

	live_open(fp, top, false);
	rc = profconv__report_data_series(fp, s, order, n, fraction, budget);
	if (rc < 0)
		return rc;
	live_close(fp);
	return 0;
}

