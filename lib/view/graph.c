
/* SPDX-License-Identifier: MIT */
/*
 * graph.c - the call graph of a view, with the semantics of pprof's graph
 * outputs (google/pprof internal/graph/graph.go and report.go's
 * newTrimmedGraph), so that the DOT it gives has pprof's nodes, edges
 * and weights.
 *
 * A node is a function of the view (with line granularity, a function
 * and line; by address, an address, function, file and line:
 * graph_address.c); functions without a name are one node per module
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
#include "view/graph_build.h"
#include "view/view.h"

/* --- the whole --------------------------------------------------------------------- */

/* N elements of SIZE bytes at *AT, which moves past them. */
static void *
carve(char **at, size_t n, size_t size)
{
	void *p = *at;

	*at += n * size;
	return p;
}

/* The builds' arrays by key, in one zeroed block (b->per_key): widest
 * elements first, so that each array is aligned. */
static int
alloc_build(struct pc_graph_build *b)
{
	size_t n = b->nkeys + 1;
	size_t row = 4 * sizeof(int64_t) + sizeof(size_t) +
	    5 * sizeof(uint32_t);
	char *at;

	if ((b->per_key = calloc(n + 1, row)) == NULL)
		return profconv__nomem();
	at = b->per_key;
	b->flat = carve(&at, n, sizeof(*b->flat));
	b->cum = carve(&at, n, sizeof(*b->cum));
	b->cum_base = carve(&at, n, sizeof(*b->cum_base));
	b->score = carve(&at, n, sizeof(*b->score));
	b->stamp = carve(&at, n, sizeof(*b->stamp));
	b->touched = carve(&at, n, sizeof(*b->touched));
	b->nodes = carve(&at, n, sizeof(*b->nodes));
	b->pos = carve(&at, n, sizeof(*b->pos));
	b->in_off = carve(&at, n + 1, sizeof(*b->in_off));
	b->out_off = carve(&at, n + 1, sizeof(*b->out_off));
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
	rc = profconv__graph_build(b, kept);
	free(kept);
	return rc;
}

/* newTrimmedGraph, in visual mode or not (O->order). */
static int
trimmed(struct pc_graph *g, struct pc_graph_build *b,
    const struct pc_graph_options *o)
{
	int64_t total = 0, node_cut, edge_cut;
	size_t i, keep;
	int rc;

	/* The node cut reads weights only: a first build of those (a big
	 * profile's millions of samples add edges and tags to every node
	 * of their stacks), then the graph of the nodes kept. */
	b->weights_only = true;
	rc = profconv__graph_build(b, NULL);
	b->weights_only = false;
	if (rc < 0)
		return rc;
	for (i = 0; i < b->nnodes; i++)
		pc_add_sat(&total, b->flat[b->nodes[i]]);
	node_cut = profconv__graph_abs64((int64_t)((double)total * o->nodefraction));
	edge_cut = profconv__graph_abs64((int64_t)((double)total * o->edgefraction));
	keep = b->nnodes;
	if (node_cut > 0)
		for (i = 0, keep = 0; i < b->nnodes; i++)
			if (profconv__graph_abs64(b->cum[b->nodes[i]]) >= node_cut)
				b->nodes[keep++] = b->nodes[i];
	if (keep != b->nnodes) {
		g->dropped_nodes = b->nnodes - keep;
		rc = rebuild_with(b, keep);
	} else {
		rc = profconv__graph_build(b, NULL);
	}
	if (rc < 0)
		return rc;
	g->orig_count = b->nnodes;
	profconv__graph_sort_nodes(b, o->order);
	if (o->nodecount > 0) {
		profconv__graph_trim_tags(b, node_cut);
		profconv__graph_trim_edges(b, edge_cut);
		if (o->order != PC_GRAPH_VISUAL)
			keep = o->nodecount < b->nnodes ? o->nodecount :
			    b->nnodes;
		else if ((rc = profconv__graph_top_nodes(b, o->nodecount,
		    &keep)) < 0)
			return rc;
		if (keep != b->nnodes) {
			if ((rc = rebuild_with(b, keep)) < 0)
				return rc;
			profconv__graph_sort_nodes(b, o->order);
		}
	}
	profconv__graph_trim_tags(b, node_cut);
	g->dropped_edges = profconv__graph_trim_edges(b, edge_cut);
	if (o->order != PC_GRAPH_VISUAL)
		return 0;
	return profconv__graph_remove_redundant(b);
}

/* The result: nodes in order, live edges heaviest first, live tags. */
static int
result(struct pc_graph *g, struct pc_graph_build *b, bool capped)
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
	profconv__graph_mark_nodes(b);
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
	qsort_r(ids, n, sizeof(*ids), profconv__graph_by_edge_id, b);
	/* A picture has at most PC_GRAPH_MAX_EDGES, the heaviest: a graph
	 * of many more is no picture, and Graphviz's layout of it never
	 * ends.  The text reports and callgrind keep every edge, as
	 * pprof's do. */
	if (capped && n > PC_GRAPH_MAX_EDGES) {
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
	if ((rc = profconv__graph_group_tags(b, &first)) < 0)
		return rc;
	for (i = 0; i < b->nnodes; i++) {
		uint32_t k = b->nodes[i];
		struct pc_gnode *gn = &g->nodes[i];
		size_t t;

		gn->address = b->keys[k].address;
		gn->name = b->keys[k].name;
		gn->file = b->keys[k].file;
		gn->line = b->keys[k].line;
		gn->objfile = b->keys[k].objfile;
		gn->printable = b->keys[k].printable;
		gn->caller = b->keys[k].caller;
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

/* pprof's computeTotal, taken before the filters apply unless the view
 * says relative_percentages (profconv_view_percent_total()): the
 * reference of the rules every comparison shares, the base's total in
 * a diff. */
static void
report_scale(struct pc_graph *g, const struct profconv_view *cur,
    const struct profconv_view *base, const struct pc_graph_options *o)
{
	int64_t c = 0, b = 0;

	profconv_view_percent_total(cur, o->type, &c);
	if (base != NULL)
		profconv_view_percent_total(base, o->base_type, &b);
	profconv__delta_scale(&g->scale, b, c, 0);
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
	b->tn = profconv__view_tagnames(cur);
	b->jobs = profconv__jobs_count(profconv__view_jobs(cur));
	b->obj_names = o->obj_names;
	b->trim_path = o->trim_path;
	rc = profconv__graph_map_frames(b, cur, 0);
	if (rc == 0 && base != NULL)
		rc = profconv__graph_map_frames(b, base, 1);
	if (rc == 0) {
		profconv__graph_find_num_unit(b, profconv_view_profile(cur));
		if (base != NULL)
			profconv__graph_find_num_unit(b, profconv_view_profile(base));
		if (b->num_unit == NULL)
			b->num_unit = "bytes";
		rc = profconv__graph_intern_group(b, "", 0, &(uint32_t){ 0 });
	}
	if (rc == 0)
		rc = profconv__graph_add_samples(b, cur, 0, o->type);
	if (rc == 0 && base != NULL)
		rc = profconv__graph_add_samples(b, base, 1, o->base_type);
	if (rc == 0 && o->call_tree)
		rc = profconv__graph_contexts(b);
	if (rc == 0)
		rc = alloc_build(b);
	if (rc == 0) {
		report_scale(g, cur, base, o);
		rc = trimmed(g, b, o);
	}
	if (rc == 0)
		rc = result(g, b, o->order == PC_GRAPH_VISUAL);
	if (rc < 0) {
		profconv__graph_free(g);
		return rc;
	}
	*out = g;
	return 0;
}

int
profconv__graph_type(const struct profconv_view *cur,
    const struct profconv_view *base, const char *type,
    struct pc_graph_options *o, struct profconv_value_type *vt, char *unit,
    size_t size)
{
	int rc = profconv_view_sample_index(cur, type, &o->type);

	if (rc == 0)
		rc = profconv_profile_sample_type(profconv_view_profile(cur),
		    o->type, vt);
	if (rc == 0 && base != NULL)
		rc = profconv_view_sample_index(base, vt->type, &o->base_type);
	if (rc == 0)
		profconv__measure_unit_lower(unit, size, vt->unit);
	return rc;
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
			if (b->keys[i].borrowed)
				continue;
			free(b->keys[i].printable);
			if (*b->keys[i].file != '\0')
				free((char *)b->keys[i].file);
			if (b->keys[i].own_name)
				free((char *)b->keys[i].name);
		}
		for (i = 0; i < 2; i++) {
			free(b->xkeys[i]);
			free(b->xinl[i]);
			free(b->xoff[i]);
		}
		free(b->keys);
		free(b->tkeys);
		profconv__keymap_free(&b->keymap);
		free(b->frame_key[0]);
		free(b->frame_key[1]);
		profconv__keymap_free(&b->groupmap);
		profconv__u64map_free(&b->num_names);
		for (i = 0; i < b->ngroups; i++)
			free(b->groups[i]);
		free(b->groups);
		free(b->gsamples);
		free(b->per_key);
		free(b->nums);
		free(b->edges);
		free(b->eidx);
		profconv__graph_free_parts(b);
		free(b->tags);
		profconv__u64map_free(&b->tagmap);
		for (i = 0; i < b->ntagrows; i++)
			free(b->tagrows[i]);
		free(b->tagrows);
		profconv__keymap_free(&b->tagkinds);
		free(b->kinds);
		profconv__keymap_free(&b->classmap);
		free(b->class_rep);
		free(b->ccum);
		free(b->cflat);
		free(b->cseen);
		free(b->ctouched);
		free(b->in);
		free(b->out);
		free(b);
	}
	free(g->nodes);
	free(g->edges);
	free(g->tags);
	free(g);
}
