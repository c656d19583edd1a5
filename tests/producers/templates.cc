// templates.cc - a C++ program whose allocations go through templates,
// members inlined into main, a lambda, an anonymous namespace and
// operator(): the names pprof simplifies.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace app {

template <typename K, typename V>
class Cache {
public:
	void put(K k, const V &v) { entries_[k].push_back(v); }
	size_t size() const { return entries_.size(); }

private:
	std::map<K, std::vector<V>> entries_;
};

struct Pool {
	std::vector<std::unique_ptr<char[]>> blocks;
	__attribute__((noinline)) void grow(size_t n)
	{
		blocks.emplace_back(new char[n]);
	}
};

} // namespace app

namespace {

struct Maker {
	__attribute__((noinline)) std::string *operator()(int i) const
	{
		return new std::string(200 + i % 7, 'x');
	}
};

} // namespace

static std::vector<std::string *> kept;

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20000;
	app::Cache<int, std::string> cache;
	app::Pool pool;
	Maker make;
	auto keep = [](std::string *s) { kept.push_back(s); };

	for (int i = 0; i < n; i++) {
		cache.put(i % 512, std::string(100, 'a' + i % 26));
		if (i % 10 == 0)
			pool.grow(4096);
		if (i % 3 == 0)
			keep(make(i));
	}
	printf("%zu %zu %zu\n", cache.size(), pool.blocks.size(), kept.size());
	return 0;
}
