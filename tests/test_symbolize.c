/* SPDX-License-Identifier: MIT */
/* test_symbolize.c - tests for the symbolizer: bias, names, dedupe, lookup. */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "symbolize.h"

#define STR(s) ((char *)(s))

static struct profconv_profile *prof;

static void
drop_profile(void)
{
	profconv_profile_free(prof);
	prof = NULL;
}

TestSuite(symbolize, .fini = drop_profile);

/* --- load bias ------------------------------------------------------------ */

static struct pc_elfinfo
elf_with(const struct pc_phdr *loads, size_t n, int e_type)
{
	struct pc_elfinfo info = { 0 };

	info.e_type = e_type;
	info.loads = (struct pc_phdr *)loads;
	info.nloads = n;
	return info;
}

Test(symbolize, bias_of_a_pie_text_mapping)
{
	static const struct pc_phdr loads[] = {
		{ 0x0, 0x0, 0x618, 0x618, 0x1000, 4 },
		{ 0x1000, 0x1000, 0x1d5, 0x1d5, 0x1000, 5 },
		{ 0x2000, 0x2000, 0x10c, 0x10c, 0x1000, 4 },
	};
	struct pc_elfinfo info = elf_with(loads, 3, 3);

	cr_assert(eq(u64, profconv__load_bias(&info, 0x555555555000,
	    0x555555556000, 0x1000), 0x555555554000));
	/* The read-only first page gives the same answer. */
	cr_assert(eq(u64, profconv__load_bias(&info, 0x555555554000,
	    0x555555555000, 0x0), 0x555555554000));
}

Test(symbolize, bias_when_vaddr_and_offset_differ)
{
	/* rustc/lld layout: text at offset 0x1000 linked at 0x2000 (coz#293). */
	static const struct pc_phdr loads[] = {
		{ 0x0, 0x0, 0x800, 0x800, 0x1000, 4 },
		{ 0x1000, 0x2000, 0x3000, 0x3000, 0x1000, 5 },
	};
	struct pc_elfinfo info = elf_with(loads, 2, 3);

	cr_assert(eq(u64, profconv__load_bias(&info, 0x7f0000001000,
	    0x7f0000004000, 0x1000), 0x7f0000000000 - 0x1000));
	cr_assert(eq(u64, 0x7f0000002500 - profconv__load_bias(&info,
	    0x7f0000001000, 0x7f0000004000, 0x1000), 0x3500));
}

Test(symbolize, bias_with_a_segment_not_page_aligned)
{
	static const struct pc_phdr loads[] = {
		{ 0x0, 0x0, 0x2d00, 0x2d00, 0x1000, 4 },
		{ 0x2d10, 0x3d10, 0x500, 0x600, 0x1000, 5 },
	};
	struct pc_elfinfo info = elf_with(loads, 2, 3);

	/* Page 0x2000 of the file is mapped for both segments; the
	 * executable one is what a profile's mapping shows. */
	cr_assert(eq(u64, profconv__load_bias(&info, 0x7f0000003000,
	    0x7f0000004000, 0x2000), 0x7f0000003000 - 0x3000));
}

Test(symbolize, bias_of_a_classic_executable_is_zero)
{
	static const struct pc_phdr loads[] = {
		{ 0x0, 0x400000, 0x1000, 0x1000, 0x1000, 4 },
		{ 0x1000, 0x401000, 0x5000, 0x5000, 0x1000, 5 },
	};
	struct pc_elfinfo info = elf_with(loads, 2, 2);

	cr_assert(eq(u64, profconv__load_bias(&info, 0x401000, 0x406000,
	    0x1000), 0));
	/* A fake whole-space mapping means file addresses already. */
	cr_assert(eq(u64, profconv__load_bias(&info, 0, UINT64_MAX, 0), 0));
}

Test(symbolize, bias_without_a_matching_segment_is_start_minus_offset)
{
	static const struct pc_phdr loads[] = {
		{ 0x0, 0x0, 0x1000, 0x1000, 0x1000, 4 },
	};
	struct pc_elfinfo info = elf_with(loads, 1, 3);

	cr_assert(eq(u64, profconv__load_bias(&info, 0x10000000, 0x10001000,
	    0x8000), 0x10000000 - 0x8000));
}

/* --- unsymbolizable mappings and build ids -------------------------------- */

Test(symbolize, follows_pprof_unsymbolizable_rules)
{
	cr_assert(profconv__unsymbolizable(""));
	cr_assert(profconv__unsymbolizable("[vdso]"));
	cr_assert(profconv__unsymbolizable("[heap]"));
	cr_assert(profconv__unsymbolizable("linux-vdso.so.1"));
	cr_assert(profconv__unsymbolizable("/dev/dri/renderD128"));
	cr_assert(profconv__unsymbolizable("//anon"));
	cr_assert(profconv__unsymbolizable("/memfd:jit (deleted)"));
	cr_assert(profconv__unsymbolizable("/usr/bin/prog (deleted)"));
	cr_assert(not(profconv__unsymbolizable("/usr/lib/libc.so.6")));
	cr_assert(not(profconv__unsymbolizable("./a.out")));
}

Test(symbolize, compares_build_ids_ignoring_case)
{
	cr_assert(profconv__build_id_equal("ABcd01", "abCD01"));
	cr_assert(not(profconv__build_id_equal("abcd01", "abcd0")));
	cr_assert(not(profconv__build_id_equal("abcd01", "abcd02")));
}

/* --- demangling ----------------------------------------------------------- */

Test(symbolize, demangles_rust_legacy_names_like_rustfilt)
{
	struct pc_demangler d = { 0 };

	cr_assert(eq(str, STR(profconv__demangle(&d,
	    "_ZN4main9keep_some17ha3f709c3fdb70cedE")), "main::keep_some"));
	cr_assert(eq(str, STR(profconv__demangle(&d,
	    "_ZN5alloc3vec16Vec$LT$T$C$A$GT$4push17h301c4d372852a1ebE")),
	    "alloc::vec::Vec<T,A>::push"));
	cr_assert(eq(str, STR(profconv__demangle(&d,
	    "_ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$"
	    "..$u7b$$u7b$closure$u7d$$u7d$$GT$17h0f1b2c3d4e5f6a7bE")),
	    "core::ptr::drop_in_place<std::rt::lang_start<()>::{{closure}}>"));
	/* A C++ name that merely ends in a word stays as it was. */
	cr_assert(eq(str, STR(profconv__demangle(&d, "_ZN2ns4hashEv")),
	    "ns::hash()"));
	profconv__demangler_free(&d);
}

Test(symbolize, demangles_itanium_names_only)
{
	struct pc_demangler d = { 0 };

	cr_assert(eq(str, STR(profconv__demangle(&d, "_Z3fooi")), "foo(int)"));
	cr_assert(eq(str, STR(profconv__demangle(&d,
	    "_ZN2ns3BoxIiE3getEv")), "ns::Box<int>::get()"));
	cr_assert(eq(str, STR(profconv__demangle(&d, "_Z3barv.cold")),
	    "bar() [clone .cold]"));
	cr_assert(zero(ptr, (void *)profconv__demangle(&d, "main")));
	cr_assert(zero(ptr, (void *)profconv__demangle(&d, "i")));
	cr_assert(zero(ptr, (void *)profconv__demangle(&d, "_Zqq")));
	/* The buffer survives a failure and grows for a long name. */
	cr_assert(eq(str, STR(profconv__demangle(&d,
	    "_ZN5outer5inner6middle4deep9very_long13function_nameEv")),
	    "outer::inner::middle::deep::very_long::function_name()"));
	profconv__demangler_free(&d);
	ASSERT_NO_LEAKS();
}

/* --- function deduplication ----------------------------------------------- */

static struct pc_function
func(const char *name, const char *file, int64_t start_line)
{
	struct pc_function f = { 0 };

	cr_assert(eq(int, profconv__intern(prof, name, &f.name), 0));
	f.system_name = f.name;
	cr_assert(eq(int, profconv__intern(prof, file, &f.file), 0));
	f.start_line = start_line;
	return f;
}

Test(symbolize, dedupes_functions_by_all_four_fields)
{
	struct profconv_function pub = { "main", "main", "m.c", 3 };
	struct pc_funcset set;
	struct pc_function f;
	uint32_t id0, id1, id2, id3;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_function(prof, &pub, &id0), 0));
	cr_assert(eq(int, profconv__funcset_init(&set, prof), 0));
	f = func("main", "m.c", 3);
	cr_assert(eq(int, profconv__funcset_get(&set, prof, &f, &id1), 0));
	cr_assert(eq(u32, id1, id0), "an existing function is reused");
	f = func("main", "m.c", 4);
	cr_assert(eq(int, profconv__funcset_get(&set, prof, &f, &id2), 0));
	cr_assert(ne(u32, id2, id0));
	f = func("main", "n.c", 3);
	cr_assert(eq(int, profconv__funcset_get(&set, prof, &f, &id3), 0));
	cr_assert(ne(u32, id3, id0));
	cr_assert(ne(u32, id3, id2));
	f = func("main", "m.c", 4);
	cr_assert(eq(int, profconv__funcset_get(&set, prof, &f, &id1), 0));
	cr_assert(eq(u32, id1, id2));
	cr_assert(eq(sz, profconv_profile_function_count(prof), 3));
	profconv__funcset_free(&set);
}

/* --- symbolizing this very test program ----------------------------------- */

static __attribute__((noinline)) int
probe_function(int x)
{
	/* Keep the call from being folded away. */
	__asm__ volatile("" : "+r"(x));
	return x * 3 + 1;
}

/* The executable mapping of /proc/self/maps that holds ADDR. */
static void
self_mapping(uintptr_t addr, struct profconv_mapping *m, char *file,
    size_t size)
{
	unsigned long long start, end, off;
	char line[4096], perms[8], path[4096];
	FILE *fp = fopen("/proc/self/maps", "r");

	cr_assert(not(zero(ptr, fp)));
	while (fgets(line, sizeof(line), fp) != NULL) {
		path[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &start,
		    &end, perms, &off, path) < 4)
			continue;
		if (addr < start || addr >= end)
			continue;
		snprintf(file, size, "%s", path);
		m->start = start;
		m->limit = end;
		m->offset = off;
		m->file = file;
		fclose(fp);
		return;
	}
	fclose(fp);
	cr_fatal("no mapping holds %#" PRIxPTR, addr);
}

static uint32_t
self_location(uintptr_t addr)
{
	struct profconv_mapping m = { 0 };
	char file[4096];
	uint32_t mid, lid;

	self_mapping(addr, &m, file, sizeof(file));
	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m, &mid), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, mid, addr, NULL,
	    0, 0, &lid), 0));
	return lid;
}

static void
expect_function(uint32_t lid, const char *name, const char *file_tail)
{
	struct profconv_location loc;
	struct profconv_function fn;
	size_t flen, tlen = strlen(file_tail);

	cr_assert(eq(int, profconv_profile_location(prof, lid, &loc), 0));
	cr_assert(ge(sz, loc.nlines, 1));
	cr_assert(eq(int, profconv_profile_function(prof,
	    loc.lines[loc.nlines - 1].function_id, &fn), 0));
	cr_assert(eq(str, STR(fn.name), STR(name)));
	flen = strlen(fn.file);
	cr_assert(ge(sz, flen, tlen));
	cr_assert(eq(str, STR(fn.file + flen - tlen), STR(file_tail)));
	cr_assert(gt(i64, loc.lines[loc.nlines - 1].line, 0));
}

Test(symbolize, finds_a_function_of_this_program)
{
	struct profconv_symbolize_stats st;
	struct profconv_mapping m;
	uintptr_t addr = (uintptr_t)probe_function + 2;
	uint32_t lid = self_location(addr);

	cr_assert(eq(int, probe_function(2), 7));
	cr_assert(eq(int, profconv_symbolize(prof, NULL, &st), 0),
	    "%s", profconv_errmsg());
	cr_assert(eq(sz, st.symbolized, 1));
	cr_assert(eq(sz, st.addresses, 1));
	expect_function(lid, "probe_function", "test_symbolize.c");
	cr_assert(eq(int, profconv_profile_mapping(prof, 1, &m), 0));
	cr_assert(m.has_functions && m.has_filenames && m.has_line_numbers);
	ASSERT_NO_LEAKS();
}

Test(symbolize, maps_addresses_with_a_live_process)
{
	struct profconv_symbolize_options opts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	struct profconv_symbolize_stats st;
	uintptr_t addr = (uintptr_t)probe_function + 2;
	uint32_t lid;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, 0, addr, NULL,
	    0, 0, &lid), 0));
	opts.pid = (int)getpid();
	cr_assert(eq(int, profconv_symbolize(prof, &opts, &st), 0),
	    "%s", profconv_errmsg());
	cr_assert(eq(sz, st.symbolized, 1));
	expect_function(lid, "probe_function", "test_symbolize.c");
	cr_assert(eq(sz, profconv_profile_mapping_count(prof), 1));
}

Test(symbolize, leaves_locations_of_missing_binaries_alone)
{
	struct profconv_mapping m = { 0x1000, 0x2000, 0, "/nonexistent/bin",
		"", 0, 0, 0, 0 };
	struct profconv_mapping v = { 0x3000, 0x4000, 0, "[vdso]", "", 0, 0,
		0, 0 };
	struct profconv_symbolize_stats st;
	struct profconv_location loc;
	uint32_t mid, vid;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &m, &mid), 0));
	cr_assert(eq(int, profconv_profile_add_mapping(prof, &v, &vid), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, mid, 0x1010,
	    NULL, 0, 0, NULL), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, vid, 0x3010,
	    NULL, 0, 0, NULL), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, 0, 0x5010,
	    NULL, 0, 0, NULL), 0));
	cr_assert(eq(int, profconv_symbolize(prof, NULL, &st), 0));
	cr_assert(eq(sz, st.locations, 3));
	cr_assert(eq(sz, st.no_binary, 1));
	cr_assert(eq(sz, st.unsymbolizable, 2));
	cr_assert(eq(sz, st.symbolized, 0));
	cr_assert(eq(int, profconv_profile_location(prof, 1, &loc), 0));
	cr_assert(eq(sz, loc.nlines, 0));
}

Test(symbolize, rejects_a_process_and_a_maps_file_together)
{
	struct profconv_symbolize_options opts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	opts.pid = 1;
	opts.maps_file = "/proc/self/maps";
	cr_assert(eq(int, profconv_symbolize(prof, &opts, NULL),
	    PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG,
	    "a process and a maps file cannot both be given"));
}

Test(symbolize, names_a_maps_file_it_cannot_open)
{
	struct profconv_symbolize_options opts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	opts.maps_file = "/nonexistent/maps";
	cr_assert(eq(int, profconv_symbolize(prof, &opts, NULL),
	    PROFCONV_ENOTFOUND));
	cr_assert(eq(str, ERRMSG,
	    "cannot open '/nonexistent/maps': No such file or directory"));
}

static void
count_modules(uint64_t done, uint64_t total, void *payload)
{
	uint64_t *seen = payload;

	seen[0]++;
	seen[1] = done;
	seen[2] = total;
}

/* Progress counts the modules indexed, of how many. */
Test(symbolize, reports_progress_in_modules)
{
	struct profconv_symbolize_options opts =
	    PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	uint64_t seen[3] = { 0, 0, 0 };
	uintptr_t addr = (uintptr_t)probe_function + 2;
	uint32_t lid;

	cr_assert(eq(int, profconv_profile_new(&prof), 0));
	cr_assert(eq(int, profconv_profile_add_location(prof, 0, addr, NULL,
	    0, 0, &lid), 0));
	opts.pid = (int)getpid();
	opts.progress = count_modules;
	opts.payload = seen;
	cr_assert(eq(int, profconv_symbolize(prof, &opts, NULL), 0),
	    "%s", profconv_errmsg());
	cr_assert(eq(u64, seen[0], 1));
	cr_assert(eq(u64, seen[1], 1));
	cr_assert(eq(u64, seen[2], 1));
	expect_function(lid, "probe_function", "test_symbolize.c");
}
