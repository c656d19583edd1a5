/* SPDX-License-Identifier: MIT */
/*
 * callgrind.c - the call graph in callgrind's format, as go tool pprof
 * -callgrind writes it (google/pprof internal/report printCallgrind), for
 * KCachegrind and callgrind_annotate.
 *
 * The graph is the whole one (no cutoffs), nodes by flat value, each
 * node keeping its mapped file (pprof's ObjNames).  Each node is a cost
 * line "ADDRESS LINE FLAT" under "ob=", "fl=" and "fn=" lines, which
 * are written again only when the object, file or function changes;
 * each call out of it is "cfl=", "cfn=", "calls=0 ADDRESS LINE" and
 * "* * WEIGHT".  Names use callgrind's compression ("(N) name" the first
 * time, "(N)" after; one numbering per kind), and addresses are
 * relative to the previous node's ("*" when equal, "+N"/"-N" when
 * shorter than the absolute "0x..."), as pprof writes them, the calls'
 * too.  Where names of one file and function belong to different
 * functions (another module, say, or in a call tree another caller), a
 * call's "cfn=" gets pprof's " [I/N]" suffix.
 */

#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "view/graph.h"
#include "view/view.h"
#include "write/write.h"

struct cg {
	FILE *fp;
	const struct pc_graph *g;
	const char *unit, *out_unit;
	struct pc_keymap names[3];	/* objects, files, functions */
	char **suffixed;		/* node -> its disambiguated name */
	size_t *out_off, *out;		/* node -> its out edges */
};

enum { CG_OB, CG_FL, CG_FN };

/* pprof's callgrindName: "" for no name, "(N) NAME" the first time,
 * "(N)" after, N counted per KIND. */
static int
put_name(struct cg *c, int kind, const char *prefix, const char *name)
{
	struct pc_keymap *m = &c->names[kind];
	FILE *fp = c->fp;
	uint32_t id;
	bool inserted;
	int rc;

	fputs(prefix, fp);
	if (*name == '\0') {
		putc('\n', fp);
		return 0;
	}
	rc = profconv__keymap_intern(m, name, strlen(name),
	    (uint32_t)m->n + 1, &id, &inserted);
	if (rc < 0)
		return rc;
	if (inserted)
		fprintf(fp, "(%" PRIu32 ") %s\n", id, name);
	else
		fprintf(fp, "(%" PRIu32 ")\n", id);
	return 0;
}

/* pprof's callgrindAddress: CUR absolute ("0x1000"), or relative to the
 * previous node's address PREV when shorter ("+4096"), "*" when the
 * same. */
static void
put_address(FILE *fp, const struct pc_gnode *prev, uint64_t cur)
{
	char abs[24], rel[24];

	snprintf(abs, sizeof(abs), "0x%" PRIx64, cur);
	if (prev == NULL) {
		fputs(abs, fp);
		return;
	}
	if (prev->address == cur) {
		putc('*', fp);
		return;
	}
	snprintf(rel, sizeof(rel), "%+" PRId64, (int64_t)(cur - prev->address));
	fputs(strlen(rel) < strlen(abs) ? rel : abs, fp);
}

/* V in the output unit, cut toward zero as pprof's int64(). */
static int64_t
scaled(const struct cg *c, int64_t v)
{
	const char *u;

	return (int64_t)profconv__measure_scale(v, c->unit, c->out_unit, &u);
}

/* The key of node N's NAME and FILE, and with WITH_OBJ its objfile and
 * caller (pprof's Node.Function: the node without address and line, in
 * a call tree of the same caller), into *BUF (of *CAP); its length. */
static int
function_key(char **buf, size_t *cap, const struct pc_gnode *n,
    bool with_obj, size_t *len)
{
	size_t need = strlen(n->name) + strlen(n->file) +
	    strlen(n->objfile) + 32;
	int rc = PC_GROW(*buf, *cap, 0, need);

	if (rc < 0)
		return rc;
	*len = (size_t)snprintf(*buf, need, "%s%c%s%c%s%c%zu", n->name, 0,
	    n->file, 0, with_obj ? n->objfile : "", 0,
	    with_obj ? n->caller : 0);
	return 0;
}

/* pprof's getDisambiguatedNames: a node's name, with " [I/N]" when N
 * different functions (objfiles) have its file and name, I counted in
 * node order. */
static int
disambiguate(struct cg *c)
{
	const struct pc_graph *g = c->g;
	struct pc_keymap groups = { 0 }, funcs = { 0 };
	uint32_t *count = calloc(g->nnodes + 1, sizeof(*count));
	uint32_t *grp = calloc(g->nnodes + 1, sizeof(*grp));
	uint32_t *idx = calloc(g->nnodes + 1, sizeof(*idx));
	char *key = NULL;
	size_t i, len, cap = 0;
	bool inserted;
	int rc = 0;

	c->suffixed = calloc(g->nnodes + 1, sizeof(*c->suffixed));
	if (count == NULL || grp == NULL || idx == NULL || c->suffixed == NULL)
		rc = profconv__nomem();
	for (i = 0; rc == 0 && i < g->nnodes; i++) {
		rc = function_key(&key, &cap, &g->nodes[i], false, &len);
		if (rc == 0)
			rc = profconv__keymap_intern(&groups, key, len,
			    (uint32_t)groups.n, &grp[i], &inserted);
		if (rc == 0)
			rc = function_key(&key, &cap, &g->nodes[i], true, &len);
		if (rc == 0)
			rc = profconv__keymap_intern(&funcs, key, len,
			    count[grp[i]], &idx[i], &inserted);
		if (rc == 0 && inserted)
			count[grp[i]]++;
	}
	for (i = 0; rc == 0 && i < g->nnodes; i++) {
		const struct pc_gnode *x = &g->nodes[i];

		if (count[grp[i]] < 2)
			continue;
		len = strlen(x->name) + 48;
		c->suffixed[i] = malloc(len);
		if (c->suffixed[i] == NULL)
			rc = profconv__nomem();
		else
			snprintf(c->suffixed[i], len, "%s [%" PRIu32 "/%"
			    PRIu32 "]", x->name, idx[i] + 1, count[grp[i]]);
	}
	profconv__keymap_free(&groups);
	profconv__keymap_free(&funcs);
	free(key);
	free(count);
	free(grp);
	free(idx);
	return rc;
}

/* The calls out of node NODE, whose place in the out edges is
 * c->out[c->out_off[NODE]..c->out_off[NODE + 1]); PREV: the node before
 * NODE, which addresses are relative to. */
static int
put_calls(struct cg *c, size_t node, const struct pc_gnode *prev)
{
	const struct pc_graph *g = c->g;
	FILE *fp = c->fp;
	size_t i;
	int rc = 0;

	for (i = c->out_off[node]; rc == 0 && i < c->out_off[node + 1]; i++) {
		const struct pc_gedge *e = &g->edges[c->out[i]];
		const struct pc_gnode *d = &g->nodes[e->dst];

		rc = put_name(c, CG_FL, "cfl=", d->file);
		if (rc == 0)
			rc = put_name(c, CG_FN, "cfn=", c->suffixed[e->dst] !=
			    NULL ? c->suffixed[e->dst] : d->name);
		if (rc < 0)
			break;
		fputs("calls=0 ", fp);
		put_address(fp, prev, d->address);
		fprintf(fp, " %" PRId64 "\n* * %" PRId64 "\n", d->line,
		    scaled(c, e->weight));
	}
	return rc;
}

/* Each node's out edges, in the graph's order of edges (heaviest first,
 * then by the names of their ends: pprof's order of a node's edges). */
static int
out_edges(struct cg *c)
{
	const struct pc_graph *g = c->g;
	size_t i, *at;

	c->out_off = calloc(g->nnodes + 2, sizeof(*c->out_off));
	c->out = malloc((g->nedges + 1) * sizeof(*c->out));
	if (c->out_off == NULL || c->out == NULL)
		return profconv__nomem();
	for (i = 0; i < g->nedges; i++)
		c->out_off[g->edges[i].src + 2]++;
	for (i = 2; i < g->nnodes + 2; i++)
		c->out_off[i] += c->out_off[i - 1];
	at = c->out_off + 1;
	for (i = 0; i < g->nedges; i++)
		c->out[at[g->edges[i].src]++] = i;
	return 0;
}

static int
put_graph(struct cg *c, const char *type)
{
	const struct pc_graph *g = c->g;
	const struct pc_gnode *prev = NULL;
	FILE *fp = c->fp;
	size_t i;
	int rc = 0;

	fprintf(fp, "positions: instr line\nevents: %s(%s)\n", type,
	    c->out_unit);
	for (i = 0; rc == 0 && i < g->nnodes; i++) {
		const struct pc_gnode *n = &g->nodes[i];

		if (prev == NULL || strcmp(n->objfile, prev->objfile) != 0 ||
		    strcmp(n->file, prev->file) != 0 ||
		    strcmp(n->name, prev->name) != 0) {
			putc('\n', fp);
			rc = put_name(c, CG_OB, "ob=", n->objfile);
			if (rc == 0)
				rc = put_name(c, CG_FL, "fl=", n->file);
			if (rc == 0)
				rc = put_name(c, CG_FN, "fn=", n->name);
			if (rc < 0)
				break;
		}
		put_address(fp, prev, n->address);
		fprintf(fp, " %" PRId64 " %" PRId64 "\n", n->line,
		    scaled(c, n->flat));
		rc = put_calls(c, i, prev);
		prev = n;
	}
	return rc;
}

int
profconv__callgrind_write(const struct profconv_view *cur,
    const struct profconv_view *base, FILE *fp,
    const struct profconv_graph_options *o)
{
	struct pc_graph_options go = { 0, 0, 0, 0, 0, PC_GRAPH_FLAT, true,
		o->call_tree != 0, o->trim_path };
	struct profconv_value_type vt;
	struct pc_graph *g = NULL;
	struct cg c;
	char unit[64];
	size_t i;
	int rc;

	memset(&c, 0, sizeof(c));
	c.fp = fp;
	rc = profconv__write_graph_open(&g, cur, base, o->sample_type, &go,
	    &vt, unit, sizeof(unit));
	if (rc < 0)
		return rc;
	c.unit = unit;
	c.g = g;
	c.out_unit = profconv__graph_output_unit_integral(g, unit);
	rc = disambiguate(&c);
	if (rc == 0)
		rc = out_edges(&c);
	errno = 0;
	if (rc == 0)
		rc = put_graph(&c, vt.type);
	for (i = 0; c.suffixed != NULL && i < g->nnodes; i++)
		free(c.suffixed[i]);
	free(c.suffixed);
	free(c.out_off);
	free(c.out);
	for (i = 0; i < 3; i++)
		profconv__keymap_free(&c.names[i]);
	profconv__graph_free(g);
	return rc;
}
