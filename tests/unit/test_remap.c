/* SPDX-License-Identifier: MIT */
/*
 * test_remap.c - re-mapping a profile's locations with a maps file or a
 * live process's maps (lib/symbolize/remap.c).
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "symbolize/symbolize.h"

static struct profconv_profile *prof;
static char maps_path[64];

static void
drop_all(void)
{
	profconv_profile_free(prof);
	prof = NULL;
	if (maps_path[0] != '\0')
		unlink(maps_path);
	maps_path[0] = '\0';
}

TestSuite(remap, .fini = drop_all);

/* A maps file holding TEXT; its path is in maps_path. */
static void
write_maps(const char *text)
{
	FILE *fp;
	int fd;

	snprintf(maps_path, sizeof(maps_path), "/tmp/test_remap.XXXXXX");
	fd = mkstemp(maps_path);
	cr_assert(ge(int, fd, 0));
	fp = fdopen(fd, "w");
	cr_assert(not(zero(ptr, fp)));
	fputs(text, fp);
	cr_assert(eq(int, fclose(fp), 0));
}

static uint32_t
add_mapping(const char *file)
{
	struct profconv_mapping m = { 0 };
	uint32_t id;

	m.start = 0x400000;
	m.limit = 0x500000;
	m.file = file;
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m, &id), 0));
	return id;
}

static uint32_t
add_location(uint32_t mapping, uint64_t addr)
{
	uint32_t id;

	cr_assert(eq(int, profconv_profile_add_location(prof, mapping, addr,
	    NULL, 0, 0, &id), 0));
	return id;
}

/* The file of location LID's mapping, "" for none. */
static const char *
file_of(uint32_t lid)
{
	struct profconv_location loc;
	struct profconv_mapping m;

	cr_assert(eq(int, profconv_profile_location(prof, lid, &loc), 0));
	if (loc.mapping_id == 0)
		return "";
	cr_assert(eq(int, profconv_profile_mapping(prof, loc.mapping_id, &m),
	    0));
	return m.file;
}

/* The mapping of location LID. */
static struct profconv_mapping
mapping_of(uint32_t lid)
{
	struct profconv_location loc;
	struct profconv_mapping m;

	cr_assert(eq(int, profconv_profile_location(prof, lid, &loc), 0));
	cr_assert(eq(int, profconv_profile_mapping(prof, loc.mapping_id, &m),
	    0));
	return m;
}

static const char maps_text[] =
    "00400000-00401000 r--p 00000000 08:01 12 /usr/bin/prog\n"
    "00401000-00405000 r-xp 00001000 08:01 12 /usr/bin/prog\n"
    "not a map line\n"
    "7f0000000000-7f0000010000 r-xp 00000000 08:01 34 "
    "/lib/libc.so.6 (deleted)\n";

/* Each covered location moves to a mapping made from its executable
 * entry, the kernel's deleted mark kept in the name; a mapping no
 * location uses any more goes, one that no location used before stays. */
static void
points_locations_at_the_executable_entries(void)
{
	uint32_t old, keep, l1, l2, l3;
	struct profconv_mapping m;

	write_maps(maps_text);
	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	old = add_mapping("/old");
	keep = add_mapping("/keep");
	(void)add_mapping("/unused");
	l1 = add_location(old, 0x401010);
	l2 = add_location(0, 0x7f0000000100);
	l3 = add_location(keep, 0x900000);
	cr_assert(eq(int, profconv__symbolize_remap(prof, maps_path, 0), 0),
	    "%s", profconv_errmsg());
	cr_assert(eq(str, (char *)file_of(l1), "/usr/bin/prog"));
	cr_assert(eq(str, (char *)file_of(l2), "/lib/libc.so.6 (deleted)"));
	cr_assert(eq(str, (char *)file_of(l3), "/keep"));
	/* /keep, /unused and the two entries; /old is gone. */
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 4));
	m = mapping_of(l1);
	cr_assert(eq(u64, m.start, 0x401000));
	cr_assert(eq(u64, m.limit, 0x405000));
	cr_assert(eq(u64, m.offset, 0x1000));
	drop_all();
}

/* An address in an entry without x is left where it was, and so is its
 * mapping. */
static void
leaves_addresses_of_other_entries_alone(void)
{
	uint32_t old, l1, l2;

	write_maps(maps_text);
	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	old = add_mapping("/old");
	l1 = add_location(old, 0x400010);
	l2 = add_location(old, 0x405000);
	cr_assert(eq(int, profconv__symbolize_remap(prof, maps_path, 0), 0));
	cr_assert(eq(str, (char *)file_of(l1), "/old"));
	/* LIMIT is exclusive. */
	cr_assert(eq(str, (char *)file_of(l2), "/old"));
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
	drop_all();
}

static void
refuses_a_maps_file_without_executable_entries(void)
{
	char want[128];

	write_maps("00400000-00401000 r--p 00000000 08:01 12 /usr/bin/prog\n");
	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv__symbolize_remap(prof, maps_path, 0),
	    PROFCONV_EFORMAT));
	snprintf(want, sizeof(want), "'%s' has no executable memory map "
	    "entries", maps_path);
	cr_assert(eq(str, ERRMSG, want));
	cr_assert(eq(int, profconv__symbolize_remap(prof, "/nonexistent/maps",
	    0), PROFCONV_ENOTFOUND));
	cr_assert(eq(str, ERRMSG,
	    "cannot open '/nonexistent/maps': No such file or directory"));
	drop_all();
}

/* Addresses in executable entries move, the others stay; a maps file
 * with no executable entry is refused. */
Test(remap, moves_only_executable_entries)
{
	points_locations_at_the_executable_entries();
	leaves_addresses_of_other_entries_alone();
	refuses_a_maps_file_without_executable_entries();
}

/* Without a path, the process's own maps: this function's address lands
 * in a mapping of this program's file. */
Test(remap, reads_the_maps_of_a_process)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	uint32_t lid;

	cr_assert(gt(sz, (size_t)n, 0));
	self[n] = '\0';
	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	lid = add_location(0, (uint64_t)(uintptr_t)write_maps);
	cr_assert(eq(int, profconv__symbolize_remap(prof, NULL, (int)getpid()),
	    0), "%s", profconv_errmsg());
	cr_assert(eq(str, (char *)file_of(lid), self));
}
