/* SPDX-License-Identifier: MIT */
/*
 * manystacks.c - tens of thousands of distinct call stacks, for the tests
 * that run profflame on a real profile of some size
 * (tests/cli/flame-jobs.sh).
 *
 * Build: cc -O1 -g -fno-omit-frame-pointer -o manystacks manystacks.c
 * Usage: manystacks N
 *
 * Path I (0 <= I < N) goes through LEVELS calls, each to one of sixteen
 * functions f0 .. f15 chosen by four bits of I (so the names include
 * "f1" and "f10", one the other's prefix), and allocates 16 .. 4096
 * bytes in the last; one block in five is freed again, so some stacks
 * allocated but hold nothing.
 */
#include <stdio.h>
#include <stdlib.h>

#define LEVELS 4
#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;
static void *kept[1 << 16];

static NOINLINE void f0(unsigned int level, unsigned long path);
static NOINLINE void f1(unsigned int level, unsigned long path);
static NOINLINE void f2(unsigned int level, unsigned long path);
static NOINLINE void f3(unsigned int level, unsigned long path);
static NOINLINE void f4(unsigned int level, unsigned long path);
static NOINLINE void f5(unsigned int level, unsigned long path);
static NOINLINE void f6(unsigned int level, unsigned long path);
static NOINLINE void f7(unsigned int level, unsigned long path);
static NOINLINE void f8(unsigned int level, unsigned long path);
static NOINLINE void f9(unsigned int level, unsigned long path);
static NOINLINE void f10(unsigned int level, unsigned long path);
static NOINLINE void f11(unsigned int level, unsigned long path);
static NOINLINE void f12(unsigned int level, unsigned long path);
static NOINLINE void f13(unsigned int level, unsigned long path);
static NOINLINE void f14(unsigned int level, unsigned long path);
static NOINLINE void f15(unsigned int level, unsigned long path);

static void (*const next[16])(unsigned int, unsigned long) = {
	f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15,
};

static NOINLINE void
step(unsigned int level, unsigned long path)
{
	void *p;

	if (level < LEVELS) {
		next[(path >> (4 * level)) & 15](level + 1, path);
		return;
	}
	p = malloc(16 + (path * 37) % 4081);
	if (p == NULL) {
		fputs("manystacks: out of memory\n", stderr);
		exit(1);
	}
	if (path % 5 == 0)
		free(p);
	else
		kept[path % (sizeof(kept) / sizeof(kept[0]))] = p;
}

static NOINLINE void
f0(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 0;
}

static NOINLINE void
f1(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 1;
}

static NOINLINE void
f2(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 2;
}

static NOINLINE void
f3(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 3;
}

static NOINLINE void
f4(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 4;
}

static NOINLINE void
f5(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 5;
}

static NOINLINE void
f6(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 6;
}

static NOINLINE void
f7(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 7;
}

static NOINLINE void
f8(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 8;
}

static NOINLINE void
f9(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 9;
}

static NOINLINE void
f10(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 10;
}

static NOINLINE void
f11(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 11;
}

static NOINLINE void
f12(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 12;
}

static NOINLINE void
f13(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 13;
}

static NOINLINE void
f14(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 14;
}

static NOINLINE void
f15(unsigned int level, unsigned long path)
{
	step(level, path);
	sink += 15;
}

int
main(int argc, char **argv)
{
	unsigned long i, n = argc > 1 ? strtoul(argv[1], NULL, 10) : 40000;

	if (n > (1UL << (4 * LEVELS)) || n > sizeof(kept) / sizeof(kept[0])) {
		fputs("manystacks: N is at most 65536\n", stderr);
		return 2;
	}
	for (i = 0; i < n; i++)
		step(0, i);
	return 0;
}
