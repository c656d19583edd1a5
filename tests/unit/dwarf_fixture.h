/* SPDX-License-Identifier: MIT */
/*
 * dwarf_fixture.h - a small C program gcc compiles at test time, opened
 * as a module, for the tests of lib/symbolize/'s DWARF readers.  Define
 * DWARF_FIXTURE_TMP (the mkdtemp template of the build directory) before
 * including it, and name cleanup as the suite's .fini.
 */
#ifndef PROFCONV_TEST_DWARF_FIXTURE_H
#define PROFCONV_TEST_DWARF_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elfutils/libdwfl.h>

#include "helpers.h"
#include "symbolize/dwarf_index.h"

/* noinline functions, and one inlined into main at two call sites. */
static const char test_source[] =
	"#include <stdio.h>\n"
	"static inline __attribute__((always_inline)) int\n"
	"plus(int x)\n"
	"{\n"
	"\treturn x * 3 + 1;\n"
	"}\n"
	"__attribute__((noinline)) int\n"
	"twice(int x)\n"
	"{\n"
	"\treturn 2 * plus(x);\n"
	"}\n"
	"int\n"
	"main(int argc, char **argv)\n"
	"{\n"
	"\tint i, s = 0;\n"
	"\n"
	"\t(void)argv;\n"
	"\tfor (i = 0; i < argc; i++)\n"
	"\t\ts += twice(i) + plus(s);\n"
	"\tprintf(\"%d\\n\", s);\n"
	"\treturn 0;\n"
	"}\n";

static char dir[64];
static Dwfl *dwfl;
static struct pc_symmod *mod;

static inline void
cleanup(void)
{
	char cmd[128];

	profconv__symmod_free(mod);
	mod = NULL;
	if (dwfl != NULL)
		dwfl_end(dwfl);
	dwfl = NULL;
	if (dir[0] != '\0') {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		cr_expect(eq(int, system(cmd), 0));
		dir[0] = '\0';
	}
}

/*
 * Compile the test program with gcc and FLAGS and open it as a module
 * into MOD, without reading anything yet.  Skips the test without gcc.
 */
static inline void open_compiled_source(const char *cc, const char *name,
    const char *source, const char *flags);

static inline void
open_compiled(const char *flags)
{
	open_compiled_source("gcc", "prog.c", test_source, flags);
}

static inline void
open_compiled_source(const char *cc, const char *name, const char *source,
    const char *flags)
{
	static char *debuginfo_path;
	static const Dwfl_Callbacks callbacks = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_build_id_find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &debuginfo_path,
	};
	char path[128], cmd[512];
	Dwfl_Module *m;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", cc);
	if (system(cmd) != 0)
		cr_skip_test("no %s", cc);
	snprintf(dir, sizeof(dir), "%s", DWARF_FIXTURE_TMP);
	cr_assert(not(zero(ptr, mkdtemp(dir))));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert(not(zero(ptr, f)));
	cr_assert(ge(int, fputs(source, f), 0));
	cr_assert(eq(int, fclose(f), 0));
	snprintf(cmd, sizeof(cmd), "cd %s && %s %s -o prog %s", dir, cc,
	    flags, name);
	cr_assert(eq(int, system(cmd), 0), "%s", cmd);
	snprintf(path, sizeof(path), "%s/prog", dir);
	dwfl = dwfl_begin(&callbacks);
	cr_assert(not(zero(ptr, dwfl)));
	dwfl_report_begin(dwfl);
	m = dwfl_report_offline(dwfl, path, path, -1);
	cr_assert(not(zero(ptr, m)), "%s", dwfl_errmsg(-1));
	cr_assert(eq(int, dwfl_report_end(dwfl, NULL, NULL), 0));
	cr_assert(eq(int, profconv__symmod_new(&mod, m), 0));
}

/* The file (link-time) address of the ELF symbol NAME. */
static inline uint64_t
symbol_address(const char *name)
{
	int i, n = dwfl_module_getsymtab(mod->mod);
	const char *s;
	GElf_Addr addr;
	GElf_Sym sym;

	for (i = 1; i < n; i++) {
		s = dwfl_module_getsym_info(mod->mod, i, &sym, &addr, NULL,
		    NULL, NULL);
		if (s != NULL && strcmp(s, name) == 0)
			return addr - mod->main_bias;
	}
	cr_assert(0, "no symbol '%s'", name);
	return 0;
}

#endif /* PROFCONV_TEST_DWARF_FIXTURE_H */
