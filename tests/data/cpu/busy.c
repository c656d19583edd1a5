/* SPDX-License-Identifier: MIT */
/*
 * busy.c - burns about a second of CPU in two functions, for
 * tests/cli/cpu-real.sh, which profiles it with gperftools:
 *   cc -O0 -g -o busy busy.c
 *   LD_PRELOAD=libprofiler.so.0 CPUPROFILE=cpu.prof ./busy
 */

#include <stdio.h>
#include <stdlib.h>

/* volatile: keep the loops even if someone builds with -O2. */
static volatile unsigned long sink;

static void
spin_a(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i * 7;
}

static void
spin_b(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink ^= i + (sink >> 3);
}

int
main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 200;
	unsigned long k;

	/* N rounds of a few milliseconds each, alternating functions. */
	for (k = 0; k < n; k++) {
		spin_a(1000000);
		spin_b(2000000);
	}
	printf("%lu\n", (unsigned long)sink);
	return 0;
}
