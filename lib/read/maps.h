/* SPDX-License-Identifier: MIT */
/*
 * maps.h - the memory-map parser (maps.c): every map form pprof accepts,
 * used by the legacy readers and by the symbolizer's --maps.
 */
#ifndef PROFCONV_MAPS_H
#define PROFCONV_MAPS_H

#include <stdbool.h>
#include <stdint.h>

#include "read/input.h"
#include "base/base.h"

struct pc_map_entry {
	uint64_t start, limit, offset;
	char *file;			/* malloc'd; "" when absent */
	char *build_id;			/* malloc'd; "" when absent */
	bool deleted;			/* the file ends " (deleted)" */
};

/* A list of parsed map entries, plus the `$name` variables seen so far. */
struct pc_maps {
	struct pc_map_entry *v;
	size_t n, cap;
	char **vars;			/* name, value, name, value, ... */
	size_t nvars, vars_cap;
	uint64_t expanded, lookups;	/* $variable cost so far (bounds.h) */
	bool seen;			/* a MAPPED_LIBRARIES section was read */
	bool cut;			/* and its last line had no newline:
					 * the file was cut inside it */
	uint64_t cut_lineno;		/* that line's number */
};

void profconv__maps_free(struct pc_maps *maps);

enum pc_map_line {
	PC_MAP_ENTRY,		/* an entry was appended */
	PC_MAP_SKIPPED,		/* a valid entry without 'x' permission */
	PC_MAP_UNRECOGNIZED	/* not a maps line (maybe a $var assignment) */
};

/*
 * Parse one line of a memory map in any form pprof accepts: the procfs
 * form ("start-end perms offset dev inode [file]") or the brief form
 * ("start-end[:] [perms] [file] [(@offset)] [buildid]"), after removing
 * a glog prefix and substituting $variables.  A line of the form
 * "name=value" that is not a map entry defines $name.  *KIND_OUT says what
 * the line was.  Errors: PROFCONV_ENOMEM.
 */
int profconv__maps_parse_line(struct pc_maps *maps, const char *line,
    size_t len, enum pc_map_line *kind_out);

/* True when LINE contains one of the memory-map section sentinels. */
bool profconv__maps_is_sentinel(const char *line, size_t len);

/* Parse every remaining line of IN as map lines. */
int profconv__maps_parse_rest(struct pc_maps *maps, struct pc_input *in);

/*
 * As pprof's legacy parsers do after their samples: skip lines up to a
 * memory-map sentinel (LINE itself may be one; NULL when the input has
 * ended), then parse every line after it as map lines.
 */
int profconv__maps_parse_after_sentinel(struct pc_maps *maps,
    struct pc_input *in, const char *line, size_t len);

#endif /* PROFCONV_MAPS_H */
