/* SPDX-License-Identifier: MIT */
/*
 * test_plan.c - planning a run: which binary, if any, serves each
 * mapping, with what load bias, and the warnings on the way
 * (lib/symbolize/plan.c).
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session_fixture.h"

#define OTHER_ID "00112233445566778899aabbccddeeff00112233"

static char self[4096], text_path[64], warned[2][4400];
static size_t nwarned;

static void
drop_all(void)
{
	drop_session();
	if (text_path[0] != '\0')
		unlink(text_path);
	text_path[0] = '\0';
}

static void
setup(void)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	FILE *fp;
	int fd;

	cr_assert(gt(sz, (size_t)n, 0));
	self[n] = '\0';
	snprintf(text_path, sizeof(text_path), "/tmp/test_plan.XXXXXX");
	fd = mkstemp(text_path);
	cr_assert(ge(int, fd, 0));
	fp = fdopen(fd, "w");
	fputs("not elf\n", fp);
	cr_assert(eq(int, fclose(fp), 0));
	nwarned = 0;
	cr_assert(eq(int, profconv_profile_new(&prof), 0));
}

TestSuite(plan, .init = setup, .fini = drop_all);

static void
note_warning(const char *msg, void *payload)
{
	(void)payload;
	if (nwarned < 2)
		snprintf(warned[nwarned], sizeof(warned[0]), "%s", msg);
	nwarned++;
}

/* A mapping of FILE (BUILD_ID) at [START, START + 0x1000) and a
 * location in it with no lines yet; the mapping's id. */
static uint32_t
mapping(const char *file, const char *build_id, uint64_t start)
{
	struct profconv_mapping m = { 0 };
	uint32_t id;

	m.start = start;
	m.limit = start + 0x1000;
	m.file = file;
	m.build_id = build_id;
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m, &id), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, id, start + 8,
	    NULL, 0, 0, NULL), 0));
	return id;
}

static int
plan(int strict)
{
	struct profconv_symbolize_options o = PROFCONV_SYMBOLIZE_OPTIONS_INIT;

	o.strict = strict;
	o.warn = note_warning;
	cr_assert(eq(int, profconv_symbolizer_new(&sz, &o), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv__sym_session_init(&s, sz, prof, NULL), 0));
	session_made = true;
	return profconv__sym_plan(&s);
}

/* Each kind of mapping gets its state: pprof's unsymbolizable names,
 * a missing file, a deleted one without a build id to prove it. */
static void
gives_each_mapping_its_state(void)
{
	uint32_t vdso = mapping("[vdso]", NULL, 0x1000);
	uint32_t gone = mapping("/nonexistent/bin", NULL, 0x3000);
	uint32_t del = mapping("/usr/bin/x (deleted)", NULL, 0x5000);
	uint32_t ok = mapping(self, NULL, 0x7000);

	cr_assert(eq(int, plan(0), 0), "%s", ERRMSG);
	cr_assert(eq(u32, s.maps[vdso - 1].state, MAP_UNSYMBOLIZABLE));
	cr_assert(eq(u32, s.maps[gone - 1].state, MAP_NO_BINARY));
	cr_assert(eq(u32, s.maps[del - 1].state, MAP_UNSYMBOLIZABLE));
	cr_assert(eq(u32, s.maps[ok - 1].state, MAP_OK));
	cr_assert(eq(sz, s.nbins, 1));
	cr_assert(eq(sz, nwarned, 0));
}

/* Two mappings of one file share its binary; the bias is the file's
 * for each, and the file's build id is recorded in the mapping. */
static void
shares_a_binary_and_records_its_build_id(void)
{
	struct profconv_mapping m;
	struct pc_elfinfo info;
	uint32_t a = mapping(self, NULL, 0x10000), b;
	int fd;

	b = mapping(self, NULL, 0x20000);
	cr_assert(eq(int, plan(0), 0), "%s", ERRMSG);
	cr_assert(eq(sz, s.nbins, 1));
	cr_assert(eq(u32, s.maps[a - 1].binary, 0));
	cr_assert(eq(u32, s.maps[b - 1].binary, 0));
	cr_assert(eq(int, profconv__elfinfo_read(&info, self, &fd), 0));
	close(fd);
	cr_assert(eq(u64, s.maps[a - 1].bias, profconv__load_bias(&info,
	    0x10000, 0x11000, 0)));
	cr_assert(eq(u64, s.maps[b - 1].bias, profconv__load_bias(&info,
	    0x20000, 0x21000, 0)));
	cr_assert(eq(int, profconv_profile_mapping(prof, a, &m), 0));
	cr_assert(eq(str, (char *)m.build_id, info.build_id));
	profconv__elfinfo_free(&info);
}

/* Each mapping's state, and the binary and build id it shares. */
Test(plan, plans_each_mapping)
{
	gives_each_mapping_its_state();
	drop_all();	/* a fresh profile and file for the next case */
	setup();
	shares_a_binary_and_records_its_build_id();
}

/* Another build id: not used, and one warning says why. */
static void
warns_of_a_file_with_another_build_id(void)
{
	struct pc_elfinfo info;
	char want[4400];
	uint32_t id = mapping(self, OTHER_ID, 0x1000);
	int fd;

	cr_assert(eq(int, plan(0), 0), "%s", ERRMSG);
	cr_assert(eq(u32, s.maps[id - 1].state, MAP_MISMATCH));
	cr_assert(eq(int, profconv__elfinfo_read(&info, self, &fd), 0));
	close(fd);
	snprintf(want, sizeof(want), "'%s' has build id %s, not %s as in the "
	    "profile; not used", self, info.build_id, OTHER_ID);
	profconv__elfinfo_free(&info);
	cr_assert(eq(sz, nwarned, 1));
	cr_assert(eq(str, warned[0], want));
}

/* A file that is no ELF: a warning, or in strict mode the error. */
static void
warns_of_an_unusable_file_or_fails_when_strict(void)
{
	char want[128];
	uint32_t id = mapping(text_path, NULL, 0x1000);

	snprintf(want, sizeof(want), "'%s' is not an ELF file", text_path);
	cr_assert(eq(int, plan(0), 0), "%s", ERRMSG);
	cr_assert(eq(u32, s.maps[id - 1].state, MAP_UNUSABLE));
	cr_assert(eq(sz, nwarned, 1));
	cr_assert(eq(str, warned[0], want));
	profconv__sym_session_free(&s);
	session_made = false;
	profconv_symbolizer_free(sz);
	sz = NULL;
	nwarned = 0;
	cr_assert(eq(int, plan(1), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, want));
	cr_assert(eq(sz, nwarned, 0));
}

/* A file of another build id or no ELF: a warning, or strict's error. */
Test(plan, warns_of_a_file_it_cannot_use)
{
	warns_of_a_file_with_another_build_id();
	drop_all();	/* a fresh profile and file for the next case */
	setup();
	warns_of_an_unusable_file_or_fails_when_strict();
}
