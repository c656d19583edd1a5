// SPDX-License-Identifier: MIT
// pictures.cc - a heap producer for the picture tests (profflame --svg,
// --speedscope): an allocation helper that is always inlined (an inline
// frame the pictures must show), C++ operators whose names need XML
// escaping (operator<, operator&), and a MODE argument that changes how
// much each path keeps, so two runs make a differential graph.
//
// usage: pictures ROUNDS MODE     (MODE 0 or 1)
#include <cstdlib>
#include <cstring>

static void *kept[1 << 16];
static int nkept;

__attribute__((noinline)) static void
keep(void *p)
{
	kept[nkept++ & 0xffff] = p;
}

// Always inlined: symbolized, it is an inline frame of its callers.
__attribute__((always_inline)) static inline void *
inline_alloc(size_t n)
{
	void *p = malloc(n);

	memset(p, 1, n);
	return p;
}

struct Key {
	int v;
};

__attribute__((noinline)) bool
operator<(const Key &a, const Key &b)
{
	keep(inline_alloc(256 + (size_t)(a.v & 7) * 32));
	return a.v < b.v;
}

__attribute__((noinline)) Key
operator&(const Key &a, const Key &b)
{
	keep(malloc(4096));
	return Key{ a.v & b.v };
}

__attribute__((noinline)) static void
grow_table(int i, int mode)
{
	keep(inline_alloc(mode ? 2048 : 512 + (size_t)(i & 3) * 128));
}

__attribute__((noinline)) static void
parse_input(int i, int mode)
{
	Key a{ i }, b{ i + 1 };

	if (a < b && (i % (mode ? 4 : 2)) == 0)
		(void)(a & b);
	grow_table(i, mode);
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1000;
	int mode = argc > 2 ? atoi(argv[2]) : 0;

	for (int i = 0; i < rounds; i++)
		parse_input(i, mode);
	return 0;
}
