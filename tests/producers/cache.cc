// SPDX-License-Identifier: MIT
// cache.cc - a heap producer for profconv list: a class template whose
// member put() is always inlined (so its lines are inline frames of the
// functions that call it, in two instantiations that pprof names alike),
// a member that is never inlined, and a MODE that makes one line of one
// caller keep more, so two runs show which line grew.
//
// usage: cache ROUNDS MODE     (MODE 0 or 1)
#include <cstdlib>
#include <cstring>

template <typename V>
struct Cache {
	V **slots;
	int n, cap;

	__attribute__((always_inline)) inline void
	put(V v, size_t extra)
	{
		if (n == cap)
			grow();
		V *p = static_cast<V *>(malloc(sizeof(V) + extra));
		memcpy(p, &v, sizeof(v));
		slots[n++] = p;
	}

	__attribute__((noinline)) void
	grow()
	{
		cap = cap != 0 ? 2 * cap : 64;
		slots = static_cast<V **>(realloc(slots, cap * sizeof(*slots)));
	}
};

static Cache<int> ints;
static Cache<double> doubles;

__attribute__((noinline)) static void
fill_ints(int i)
{
	ints.put(i, 24);
}

__attribute__((noinline)) static void
fill_doubles(int i, int mode)
{
	doubles.put(i * 0.5, 40);
	if (mode != 0 && i % 2 == 0)
		doubles.put(i * 0.25, 200);
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1000;
	int mode = argc > 2 ? atoi(argv[2]) : 0;

	for (int i = 0; i < rounds; i++) {
		fill_ints(i);
		fill_doubles(i, mode);
	}
	return ints.n + doubles.n > 0 ? 0 : 1;
}
