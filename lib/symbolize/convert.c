/* SPDX-License-Identifier: MIT */
/*
 * convert.c - the conversion pass: the frames looked up for each address
 * become the profile's lines, deduplicated functions and strings, in
 * location order and in the caller's thread, so the result does not
 * depend on the thread count; and the loop that runs lookup and
 * conversion batch by batch.
 *
 * Cut here because conversion is where libdw's strings become the
 * profile's: text is checked for UTF-8 here, and the mappings' has_*
 * flags are earned here.
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolizer.h"

/* --- conversion: frames to lines, in location order ----------------------- */

/*
 * TEXT for the profile's string table, which holds UTF-8 only.  Debug
 * info may carry other bytes (a source tree in a Latin-1 directory):
 * each byte that starts no valid sequence becomes U+FFFD, and the binary
 * is named in one warning, rather than failing the whole call.
 */
static int
intern_text(struct session *s, const char *text, uint32_t *idx)
{
	size_t len = strlen(text), i, n, o = 0;
	unsigned char c;

	if (profconv__utf8_valid(text, len))
		return profconv__intern(s->prof, text, idx);
	if (len > (SIZE_MAX - 1) / 3 ||
	    PC_GROW(s->fixed, s->fixed_cap, 0, len * 3 + 1) < 0)
		return profconv__nomem();
	for (i = 0; i < len; i += n) {
		c = (unsigned char)text[i];
		n = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
		if (i + n <= len && profconv__utf8_valid(text + i, n)) {
			memcpy(s->fixed + o, text + i, n);
			o += n;
			continue;
		}
		memcpy(s->fixed + o, "\xef\xbf\xbd", 3);
		o += 3;
		n = 1;
	}
	s->fixed[o] = '\0';
	if (s->cur != NULL && !s->cur->warned_utf8) {
		s->cur->warned_utf8 = true;
		profconv__sym_warn(s, "'%s': debug info has text that is not "
		    "UTF-8 (shown with U+FFFD): '%s'", s->cur->found.path,
		    s->fixed);
	}
	return profconv__intern(s->prof, s->fixed, idx);
}

/* String indexes of a frame's display name and system name. */
static int
frame_names(struct session *s, const struct sym_frame *sf, uint32_t *name,
    uint32_t *system_name)
{
	const struct pc_frame *f = &sf->f;
	const char *sys = f->linkage != NULL ? f->linkage : f->name;
	struct name_pair np;
	uint32_t k;
	int rc;

	*name = *system_name = 0;
	if (sys == NULL)
		return 0;
	/* libdw's strings stay put, so their address identifies them. */
	if (profconv__u64map_get(&s->name_by_ptr, (uintptr_t)sys, &k)) {
		*name = s->name_pairs[k].name;
		*system_name = s->name_pairs[k].system_name;
		return 0;
	}
	rc = intern_text(s, sf->shown, &np.name);
	if (rc == 0)
		rc = intern_text(s, sys, &np.system_name);
	if (rc == 0)
		rc = PC_GROW(s->name_pairs, s->name_pairs_cap, s->nname_pairs,
		    1);
	if (rc == 0)
		rc = profconv__u64map_put(&s->name_by_ptr, (uintptr_t)sys,
		    (uint32_t)s->nname_pairs);
	if (rc < 0)
		return rc;
	s->name_pairs[s->nname_pairs++] = np;
	*name = np.name;
	*system_name = np.system_name;
	return 0;
}

static int
file_index(struct session *s, const char *file, uint32_t *idx)
{
	int rc;

	*idx = 0;
	if (file == NULL)
		return 0;
	if (profconv__u64map_get(&s->file_by_ptr, (uintptr_t)file, idx))
		return 0;
	rc = intern_text(s, file, idx);
	if (rc == 0)
		rc = profconv__u64map_put(&s->file_by_ptr, (uintptr_t)file,
		    *idx);
	return rc;
}

/* Turn frame SF into a line with its (deduplicated) function. */
static int
frame_line(struct session *s, const struct sym_frame *sf,
    struct pc_line *out, uint8_t *flags)
{
	const struct pc_frame *f = &sf->f;
	struct pc_function fn;
	int rc;

	fn.start_line = f->start_line;
	rc = frame_names(s, sf, &fn.name, &fn.system_name);
	if (rc == 0)
		rc = file_index(s, f->file, &fn.file);
	/* Where its unit was compiled: not the profile's text (never
	 * written), so not held to UTF-8; a NUL-free C string. */
	fn.build_dir = 0;
	if (rc == 0 && fn.file != 0 && f->comp_dir != NULL &&
	    f->comp_dir[0] == '/')
		rc = profconv__strtab_intern_cstr(&s->prof->build_dirs,
		    f->comp_dir, &fn.build_dir);
	if (rc == 0)
		rc = profconv__funcset_get(&s->funcs, s->prof, &fn,
		    &out->function);
	if (rc < 0)
		return rc;
	profconv__set_function_build_dir(s->prof, out->function, fn.build_dir);
	out->line = f->line;
	out->column = f->column;
	*flags |= (fn.name != 0 ? PC_MAP_HAS_FUNCTIONS : 0) |
	    (fn.file != 0 ? PC_MAP_HAS_FILENAMES : 0) |
	    (f->line > 0 ? PC_MAP_HAS_LINE_NUMBERS : 0);
	return 0;
}

/* Convert ADDR of binary B once; the result's index goes to *RES. */
static int
resolve(struct session *s, struct sym_binary *b, uint64_t addr,
    uint32_t *res)
{
	struct sym_result r = { s->nrlines, 0, 0, false, 0 };
	const struct sym_answer *a;
	uint32_t k;
	size_t i;
	int rc;

	if (profconv__u64map_get(&b->results, addr, res))
		return 0;
	if (!profconv__u64map_get(&b->m->by_addr, addr, &k))
		return profconv__fail(PROFCONV_EFORMAT,
		    "internal error: address %#llx of '%s' not looked up",
		    (unsigned long long)addr, b->found.path);
	a = &b->m->ans[k];
	s->cur = b;
	rc = PC_GROW(s->rlines, s->rlines_cap, s->nrlines, a->n);
	for (i = 0; rc == 0 && i < a->n; i++)
		rc = frame_line(s, &b->m->frames[a->off + i],
		    &s->rlines[r.off + i], &r.flags);
	if (rc == 0)
		rc = PC_GROW(s->results, s->results_cap, s->nresults, 1);
	if (rc == 0)
		rc = profconv__u64map_put(&b->results, addr,
		    (uint32_t)s->nresults);
	if (rc < 0)
		return rc;
	/* Only DWARF says whether calls were inlined into the address. */
	if (a->src == PC_FRAMES_DWARF && a->n != 0)
		r.flags |= PC_MAP_HAS_INLINE_FRAMES;
	r.n = a->n;
	if (a->has_start && addr >= a->start && addr - a->start <= UINT32_MAX) {
		r.has_fn_offset = true;
		r.fn_offset = (uint32_t)(addr - a->start);
	}
	s->nrlines += a->n;
	*res = (uint32_t)s->nresults;
	s->results[s->nresults++] = r;
	s->stats->addresses++;
	return 0;
}

/* Symbolize location ID of a mapping planned MAP_OK. */
static int
symbolize_location(struct session *s, uint32_t id, struct sym_map *sm)
{
	const struct pc_location *loc = pc_location(s->prof, id);
	struct sym_binary *b = s->bins[sm->binary];
	const struct sym_result *r;
	uint32_t res;
	int rc;

	if (b->m->unusable) {
		s->stats->unusable++;
		sm->problem = PROFCONV_BINARY_UNUSABLE;
		sm->unnamed++;
		return 0;
	}
	rc = resolve(s, b, loc->address - sm->bias, &res);
	if (rc < 0)
		return rc;
	r = &s->results[res];
	if (r->n == 0) {
		s->stats->no_debuginfo++;
		sm->problem = PROFCONV_BINARY_NO_SYMBOLS;
		sm->unnamed++;
		return 0;
	}
	sm->flags |= r->flags;
	s->stats->symbolized++;
	rc = profconv__set_location_lines(s->prof, id, &s->rlines[r->off],
	    r->n);
	if (rc == 0 && r->has_fn_offset)
		profconv__set_location_fn_offset(s->prof, id, r->fn_offset);
	return rc;
}

/* Count the locations that no batch will look at. */
static void
count_others(struct session *s)
{
	struct profconv_symbolize_stats *st = s->stats;
	const struct pc_location *loc;
	size_t i;

	struct sym_map *sm;

	for (i = 0; i < s->prof->nlocations; i++) {
		loc = pc_location(s->prof, (uint32_t)i + 1);
		st->locations++;
		/* A location with lines, or only a name the pprof writer
		 * gave it (sym_needs_lines()), or without a mapping. */
		if (!sym_needs_lines(s->prof, (uint32_t)i + 1)) {
			if (loc->nlines != 0)
				st->already_symbolized++;
			else
				st->unsymbolizable++;
			continue;
		}
		sm = &s->maps[loc->mapping - 1];
		sm->located++;
		switch (sm->state) {
		case MAP_OK:
			continue;
		case MAP_NO_BINARY:
			st->no_binary++;
			sm->problem = PROFCONV_BINARY_MISSING;
			break;
		case MAP_MISMATCH:
			st->build_id_mismatch++;
			sm->problem = PROFCONV_BINARY_OTHER_BUILD;
			break;
		case MAP_UNUSABLE:
			st->unusable++;
			sm->problem = PROFCONV_BINARY_UNUSABLE;
			break;
		default:
			st->unsymbolizable++;
			continue;
		}
		/* Its binary is missing or unusable: it stays unnamed. */
		sm->unnamed++;
	}
}

/* Symbolize the locations whose binaries the current batch holds. */
static int
symbolize_batch(struct session *s)
{
	struct sym_map *sm;
	size_t i;
	int rc;

	for (i = 0; i < s->prof->nlocations; i++) {
		if ((sm = sym_batch_map(s, (uint32_t)i + 1)) == NULL)
			continue;
		rc = symbolize_location(s, (uint32_t)i + 1, sm);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Call REPORT for mapping I's problem (or its layout, LAYOUT) unless an
 * earlier mapping of the same file had it: the sum over all of them. */
static void
report_mapping(struct session *s, size_t i, bool layout)
{
	struct profconv_binary_report r;
	const struct pc_mapping *m, *o;
	const struct sym_map *sm = &s->maps[i], *so;
	size_t j;

	m = pc_mapping(s->prof, (uint32_t)i + 1);
	r.path = sm->state == MAP_OK ? s->bins[sm->binary]->found.path :
	    profconv__pstr(s->prof, m->file);
	r.problem = layout ? PROFCONV_BINARY_LAYOUT :
	    (enum profconv_binary_problem)sm->problem;
	r.locations = 0;
	for (j = 0; j < s->prof->nmappings; j++) {
		so = &s->maps[j];
		o = pc_mapping(s->prof, (uint32_t)j + 1);
		if (layout ? !so->layout || so->located == 0 :
		    so->problem != sm->problem || so->unnamed == 0)
			continue;
		if (so->state == MAP_OK ? sm->state != MAP_OK ||
		    so->binary != sm->binary : o->file != m->file)
			continue;
		if (j < i)
			return;		/* reported with mapping J */
		r.locations += layout ? so->located : so->unnamed;
	}
	s->opts->binary_report(&r, s->opts->payload);
}

/* Tell OPTS->binary_report which files left locations unnamed, and
 * which do not match their mappings' layout. */
static void
report_binaries(struct session *s)
{
	size_t i;

	if (s->opts->binary_report == NULL)
		return;
	for (i = 0; i < s->prof->nmappings; i++) {
		if (s->maps[i].state == MAP_OK && s->maps[i].layout &&
		    s->maps[i].located != 0)
			report_mapping(s, i, true);
		if (s->maps[i].unnamed != 0 && s->maps[i].problem != 0)
			report_mapping(s, i, false);
	}
}

int
profconv__sym_symbolize_locations(struct session *s)
{
	size_t lo, hi, i, step = profconv__sym_open_limit();
	int rc = 0;

	count_others(s);
	for (i = 0; i < s->nbins; i++)
		s->bins[i]->m->pinned = true;
	/* The modules of batches done may be closed: B->m is stale there. */
	for (lo = 0; rc == 0 && lo < s->nbins; lo = hi) {
		hi = s->nbins - lo > step ? lo + step : s->nbins;
		s->batch_lo = lo;
		s->batch_hi = hi;
		rc = profconv__sym_lookup_batch(s);
		if (rc == 0)
			rc = profconv__sym_report_batch(s);
		if (rc == 0)
			rc = symbolize_batch(s);
		/* Its names are copied: were the files mapped in place
		 * still the ones opened? */
		for (i = lo; rc == 0 && i < hi; i++)
			rc = profconv__sym_module_check(s->bins[i]->m);
		/* The batch's modules may be closed from here on. */
		profconv__sym_forget_strings(s);
		for (i = lo; i < hi; i++)
			s->bins[i]->m->pinned = false;
		profconv__sym_evict(s->sz, step);
	}
	for (i = lo; i < s->nbins; i++)	/* after a failure */
		s->bins[i]->m->pinned = false;
	/* The has_* flags the mappings' locations earned, through the
	 * model's seam: mappings are 1-based there. */
	for (i = 0; i < s->prof->nmappings; i++)
		pc_mapping_mut(s->prof, (uint32_t)i + 1)->flags |=
		    s->maps[i].flags;
	if (rc == 0)
		report_binaries(s);
	return rc;
}
