// SPDX-License-Identifier: MIT
// names.cc - a program whose heap profile names C++ functions of every
// shape pprof's demangle modes treat specially: class templates with
// ref-qualified members, operators (<, <<, (), ->, new[], conversion),
// operator function templates, a template function with a return type
// and one with a decltype return type, std::function, and an anonymous
// namespace.  Every allocation stays live so the exit dump shows it.

#include <cstdlib>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#define NI __attribute__((noinline))

volatile void *sink;

static void
keep(size_t n)
{
	sink = malloc(n);
}

namespace app {
template <typename T> struct Box {
	T v;
	NI void grow(int n) const & { keep(100 + n); }
	NI bool operator<(const Box &) const { keep(200); return true; }
	NI Box &operator<<(int n) { keep(300 + n); return *this; }
	NI void operator()(int n) { keep(400 + n); }
	NI Box *operator->() { keep(500); return this; }
	NI operator long() const { keep(600); return 1; }
	static NI void *operator new[](size_t n) { return malloc(n + 700); }
	static NI void operator delete[](void *p) { free(p); }
};
template <typename T> NI T make(T x) { keep(800); return x; }
NI void take(std::function<void(int)> f) { f(3); }
}

template <typename T> NI bool operator>(const app::Box<T> &, const app::Box<T> &)
{
	keep(900);
	return false;
}

template <typename C> NI auto first(C &c) -> decltype(c.begin())
{
	keep(1000);
	return c.begin();
}

template <typename T> struct Wrap {
	T v;
};
template <typename T> NI bool operator<(const Wrap<T> &, const Wrap<T> &)
{
	keep(1300);
	return false;
}
template <typename T> NI std::ostream &operator<<(std::ostream &os,
    const Wrap<T> &)
{
	keep(1400);
	return os;
}

namespace {
NI void hidden(int n) { keep(1100 + n); }
}

int
main()
{
	app::Box<std::string> b;
	app::Box<int> x{1}, y{2};
	std::vector<int> v{1, 2};
	Wrap<int> w1{1}, w2{2};
	std::ostringstream os;

	for (int i = 0; i < 50; i++) {
		b.grow(i);
		(void)(b < b);
		b << 1;
		b(2);
		b.operator->();
		(void)(long)b;
		sink = new app::Box<std::map<int, std::string>>[2];
		app::make<int>(i);
		app::take([](int n) { keep(1200 + n); });
		(void)(x > y);
		(void)first(v);
		(void)(w1 < w2);
		os << w1;
		hidden(i);
	}
	return 0;
}
