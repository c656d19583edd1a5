/* SPDX-License-Identifier: MIT */
/*
 * remap.c - re-map a profile's locations with a memory map from outside
 * the profile: a live process's /proc/PID/maps or a saved maps file.
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/input.h"
#include "read/maps.h"
#include "base/bounds.h"
#include "symbolize/symbolize.h"

/* Mark the newest entry as a file removed since it was mapped. */
static int
mark_deleted(struct pc_maps *maps)
{
	struct pc_map_entry *e = &maps->v[maps->n - 1];
	size_t len = strlen(e->file);
	char *file = realloc(e->file, len + sizeof(" (deleted)"));

	if (file == NULL)
		return profconv__nomem();
	memcpy(file + len, " (deleted)", sizeof(" (deleted)"));
	e->file = file;
	return 0;
}

/*
 * Parse every line of FP; lines that are not map entries are skipped.
 * Read through the bounded input: a line is at most PC_MAX_LINE bytes and
 * the file PC_MAPS_MAX_FILE (a maps file of /dev/zero is refused, not
 * read until memory runs out).
 */
static int
read_maps(struct pc_maps *maps, FILE *fp, const char *name)
{
	enum pc_map_line kind;
	struct pc_input in;
	const char *got;
	char *line = NULL;
	size_t cap = 0, len;
	int rc, more;

	rc = profconv__input_init(&in, fp, NULL, 0, PC_MAPS_MAX_FILE);
	while (rc == 0 && (more = profconv__input_getline(&in, &got,
	    &len)) != 0) {
		if (more < 0) {
			char why[256];

			snprintf(why, sizeof(why), "%s", profconv_errmsg());
			rc = profconv__fail(more, "'%s': %s", name, why);
			break;
		}
		/* The parser wants a NUL-terminated copy. */
		rc = PC_GROW(line, cap, 0, len + 1);
		if (rc < 0)
			break;
		memcpy(line, got, len);
		line[len] = '\0';
		rc = profconv__maps_parse_line(maps, line, len, &kind);
		/* The parser keeps one path token and notes the kernel's
		 * mark; the mapping made from it carries the mark in its
		 * name, as a pprof mapping would. */
		if (rc == 0 && kind == PC_MAP_ENTRY && maps->v[maps->n - 1].deleted)
			rc = mark_deleted(maps);
	}
	profconv__input_free(&in);
	free(line);
	return rc;
}

static int
cmp_entry(const void *a, const void *b)
{
	const struct pc_map_entry *x = a, *y = b;

	return PC_CMP(x->start, y->start);
}

/* The entry holding ADDR, or NULL; MAPS is sorted by start. */
static const struct pc_map_entry *
find_entry(const struct pc_maps *maps, uint64_t addr)
{
	size_t lo = PC_UPPER_BOUND(maps->v, maps->n, start, addr);

	if (lo == 0 || addr >= maps->v[lo - 1].limit)
		return NULL;
	return &maps->v[lo - 1];
}

static int
add_entry_mapping(struct profconv_profile *prof, const struct pc_map_entry *e,
    uint32_t *id_out)
{
	struct profconv_mapping m = { 0 };

	m.start = e->start;
	m.limit = e->limit;
	m.offset = e->offset;
	m.file = e->file;
	m.build_id = e->build_id;
	return profconv_profile_add_mapping(prof, &m, id_out);
}

/*
 * Drop the mappings that locations used before (USED_BEFORE[id]) and use
 * no more, renumbering the rest: replaced mappings would only confuse.
 */
static int
drop_replaced(struct profconv_profile *prof, const bool *used_before,
    size_t nbefore)
{
	bool *keep = malloc((prof->nmappings + 1) * sizeof(*keep));
	size_t i;
	int rc;

	if (keep == NULL)
		return profconv__nomem();
	for (i = 0; i <= prof->nmappings; i++)
		keep[i] = i > nbefore || !used_before[i];
	for (i = 0; i < prof->nlocations; i++)
		keep[pc_location(prof, (uint32_t)i + 1)->mapping] = true;
	rc = profconv__compact_mappings(prof, keep);
	free(keep);
	return rc;
}

/* Point every location that an entry of MAPS covers at that entry. */
static int
remap_locations(struct profconv_profile *prof, struct pc_maps *maps)
{
	size_t nbefore = prof->nmappings, i;
	bool *used_before = calloc(nbefore + 1, sizeof(*used_before));
	uint32_t *ids = calloc(maps->n + 1, sizeof(*ids));
	const struct pc_map_entry *e;
	int rc = 0;

	if (used_before == NULL || ids == NULL)
		rc = profconv__nomem();
	if (maps->n > 1)
		qsort(maps->v, maps->n, sizeof(*maps->v), cmp_entry);
	for (i = 0; rc == 0 && i < prof->nlocations; i++) {
		const struct pc_location *l = pc_location(prof, (uint32_t)i + 1);

		used_before[l->mapping] = true;
		e = find_entry(maps, l->address);
		if (e == NULL)
			continue;
		if (ids[e - maps->v] == 0)
			rc = add_entry_mapping(prof, e, &ids[e - maps->v]);
		profconv__set_location_mapping(prof, (uint32_t)i + 1,
		    ids[e - maps->v]);
	}
	if (rc == 0)
		rc = drop_replaced(prof, used_before, nbefore);
	free(used_before);
	free(ids);
	return rc;
}

int
profconv__symbolize_remap(struct profconv_profile *prof, const char *path,
    int pid)
{
	struct pc_maps maps = { 0 };
	char procpath[64];
	FILE *fp;
	int rc;

	if (path == NULL) {
		snprintf(procpath, sizeof(procpath), "/proc/%d/maps", pid);
		path = procpath;
	}
	fp = fopen(path, "r");
	if (fp == NULL)
		return profconv__fail(PROFCONV_ENOTFOUND, "cannot open '%s': %s",
		    path, strerror(errno));
	rc = read_maps(&maps, fp, path);
	fclose(fp);
	if (rc == 0 && maps.n == 0)
		rc = profconv__fail(PROFCONV_EFORMAT,
		    "'%s' has no executable memory map entries", path);
	if (rc == 0)
		rc = remap_locations(prof, &maps);
	profconv__maps_free(&maps);
	return rc;
}
