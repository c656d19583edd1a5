/* SPDX-License-Identifier: MIT */
/*
 * test_maps.c - tests for the memory-map parser (read/maps.c), against
 * the cases pprof's own tests use.
 */

#include "config.h"

#include <stdint.h>

#include "helpers.h"
#include "read/maps.h"

struct map_case {
	const char *line;
	uint64_t start, limit, offset;
	const char *file, *build_id;
};

/* pprof's TestParseMappingEntry vectors, one line each. */
static const struct map_case entries[] = {
	{ "00400000-02e00000 r-xp 00000000 00:00 0",
	    0x400000, 0x2e00000, 0, "", "" },
	{ "02e00000-02e8a000 r-xp 02a00000 00:00 15953927    /foo/bin",
	    0x2e00000, 0x2e8a000, 0x2a00000, "/foo/bin", "" },
	{ "02e00000-02e8a000 r-xp 000000 00:00 15953927    [vdso]",
	    0x2e00000, 0x2e8a000, 0, "[vdso]", "" },
	{ "  02e00000-02e8a000: /foo/bin (@2a00000)",
	    0x2e00000, 0x2e8a000, 0x2a00000, "/foo/bin", "" },
	{ "  02e00000-02e8a000: /foo/bin (deleted)",
	    0x2e00000, 0x2e8a000, 0, "/foo/bin", "" },
	{ "  02e00000-02e8a000: /foo/bin",
	    0x2e00000, 0x2e8a000, 0, "/foo/bin", "" },
	{ "  02e00000-02e8a000: [vdso]",
	    0x2e00000, 0x2e8a000, 0, "[vdso]", "" },
	{ "0xff6810563000 0xff6810565000 r-xp abc_exe "
	    "87c4d547f895cfd6a370e08dc5c5ee7bd4199d5b",
	    0xff6810563000, 0xff6810565000, 0, "abc_exe",
	    "87c4d547f895cfd6a370e08dc5c5ee7bd4199d5b" },
	{ "7f5e5435e000-7f5e5455e000 --xp 00002000 00:00 1531        myprogram",
	    0x7f5e5435e000, 0x7f5e5455e000, 0x2000, "myprogram", "" },
	{ "7f7472710000-7f7472722000 r-xp 00000000 fc:00 790190      "
	    "/usr/lib/libfantastic-1.2.so",
	    0x7f7472710000, 0x7f7472722000, 0, "/usr/lib/libfantastic-1.2.so",
	    "" },
	{ "7f47a542f000-7f47a5447000: /lib/libpthread-2.15.so",
	    0x7f47a542f000, 0x7f47a5447000, 0, "/lib/libpthread-2.15.so", "" },
	{ "0x40000-0x80000 /path/to/binary      (@FF00)            abc123456",
	    0x40000, 0x80000, 0xff00, "/path/to/binary", "abc123456" },
	{ "W1220 15:07:15.202776    8272 logger.cc:12036]   0x40000-0x80000 "
	    "/path/to/binary      (@FF00)            abc123456",
	    0x40000, 0x80000, 0xff00, "/path/to/binary", "abc123456" },
};

static enum pc_map_line
parse(struct pc_maps *maps, const char *line)
{
	enum pc_map_line kind;

	cr_assert(eq(int, profconv__maps_parse_line(maps, line, strlen(line),
	    &kind), 0), "%s", profconv_errmsg());
	return kind;
}

static void
expect_entry(const struct pc_map_entry *m, const struct map_case *c)
{
	cr_expect(eq(u64, m->start, c->start), "%s", c->line);
	cr_expect(eq(u64, m->limit, c->limit), "%s", c->line);
	cr_expect(eq(u64, m->offset, c->offset), "%s", c->line);
	cr_expect(eq(str, m->file, (char *)c->file), "%s", c->line);
	cr_expect(eq(str, m->build_id, (char *)c->build_id), "%s", c->line);
}

static void
parses_pprof_mapping_entries(void)
{
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(entries); i++) {
		struct pc_maps maps = { 0 };

		cr_expect(eq(int, parse(&maps, entries[i].line), PC_MAP_ENTRY),
		    "%s", entries[i].line);
		cr_assert(eq(sz, maps.n, 1), "%s", entries[i].line);
		expect_entry(&maps.v[0], &entries[i]);
		profconv__maps_free(&maps);
	}
}

static void
skips_entries_without_execute_permission(void)
{
	struct pc_maps maps = { 0 };

	cr_expect(eq(int, parse(&maps, "7f5e5435e000-7f5e5455e000 ---p "
	    "00002000 00:00 1531        myprogram"), PC_MAP_SKIPPED));
	cr_expect(eq(int, parse(&maps, "00400000-00401000 rw-p 00000000 "
	    "08:01 1 /bin/app"), PC_MAP_SKIPPED));
	cr_expect(eq(sz, maps.n, 0));
	profconv__maps_free(&maps);
}

static void
ignores_a_glog_sentinel_line(void)
{
	static const char line[] =
	    "W1220 15:07:15.201776    8272 logger.cc:12033] --- Memory map: ---";
	struct pc_maps maps = { 0 };

	cr_expect(profconv__maps_is_sentinel(line, strlen(line)));
	cr_expect(eq(int, parse(&maps, line), PC_MAP_UNRECOGNIZED));
	cr_expect(eq(sz, maps.n, 0));
	cr_expect(eq(sz, maps.nvars, 0));
	profconv__maps_free(&maps);
}

static void
substitutes_variables_defined_before(void)
{
	struct pc_maps maps = { 0 };

	/* As in cppbench.heap: "source=/home" then "$source/..." lines. */
	cr_expect(eq(int, parse(&maps, "\tsource=/home"), PC_MAP_UNRECOGNIZED));
	cr_expect(eq(int, parse(&maps, "  00400000-00fcb000: "
	    "$source/cppbench_server_main"), PC_MAP_ENTRY));
	cr_expect(eq(int, parse(&maps, " dir = /opt "), PC_MAP_UNRECOGNIZED));
	cr_expect(eq(int, parse(&maps, "7f0000000000-7f0000001000: "
	    "$dir/lib.so $undefined"), PC_MAP_ENTRY));
	cr_assert(eq(sz, maps.n, 2));
	cr_expect(eq(str, maps.v[0].file, "/home/cppbench_server_main"));
	cr_expect(eq(str, maps.v[1].file, "/opt/lib.so"));
	profconv__maps_free(&maps);
}

static void
vertical_tab_is_not_regexp_white_space(void)
{
	struct pc_maps maps = { 0 };

	/* Go's \s is [\t\n\f\r ]: "6f23\vbf" reads as start 6f2, end 3. */
	cr_expect(eq(int, parse(&maps, "6f23\vbf"), PC_MAP_ENTRY));
	cr_assert(eq(sz, maps.n, 1));
	cr_expect(eq(u64, maps.v[0].start, 0x6f2));
	cr_expect(eq(u64, maps.v[0].limit, 0x3));
	profconv__maps_free(&maps);
}

Test(maps, parses_entry_lines)
{
	parses_pprof_mapping_entries();
	skips_entries_without_execute_permission();
	vertical_tab_is_not_regexp_white_space();
}

static void
recognizes_both_sentinels(void)
{
	cr_expect(profconv__maps_is_sentinel("--- Memory map: ---", 19));
	cr_expect(profconv__maps_is_sentinel("x MAPPED_LIBRARIES: y", 21));
	cr_expect(not(profconv__maps_is_sentinel("--- Memory map ---", 18)));
}

Test(maps, sentinels_and_variables)
{
	ignores_a_glog_sentinel_line();
	substitutes_variables_defined_before();
	recognizes_both_sentinels();
}
