/* SPDX-License-Identifier: MIT */
/*
 * fuzz_maps.c - fuzz the memory-map parser and the legacy builder's
 * finishing heuristics: every input line is a map line, then a profile
 * with one location per entry start is finished.
 */

#include <stdlib.h>
#include <string.h>

#include "read/builder.h"
#include "read/maps.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size, *nl;
	struct profconv_profile *prof = NULL;
	enum pc_map_line kind;
	struct pc_legacy b;
	int64_t one = 1;
	size_t i;
	uint64_t a;
	bool sane = true;
	int rc;

	if (profconv__legacy_init(&b) < 0)
		abort();
	profconv_profile_add_sample_type(b.prof, "samples", "count");
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		/* A malformed line (invalid UTF-8 in a name) is refused;
		 * anything else going wrong is a bug. */
		rc = profconv__maps_parse_line(&b.maps, p, (size_t)(nl - p),
		    &kind);
		if (rc < 0 && rc != PROFCONV_EFORMAT)
			abort();
		p = nl + 1;
	}
	/* pprof keeps inverted ranges (end below start); its mapping
	 * heuristics promise nothing for them. */
	for (i = 0; i < b.maps.n; i++)
		sane = sane && b.maps.v[i].start <= b.maps.v[i].limit;
	for (i = 0; i < b.maps.n; i++) {
		a = b.maps.v[i].start + 1;
		if (profconv__legacy_add_sample(&b, &a, 1, &one, NULL, 0) < 0)
			abort();
	}
	if (profconv__legacy_finish(&b, &prof) < 0)
		abort();
	/* Every location has a mapping that holds it, or the fake one. */
	for (i = 1; sane && i <= profconv_profile_location_count(prof); i++) {
		struct profconv_location l;
		struct profconv_mapping m;

		profconv_profile_location(prof, (uint32_t)i, &l);
		if (l.address == 0)
			continue;
		if (profconv_profile_mapping(prof, l.mapping_id, &m) < 0)
			abort();
		if (l.address < m.start || l.address >= m.limit)
			abort();
	}
	profconv_profile_free(prof);
	profconv__legacy_free(&b);
	return 0;
}
