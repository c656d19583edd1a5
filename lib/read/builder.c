/* SPDX-License-Identifier: MIT */
/*
 * builder.c - the builder shared by the legacy readers: address stacks to
 * locations, map entries to mappings, and pprof's finishing heuristics.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/intervals.h"
#include "read/builder.h"

/* --- building ------------------------------------------------------------------ */

int
profconv__legacy_init(struct pc_legacy *b)
{
	memset(b, 0, sizeof(*b));
	return profconv_profile_new(&b->prof);
}

void
profconv__legacy_free(struct pc_legacy *b)
{
	profconv_profile_free(b->prof);
	profconv__u64map_free(&b->loc_by_addr);
	free(b->stack);
	profconv__maps_free(&b->maps);
	memset(b, 0, sizeof(*b));
}

int
profconv__legacy_read(struct pc_legacy *b, struct profconv_profile **out,
    int (*body)(void *arg), void *arg)
{
	int rc = profconv__legacy_init(b);

	*out = NULL;
	if (rc == 0)
		rc = body(arg);
	if (rc == 0)
		rc = profconv__legacy_finish(b, out);
	profconv__legacy_free(b);
	return rc;
}

int
profconv__legacy_location(struct pc_legacy *b, uint64_t address,
    uint32_t *id_out)
{
	int rc;

	if (profconv__u64map_get(&b->loc_by_addr, address, id_out))
		return 0;
	rc = profconv__add_location_raw(b->prof, 0, address, NULL, 0, false,
	    id_out);
	if (rc == 0)
		rc = profconv__u64map_put(&b->loc_by_addr, address, *id_out);
	return rc;
}

int
profconv__legacy_add_sample(struct pc_legacy *b, const uint64_t *addrs,
    size_t naddrs, const int64_t *values, const struct pc_label *labels,
    size_t nlabels)
{
	size_t i;
	int rc;

	rc = PC_GROW(b->stack, b->stack_cap, 0, naddrs);
	for (i = 0; rc == 0 && i < naddrs; i++)
		rc = profconv__legacy_location(b, addrs[i], &b->stack[i]);
	if (rc == 0)
		rc = profconv__add_sample_raw(b->prof, b->stack, naddrs, values,
		    labels, nlabels);
	return rc;
}

/* --- finishing: pprof's massageMappings and remapMappingIDs -------------------- */

static bool
adjacent(const struct pc_map_entry *a, const struct pc_map_entry *b)
{
	if (a->file[0] != '\0' && b->file[0] != '\0' &&
	    strcmp(a->file, b->file) != 0)
		return false;
	if (a->build_id[0] != '\0' && b->build_id[0] != '\0' &&
	    strcmp(a->build_id, b->build_id) != 0)
		return false;
	if (a->limit != b->start)
		return false;
	if (a->offset != 0 && b->offset != 0 &&
	    a->offset + (a->limit - a->start) != b->offset)
		return false;
	return true;
}

/* Merge adjacent entries: the later one's names win when set. */
static void
merge_adjacent(struct pc_maps *maps)
{
	size_t i, n = 0;

	for (i = 0; i < maps->n; i++) {
		struct pc_map_entry *m = &maps->v[i];

		if (n != 0 && adjacent(&maps->v[n - 1], m)) {
			struct pc_map_entry *last = &maps->v[n - 1];

			last->limit = m->limit;
			if (m->file[0] != '\0') {
				free(last->file);
				last->file = m->file;
				last->deleted = m->deleted;
				m->file = NULL;
			}
			if (m->build_id[0] != '\0') {
				free(last->build_id);
				last->build_id = m->build_id;
				m->build_id = NULL;
			}
			free(m->file);
			free(m->build_id);
			continue;
		}
		maps->v[n++] = *m;
	}
	maps->n = n;
}

/* libRx: ([.]so$|[.]so[._][0-9]+) on the trimmed name without "(deleted)". */
static bool
looks_like_library(const char *file, size_t len)
{
	const char *p;

	if (len >= 3 && memcmp(file + len - 3, ".so", 3) == 0)
		return true;
	for (p = file; (p = memmem(p, (size_t)(file + len - p), ".so", 3));
	    p += 3)
		if (p + 4 < file + len && (p[3] == '.' || p[3] == '_') &&
		    p[4] >= '0' && p[4] <= '9')
			return true;
	return false;
}

/* The mapping the main binary most likely is, moved to the front. */
static void
main_binary_first(struct pc_maps *maps)
{
	char buf[4096];
	size_t i;

	for (i = 0; i < maps->n; i++) {
		const char *f = maps->v[i].file, *s, *e;
		size_t n = 0;

		/* Remove every "(deleted)", then trim. */
		for (s = f; *s != '\0' && n < sizeof(buf) - 1;) {
			if (strncmp(s, "(deleted)", 9) == 0) {
				s += 9;
				continue;
			}
			buf[n++] = *s++;
		}
		buf[n] = '\0';
		for (s = buf; *s == ' ' || *s == '\t' || *s == '\n'; s++)
			;
		for (e = buf + n; e > s && (e[-1] == ' ' || e[-1] == '\t' ||
		    e[-1] == '\n'); e--)
			;
		if (e == s || looks_like_library(s, (size_t)(e - s)) ||
		    *s == '[')
			continue;
		if (i != 0) {
			struct pc_map_entry t = maps->v[0];

			maps->v[0] = maps->v[i];
			maps->v[i] = t;
		}
		break;
	}
}

static void
fix_main_start(struct pc_maps *maps)
{
	struct pc_map_entry *m;

	if (maps->n > 1 && strncmp(maps->v[0].file, "/anon_hugepage", 14) == 0 &&
	    maps->v[0].limit == maps->v[1].start) {
		free(maps->v[0].file);
		free(maps->v[0].build_id);
		memmove(&maps->v[0], &maps->v[1], (maps->n - 1) * sizeof(maps->v[0]));
		maps->n--;
	}
	if (maps->n == 0)
		return;
	m = &maps->v[0];
	if (m->start - m->offset == 0x400000) {
		m->start = 0x400000;
		m->offset = 0;
	}
}

/*
 * Where assign_locations() looks addresses up: the entries' own ranges
 * (MAIN), the ranges below entries with an offset that a repair adds
 * (REPAIR, removable), and those repairs once made (GROWN).
 */
struct map_index {
	struct pc_stab main, repair, grown;
	uint64_t *lo, *hi;		/* repair ranges, per entry */
	bool *repaired;
};

static void
map_index_free(struct map_index *x)
{
	profconv__stab_free(&x->main);
	profconv__stab_free(&x->repair);
	profconv__stab_free(&x->grown);
	free(x->lo);
	free(x->hi);
	free(x->repaired);
}

static int
map_index_init(struct map_index *x, const struct pc_maps *maps)
{
	size_t n = maps->n, i;
	uint64_t *ends = malloc((2 * n + 1) * sizeof(*ends));
	int rc;

	memset(x, 0, sizeof(*x));
	x->lo = calloc(n + 1, sizeof(*x->lo));
	x->hi = calloc(n + 1, sizeof(*x->hi));
	x->repaired = calloc(n + 1, sizeof(*x->repaired));
	if (ends == NULL || x->lo == NULL || x->hi == NULL ||
	    x->repaired == NULL) {
		free(ends);
		return profconv__nomem();
	}
	for (i = 0; i < n; i++) {
		const struct pc_map_entry *m = &maps->v[i];

		ends[2 * i] = m->start;
		ends[2 * i + 1] = m->limit;
		/* As pprof: start - offset <= a < start, in uint64 (an
		 * offset beyond start wraps to an empty range). */
		if (m->offset != 0 && m->offset <= m->start) {
			x->lo[i] = m->start - m->offset;
			x->hi[i] = m->start;
		}
	}
	rc = profconv__stab_init(&x->main, ends, 2 * n);
	for (i = 0; i < n; i++) {
		ends[2 * i] = x->lo[i];
		ends[2 * i + 1] = x->hi[i];
	}
	if (rc == 0)
		rc = profconv__stab_init(&x->repair, ends, 2 * n);
	if (rc == 0)
		rc = profconv__stab_init(&x->grown, ends, 2 * n);
	free(ends);
	if (rc == 0)
		rc = profconv__stab_build_removable(&x->repair, x->lo, x->hi, n);
	for (i = 0; rc == 0 && i < n; i++)
		profconv__stab_add(&x->main, maps->v[i].start, maps->v[i].limit,
		    (uint32_t)i);
	return rc;
}

/* The first entry holding A: its own range, or a repair made earlier. */
static uint32_t
map_index_find(const struct map_index *x, uint64_t a)
{
	uint32_t j = profconv__stab_min(&x->main, a);
	uint32_t k = profconv__stab_min(&x->grown, a);

	return j < k ? j : k;
}

/*
 * Attach each location to the first mapping that holds its address, as
 * pprof does, looking entries up in O(log n) instead of one by one.  The
 * mapping ids are those the entries get in profconv__legacy_finish(),
 * which adds them in order after this.
 */
static int
assign_locations(struct pc_legacy *b)
{
	struct profconv_profile *prof = b->prof;
	struct pc_maps *maps = &b->maps;
	struct map_index x;
	uint32_t fake = 0, j, id;
	int rc;

	rc = map_index_init(&x, maps);
	for (id = 1; rc == 0 && id <= prof->nlocations; id++) {
		const struct pc_location *l = pc_location(prof, id);
		uint64_t a = l->address;

		if (l->mapping != 0 || a == 0)
			continue;
		j = map_index_find(&x, a);
		/* pprof appends the fake mapping to its list, so once it
		 * exists it takes every address before the repair below. */
		if (j == PC_STAB_NONE && fake != 0) {
			profconv__set_location_mapping(prof, id, fake);
			continue;
		}
		if (j == PC_STAB_NONE) {
			/* Legacy handlers that lost the first part of a split
			 * mapping: grow it back down to its file start. */
			j = profconv__stab_min_alive(&x.repair, a, x.repaired);
			if (j != PC_STAB_NONE) {
				maps->v[j].start -= maps->v[j].offset;
				maps->v[j].offset = 0;
				x.repaired[j] = true;
				profconv__stab_add(&x.grown, x.lo[j], x.hi[j], j);
			}
		}
		if (j != PC_STAB_NONE) {
			profconv__set_location_mapping(prof, id, j + 1);
			continue;
		}
		if (fake == 0)
			fake = (uint32_t)maps->n + 1;
		profconv__set_location_mapping(prof, id, fake);
	}
	map_index_free(&x);
	return rc < 0 ? rc : fake != 0 ? 1 : 0;
}

static int
set_frame_info(struct profconv_profile *prof)
{
	const char *drop, *keep;
	int rc;

	profconv__default_frames(prof, &drop, &keep);
	rc = profconv_profile_set_drop_frames(prof, drop);
	if (rc == 0 && keep != NULL)
		rc = profconv_profile_set_keep_frames(prof, keep);
	return rc;
}

int
profconv__legacy_finish(struct pc_legacy *b, struct profconv_profile **out)
{
	struct profconv_mapping pm = { 0 };
	size_t i;
	int rc, fake;

	*out = NULL;
	merge_adjacent(&b->maps);
	main_binary_first(&b->maps);
	fix_main_start(&b->maps);
	fake = assign_locations(b);
	if (fake < 0)
		return fake;
	for (i = 0, rc = 0; rc == 0 && i < b->maps.n; i++) {
		const struct pc_map_entry *m = &b->maps.v[i];
		uint32_t id;

		pm.start = m->start;
		pm.limit = m->limit;
		pm.offset = m->offset;
		pm.file = m->file;
		pm.build_id = m->build_id;
		rc = profconv_profile_add_mapping(b->prof, &pm, &id);
		/* The symbolizer must not take today's file at the path. */
		if (rc == 0 && m->deleted)
			pc_mapping_mut(b->prof, id)->flags |= PC_MAP_DELETED;
	}
	if (rc == 0 && fake) {
		/* Go legacy profiles have no map: one mapping for all. */
		memset(&pm, 0, sizeof(pm));
		pm.limit = UINT64_MAX;
		rc = profconv_profile_add_mapping(b->prof, &pm, NULL);
	}
	if (rc == 0)
		rc = set_frame_info(b->prof);
	if (rc < 0)
		return rc;
	*out = b->prof;
	b->prof = NULL;
	return 0;
}
