/* SPDX-License-Identifier: MIT */
/*
 * graph_address.c - the call graph's nodes by address, as pprof's
 * -addresses makes them: a node per address, function, file and line,
 * so a location gives a node per line it keeps (its inlined calls, the
 * outermost last; only the outermost with no_inline), and a location
 * without lines a node per address and module ("[libfoo.so]").  The
 * view by address has a frame per location; each is replaced by its
 * lines' keys here, once per stack of the view.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "names/names.h"
#include "view/graph.h"
#include "view/graph_build.h"
#include "view/view.h"

/* The keys frames stand for: frame F's are KEYS[OFF[F]..OFF[F + 1]). */
struct fkeys {
	uint32_t *keys;
	size_t nkeys, cap;
	size_t *off;
};

/* The key of line LN of location L (NULL: L has none) in module MODULE,
 * as pprof's nodeInfo: the module only when there is no function name,
 * or always with obj_names. */
static int
line_key(struct pc_graph_build *b, struct pc_namer *nm,
    const struct profconv_profile *prof, const struct pc_location *l,
    const struct pc_line *ln, const char *module, uint32_t *out)
{
	struct gkey k = { "", "", "", 0, NULL, l->address, false, false, 0 };
	const struct pc_function *fn;
	const char *name, *file;
	size_t len;
	int rc;

	if (b->obj_names)
		k.objfile = module;
	if (ln == NULL || ln->function == 0) {
		k.objfile = module;
		return profconv__graph_intern_key(b, &k, out);
	}
	fn = pc_function(prof, ln->function);
	rc = profconv__namer_name(nm, prof, ln->function, &name, &len);
	if (rc < 0)
		return rc;
	if (len != 0) {
		char *copy = malloc(len + 1);

		if (copy == NULL)
			return profconv__nomem();
		memcpy(copy, name, len);
		copy[len] = '\0';
		k.name = copy;
		k.own_name = true;
	} else {
		k.objfile = module;
	}
	file = profconv__pstr(prof, fn->file);
	if (profconv__graph_file(b, file, &k.file) < 0) {
		if (k.own_name)
			free((char *)k.name);
		return profconv__nomem();
	}
	k.line = ln->line;
	return profconv__graph_intern_key(b, &k, out);
}

/* Frame ID's keys onto FK: its location's lines, outermost first, or
 * the frame's own key when it is no location's. */
static int
frame_keys(struct pc_graph_build *b, struct pc_namer *nm,
    const struct profconv_view *v, int vi, uint32_t id, struct fkeys *fk)
{
	const struct profconv_profile *prof = profconv_view_profile(v);
	const struct pc_location *l;
	const struct pc_line *lines;
	struct profconv_view_frame f;
	uint32_t loc, first, i;
	int rc;

	loc = profconv__view_frame_location(v, id, &first);
	if (loc == 0) {
		if ((rc = PC_GROW(fk->keys, fk->cap, fk->nkeys, 1)) < 0)
			return rc;
		fk->keys[fk->nkeys++] = b->frame_key[vi][id];
		return 0;
	}
	profconv_view_frame(v, id, &f);
	l = pc_location(prof, loc);
	/* pprof's ObjNames: the mapped file's path, not its base name. */
	if (b->obj_names)
		f.module = l->mapping != 0 ? profconv__pstr(prof,
		    pc_mapping(prof, l->mapping)->file) : "";
	lines = pc_location_lines(prof, l);
	if ((rc = PC_GROW(fk->keys, fk->cap, fk->nkeys,
	    l->nlines > first ? l->nlines - first : 1)) < 0)
		return rc;
	if (first >= l->nlines)
		return line_key(b, nm, prof, l, NULL, f.module,
		    &fk->keys[fk->nkeys++]);
	for (i = l->nlines; rc == 0 && i > first; i--)
		rc = line_key(b, nm, prof, l, &lines[i - 1], f.module,
		    &fk->keys[fk->nkeys++]);
	return rc;
}

/* Every stack of V, its frames replaced by their keys. */
static int
stacks(struct pc_graph_build *b, const struct profconv_view *v, int vi,
    const struct fkeys *fk)
{
	size_t ns = profconv_view_stack_count(v), st, i, n = 0;
	size_t cap = 0, icap = 0;
	struct pc_view_stack stack;
	const uint8_t *inl;
	int rc = 0;

	b->xoff[vi] = malloc((ns + 1) * sizeof(size_t));
	if (b->xoff[vi] == NULL)
		return profconv__nomem();
	for (st = 0; rc == 0 && st < ns; st++) {
		b->xoff[vi][st] = n;
		profconv__view_stack(v, st, &stack);
		inl = profconv__view_stack_inline(v, st);
		for (i = 0; rc == 0 && i < stack.nframes; i++) {
			uint32_t f = pc_stack_at(stack.frames, i);
			size_t k, m = fk->off[f + 1] - fk->off[f];

			rc = PC_GROW(b->xkeys[vi], cap, n, m);
			if (rc == 0)
				rc = PC_GROW(b->xinl[vi], icap, n, m);
			for (k = 0; rc == 0 && k < m; k++) {
				b->xkeys[vi][n] = fk->keys[fk->off[f] + k];
				/* All but a location's outermost line are
				 * inlined into the one before. */
				b->xinl[vi][n++] = k > 0 ||
				    (inl != NULL && inl[i]);
			}
		}
	}
	if (rc == 0)
		b->xoff[vi][ns] = n;
	return rc;
}

int
profconv__graph_address_stacks(struct pc_graph_build *b,
    const struct profconv_view *v, int vi)
{
	size_t n = profconv_view_frame_count(v), i;
	struct pc_namer nm;
	struct fkeys fk = { NULL, 0, 0, NULL };
	int rc = 0;

	memset(&nm, 0, sizeof(nm));
	nm.mode = profconv__view_demangle(v);
	fk.off = malloc((n + 2) * sizeof(size_t));
	if (fk.off == NULL)
		return profconv__nomem();
	fk.off[0] = fk.off[1] = 0;
	for (i = 1; rc == 0 && i <= n; i++) {
		rc = frame_keys(b, &nm, v, vi, (uint32_t)i, &fk);
		fk.off[i + 1] = fk.nkeys;
	}
	if (rc == 0)
		rc = stacks(b, v, vi, &fk);
	profconv__namer_free(&nm);
	free(fk.keys);
	free(fk.off);
	return rc;
}
