// graph.cc - a C++ program for profgraph's tests (tests/cli/profgraph.sh),
// run under tcmalloc's heap profiler: class templates whose members
// allocate, members always inlined into their callers (inline edges),
// namespaced classes (names pprof shortens to "Class::method"), an
// operator, and calls that reach one allocation through several paths.
// MODE 1 allocates more through some paths and less through others, so
// two runs make a differential pair.  Everything stays allocated until
// exit, when the profiler dumps.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace store {

template <typename T, int N>
class Buffer {
public:
	__attribute__((noinline)) void fill(size_t n)
	{
		for (size_t i = 0; i < n; i++)
			items_.push_back(new T[N]);
	}
	// Always inlined: an inline frame of its callers.
	__attribute__((always_inline)) inline void add_one()
	{
		items_.push_back(new T[N]);
	}
	std::vector<T *> items_;
};

struct Index {
	std::map<std::string, std::vector<int>> m;
	__attribute__((noinline)) void insert(const char *k, int v)
	{
		m[k].push_back(v);
	}
	__attribute__((always_inline)) inline void put(int i)
	{
		char key[32];
		snprintf(key, sizeof(key), "key%d", i);
		insert(key, i);
	}
};

} // namespace store

namespace net {

struct Packet {
	char *data;
	size_t len;
};

__attribute__((noinline)) Packet
operator+(const Packet &a, size_t n)
{
	Packet p = { static_cast<char *>(malloc(a.len + n)), a.len + n };
	return p;
}

} // namespace net

static std::vector<net::Packet> packets;

__attribute__((noinline)) static void
load_doubles(store::Buffer<double, 16> &b, int n)
{
	b.fill((size_t)n);
	for (int i = 0; i < n / 2; i++)
		b.add_one();
}

__attribute__((noinline)) static void
load_ints(store::Buffer<int, 64> &b, int n)
{
	for (int i = 0; i < n; i++)
		b.add_one();
}

__attribute__((noinline)) static void
index_all(store::Index &ix, int n)
{
	for (int i = 0; i < n; i++)
		ix.put(i);
}

__attribute__((noinline)) static void
receive(int n, size_t size)
{
	net::Packet base = { nullptr, 0 };

	for (int i = 0; i < n; i++)
		packets.push_back(base + size);
}

// Two callers of one allocating function.
__attribute__((noinline)) static void
serve_small(store::Buffer<int, 64> &b, int n)
{
	load_ints(b, n);
	receive(n, 128);
}

__attribute__((noinline)) static void
serve_large(store::Buffer<int, 64> &b, int n)
{
	load_ints(b, n);
	receive(n, 4096);
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	int mode = argc > 2 ? atoi(argv[2]) : 0;
	static store::Buffer<double, 16> d;
	static store::Buffer<int, 64> ints;
	static store::Index ix;

	load_doubles(d, mode ? n * 2 : n);
	serve_small(ints, n);
	serve_large(ints, mode ? n / 4 : n / 2);
	index_all(ix, mode ? n : n * 2);
	printf("%zu %zu %zu %zu\n", d.items_.size(), ints.items_.size(),
	    ix.m.size(), packets.size());
	return 0;
}
