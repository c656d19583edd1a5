/* SPDX-License-Identifier: MIT */
/*
 * demangle.c - a c++filt for the tests: each line of standard input is a
 * symbol, printed demangled in full (as GNU c++filt prints it) or as it
 * was when it is no mangled name.  "-s" hides hashes as symbolize does.
 */

#include <stdio.h>
#include <string.h>

#include "symbolize/symbolize.h"

int
main(int argc, char **argv)
{
	struct pc_demangler d = { NULL, 0 };
	unsigned flags = argc > 1 && strcmp(argv[1], "-s") == 0 ?
	    PC_DEMANGLE_NO_HASH : 0;
	char line[65536];
	const char *out;
	size_t n;

	while (fgets(line, sizeof(line), stdin) != NULL) {
		n = strlen(line);
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		out = profconv__demangle(line, &d, flags);
		printf("%s\n", out != NULL ? out : line);
	}
	profconv__demangler_free(&d);
	return ferror(stdin) || fflush(stdout) != 0 ? 1 : 0;
}
