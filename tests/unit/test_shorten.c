/* SPDX-License-Identifier: MIT */
/*
 * test_shorten.c - pprof's short function names (lib/names/shorten.c):
 * ShortenFunctionName's cases, and where its Go version rule stops.
 */

#include "config.h"

#include <stdlib.h>

#include "helpers.h"
#include "names/names.h"

/*
 * The cases of pprof's own TestShortenFunctionName (internal/graph), with
 * the module-version cases answered as the goVerRegExp of the pprof Go
 * 1.19 carries does (it drops "/v4" before the package path goes), and
 * more that pin down where each rule stops (all checked against those
 * regular expressions run by Go's regexp package).
 */
static const char *const short_cases[][2] = {
	{ "root", "root" },
	{ "syscall.Syscall", "syscall.Syscall" },
	{ "net/http.(*conn).serve", "http.(*conn).serve" },
	{ "github.com/blahBlah/foo.Foo", "foo.Foo" },
	{ "github.com/BlahBlah/foo.Foo", "foo.Foo" },
	{ "github.com/blah-blah/foo_bar.(*FooBar).Foo",
	  "foo_bar.(*FooBar).Foo" },
	{ "encoding/json.(*structEncoder).(encoding/json.encode)-fm",
	  "json.(*structEncoder).(encoding/json.encode)-fm" },
	{ "github.com/blah/blah/vendor/gopkg.in/redis.v3.(*baseClient).("
	  "github.com/blah/blah/vendor/gopkg.in/redis.v3.process)-fm",
	  "redis.v3.(*baseClient).(github.com/blah/blah/vendor/gopkg.in/"
	  "redis.v3.process)-fm" },
	{ "github.com/foo/bar/v4.(*Foo).Bar", "bar.(*Foo).Bar" },
	{ "github.com/foo/bar/v4/baz.Foo.Bar", "baz.Foo.Bar" },
	{ "github.com/foo/bar/v123.(*Foo).Bar", "bar.(*Foo).Bar" },
	{ "github.com/foobar/v0.(*Foo).Bar", "v0.(*Foo).Bar" },
	{ "github.com/foobar/v1.(*Foo).Bar", "v1.(*Foo).Bar" },
	{ "example.org/v2xyz.Foo", "v2xyz.Foo" },
	{ "java.util.concurrent.ThreadPoolExecutor$Worker.run",
	  "ThreadPoolExecutor$Worker.run" },
	{ "java.bar.foo.FooBar.run(java.lang.Runnable)", "FooBar.run" },
	{ "(anonymous namespace)::Bar::Foo", "Bar::Foo" },
	{ "(anonymous namespace)::foo", "foo" },
	{ "cpp::namespace::Class::method()::$_100::operator()",
	  "Class::method" },
	{ "foo_bar::Foo::bar", "Foo::bar" },
	{ "cpp::namespace::Class::method<float, long, int>()",
	  "Class::method<float, long, int>" },
	{ "foo", "foo" },
	{ "com.google.perftools.gwp.benchmark.FloatBench.lambda$run$0",
	  "FloatBench.lambda$run$0" },
	{ "java.bar.foo.FooBar.run$0", "FooBar.run$0" },
	/* The name: the namespaces go, the whole member stays. */
	{ "v8::internal::Heap::AllocateExternalBackingStore",
	  "Heap::AllocateExternalBackingStore" },
	/* The last capitalised class wins (the prefix is greedy). */
	{ "a::B::c::D::e", "D::e" },
	{ "a::B::c::d", "B::c" },
	/* No class with a capital after a namespace: kept whole. */
	{ "std::vector<int>::push_back", "std::vector<int>::push_back" },
	{ "ns::detail::run", "ns::detail::run" },
	{ "Klass::run", "Klass::run" },
	{ "ns::__Impl::~__Impl", "__Impl::~__Impl" },
	{ "a::B<x>::c", "a::B<x>::c" },
	/* Templates from the "<" after the member to the last ">". */
	{ "n::Foo::bar<a>(b<c>) d>", "Foo::bar<a>(b<c>) d>" },
	{ "n::A::b::C::d<e>::f", "C::d<e>" },
	/* A path component needs something after it. */
	{ "a/b/", "b/" },
	{ "a/", "a/" },
	{ "net/http", "http" },
	{ "/usr/lib/libc.so.6", "/usr/lib/libc.so.6" },
	/* "." stops at a newline: the capture does too. */
	{ "x/y.F\nz", "y.F" },
	{ "", "" },
};

static void
shorten_as_pprof(void)
{
	size_t i;

	for (i = 0; i < sizeof(short_cases) / sizeof(short_cases[0]); i++) {
		char *s = profconv__name_shorten(short_cases[i][0]);

		cr_assert(not(zero(ptr, s)));
		cr_expect(eq(str, s, (char *)short_cases[i][1]), "%s -> %s",
		    short_cases[i][0], s);
		free(s);
	}
}

/*
 * Rule 2 by hand: only the first major version goes, none in a name of
 * several lines, none of "/v01"; and rule 1 only at the start.  Each
 * answer follows pprof's goVerRegExp then its Go package rule.
 */
static void
go_version_rule_and_anonymous_namespace(void)
{
	static const char *const cases[][2] = {
		{ "github.com/a/v2/b/v3.F", "v3.F" },
		{ "github.com/a/v2.F\nx", "v2.F" },
		{ "example.org/m/v10.F", "m.F" },
		{ "example.org/m/v01.F", "v01.F" },
		{ "ns::(anonymous namespace)::Foo::bar",
		  "ns::(anonymous namespace)::Foo::bar" },
		{ "(anonymous namespace)::ns::Foo::bar", "Foo::bar" },
	};
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(cases); i++) {
		char *s = profconv__name_shorten(cases[i][0]);

		cr_assert(not(zero(ptr, s)));
		cr_expect(eq(str, s, (char *)cases[i][1]), "%s -> %s",
		    cases[i][0], s);
		free(s);
	}
}

/* Short names: pprof's own cases, then its version and namespace rules. */
Test(shorten, short_names)
{
	shorten_as_pprof();
	go_version_rule_and_anonymous_namespace();
}
