/* SPDX-License-Identifier: MIT */
/*
 * linecheck.c - the symbolizer's own line-table decoder (lib/symbolize/linetable.c)
 * against libdw's, row by row, on every compile unit of real files.
 *
 * usage: linecheck FILE...
 *   Each FILE is opened with libdwfl (separate debug info found by build
 *   id and .gnu_debuglink, never through debuginfod); prints
 *   "FILE: N rows" per file and exits 0, or names the first difference
 *   and exits 1.
 */

#include <stdio.h>
#include <stdlib.h>
#include <elfutils/libdwfl.h>

#include "symbolize/symbolize.h"

static int
check(const char *path)
{
	static char *debuginfo_path;
	static const Dwfl_Callbacks callbacks = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_build_id_find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &debuginfo_path,
	};
	struct pc_symmod *m;
	Dwfl_Module *mod;
	size_t rows;
	Dwfl *dwfl;
	int rc;

	dwfl = dwfl_begin(&callbacks);
	if (dwfl == NULL)
		return 1;
	dwfl_report_begin(dwfl);
	mod = dwfl_report_offline(dwfl, path, path, -1);
	dwfl_report_end(dwfl, NULL, NULL);
	if (mod == NULL) {
		fprintf(stderr, "linecheck: %s: %s\n", path, dwfl_errmsg(-1));
		dwfl_end(dwfl);
		return 1;
	}
	if (profconv__symmod_new(&m, mod) < 0)
		return 1;
	rc = profconv__symmod_check_lines(m, &rows);
	if (rc < 0)
		fprintf(stderr, "linecheck: %s: %s\n", path, profconv_errmsg());
	else
		printf("%s: %zu rows\n", path, rows);
	profconv__symmod_free(m);
	dwfl_end(dwfl);
	return rc < 0;
}

int
main(int argc, char **argv)
{
	int i, bad = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: linecheck FILE...\n");
		return 2;
	}
	for (i = 1; i < argc; i++)
		bad |= check(argv[i]);
	return bad;
}
