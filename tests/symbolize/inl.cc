// SPDX-License-Identifier: MIT
// inl.cc - a C++ program for tests/cli/symbolize-dwarf.sh: allocations
// through templates, methods and lambdas inlined several levels deep,
// built as split DWARF (.dwo, .dwp), processed with dwz, and compared
// frame by frame with llvm-symbolizer and addr2line.
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace inl {

static void *volatile keep[4096];
static unsigned nkeep;

__attribute__((noinline)) void stash(void *p) { keep[nkeep++ % 4096] = p; }

template <typename T> struct Pool {
	std::vector<T *> items;
	__attribute__((always_inline)) inline T *make(std::size_t n)
	{
		T *p = static_cast<T *>(std::malloc(n * sizeof(T)));
		std::memset(p, 1, n * sizeof(T));
		items.push_back(p);
		return p;
	}
};

template <typename T>
__attribute__((always_inline)) inline T *twice(Pool<T> &pool, std::size_t n)
{
	stash(pool.make(n));
	return pool.make(n * 2);
}

__attribute__((always_inline)) inline void *via_lambda(std::size_t n)
{
	auto f = [](std::size_t k) __attribute__((always_inline)) {
		return std::malloc(k + 16);
	};
	return f(n);
}

__attribute__((noinline)) void work_int(Pool<int> &pool, std::size_t n)
{
	stash(twice(pool, n));
}

__attribute__((noinline)) void work_double(Pool<double> &pool, std::size_t n)
{
	stash(twice(pool, n + 1));
	stash(via_lambda(n));
}

__attribute__((noinline)) void work_string(std::size_t n)
{
	auto *s = new std::string(n + 40, 'x');
	stash(s);
}

} // namespace inl

int main()
{
	inl::Pool<int> pi;
	inl::Pool<double> pd;

	for (std::size_t i = 0; i < 3000; i++) {
		inl::work_int(pi, 100 + i % 50);
		inl::work_double(pd, 200 + i % 30);
		inl::work_string(i % 100);
	}
	return 0;
}
