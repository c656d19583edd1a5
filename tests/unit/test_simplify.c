/* SPDX-License-Identifier: MIT */
/*
 * test_simplify.c - pprof's demangle modes applied to demangled C++ and Rust
 * names (names/simplify.c), and the namer that picks the text to simplify.
 */

#include "config.h"

#include <stdlib.h>

#include "helpers.h"
#include "names/names.h"

struct name_case {
	const char *in;
	const char *simple, *templates, *full;
};

/*
 * What pprof shows for these names: its default mode (simple) drops
 * parameter lists, qualifiers, template arguments and return types;
 * templates keeps the template arguments; full only loses clone
 * suffixes.  The simple column was checked against go tool pprof
 * -symbolize=local:demangle=simple over the mangled names of a real
 * binary where there is one.
 */
static const struct name_case cases[] = {
	{ "app::Pool::grow(unsigned long)", "app::Pool::grow",
	  "app::Pool::grow", "app::Pool::grow(unsigned long)" },
	{ "app::Box<int>::get() const", "app::Box::get",
	  "app::Box<int>::get", "app::Box<int>::get() const" },
	{ "app::Box<int>::take(app::Box<int>&&) &&", "app::Box::take",
	  "app::Box<int>::take", "app::Box<int>::take(app::Box<int>&&) &&" },
	{ "app::Box<std::string>::grow(int) const &", "app::Box::grow",
	  "app::Box<std::string>::grow",
	  "app::Box<std::string>::grow(int) const &" },
	{ "void foo<int>(int)", "foo", "foo<int>", "void foo<int>(int)" },
	{ "int app::make<int>(int)", "app::make", "app::make<int>",
	  "int app::make<int>(int)" },
	{ "std::_MakeUniq<int>::__single_object std::make_unique<int, int>"
	  "(int&&)", "std::make_unique", "std::make_unique<int, int>",
	  "std::_MakeUniq<int>::__single_object std::make_unique<int, int>"
	  "(int&&)" },
	{ "void std::vector<int, std::allocator<int> >::_M_range_initialize"
	  "<int const*>(int const*, int const*, std::forward_iterator_tag)",
	  "std::vector::_M_range_initialize",
	  "std::vector<int, std::allocator<int> >::_M_range_initialize"
	  "<int const*>",
	  "void std::vector<int, std::allocator<int> >::_M_range_initialize"
	  "<int const*>(int const*, int const*, std::forward_iterator_tag)" },
	{ "app::Box<int>::operator<(app::Box<int> const&) const",
	  "app::Box::operator<", "app::Box<int>::operator<",
	  "app::Box<int>::operator<(app::Box<int> const&) const" },
	{ "app::Box<int>::operator<<(int)", "app::Box::operator<<",
	  "app::Box<int>::operator<<", "app::Box<int>::operator<<(int)" },
	{ "app::Box<int>::operator>>=(int)", "app::Box::operator>>=",
	  "app::Box<int>::operator>>=", "app::Box<int>::operator>>=(int)" },
	{ "app::Box<int>::operator+(int) const", "app::Box::operator+",
	  "app::Box<int>::operator+", "app::Box<int>::operator+(int) const" },
	{ "bool app::operator==<int>(app::Box<int> const&, app::Box<int> "
	  "const&)", "app::operator==", "app::operator==<int>",
	  "bool app::operator==<int>(app::Box<int> const&, app::Box<int> "
	  "const&)" },
	{ "app::Box<int>::operator->*(int)", "app::Box::operator->*",
	  "app::Box<int>::operator->*", "app::Box<int>::operator->*(int)" },
	{ "app::Box<int>::operator()(int)", "app::Box::operator()",
	  "app::Box<int>::operator()", "app::Box<int>::operator()(int)" },
	{ "app::Box<int>::operator->()", "app::Box::operator->",
	  "app::Box<int>::operator->", "app::Box<int>::operator->()" },
	{ "app::Box<int>::operator new[](unsigned long)",
	  "app::Box::operator new[]", "app::Box<int>::operator new[]",
	  "app::Box<int>::operator new[](unsigned long)" },
	{ "operator delete(void*, unsigned long)", "operator delete",
	  "operator delete", "operator delete(void*, unsigned long)" },
	{ "app::Box<int>::operator long() const", "app::Box::operator long",
	  "app::Box<int>::operator long",
	  "app::Box<int>::operator long() const" },
	{ "(anonymous namespace)::hidden(int)",
	  "(anonymous namespace)::hidden", "(anonymous namespace)::hidden",
	  "(anonymous namespace)::hidden(int)" },
	{ "main::{lambda(int)#1}::operator()(int) const",
	  "main::{lambda(int)#1}::operator()",
	  "main::{lambda(int)#1}::operator()",
	  "main::{lambda(int)#1}::operator()(int) const" },
	{ "std::function<void (int)>::operator()(int) const",
	  "std::function::operator()", "std::function<void (int)>::operator()",
	  "std::function<void (int)>::operator()(int) const" },
	{ "app::take(std::function<void (int)>)", "app::take", "app::take",
	  "app::take(std::function<void (int)>)" },
	{ "app::Pool<int>::grow(unsigned long) [clone .isra.0] "
	  "[clone .cold]", "app::Pool::grow", "app::Pool<int>::grow",
	  "app::Pool<int>::grow(unsigned long)" },
	{ "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop",
	  "<alloc::vec::Vec as core::ops::drop::Drop>::drop",
	  "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop",
	  "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop" },
	{ "foo[4e9e38d21762ec98]::main", "foo::main",
	  "foo[4e9e38d21762ec98]::main", "foo[4e9e38d21762ec98]::main" },
	{ "<foo[4e9e38d21762ec98]::Pool as core::clone::Clone>::clone",
	  "<foo::Pool as core::clone::Clone>::clone",
	  "<foo[4e9e38d21762ec98]::Pool as core::clone::Clone>::clone",
	  "<foo[4e9e38d21762ec98]::Pool as core::clone::Clone>::clone" },
	/* Operator function templates: the template arguments follow the
	 * operator's symbol after a space (or, for '>', without one). */
	{ "bool operator< <int>(Box<int> const&, Box<int> const&)",
	  "operator<", "operator< <int>",
	  "bool operator< <int>(Box<int> const&, Box<int> const&)" },
	{ "bool operator><int>(Box<int> const&, Box<int> const&)",
	  "operator>", "operator><int>",
	  "bool operator><int>(Box<int> const&, Box<int> const&)" },
	{ "std::basic_ostream<char, std::char_traits<char> >& std::operator<< "
	  "<std::char_traits<char> >(std::basic_ostream<char, "
	  "std::char_traits<char> >&, char const*)", "std::operator<<",
	  "std::operator<< <std::char_traits<char> >",
	  "std::basic_ostream<char, std::char_traits<char> >& std::operator<< "
	  "<std::char_traits<char> >(std::basic_ostream<char, "
	  "std::char_traits<char> >&, char const*)" },
	{ "Conv::operator std::vector<int, std::allocator<int> >() const",
	  "Conv::operator std::vector",
	  "Conv::operator std::vector<int, std::allocator<int> >",
	  "Conv::operator std::vector<int, std::allocator<int> >() const" },
	/* A decltype return type: its parentheses are no parameter list. */
	{ "decltype (({parm#1}.begin)()) first<std::vector<int, "
	  "std::allocator<int> > >(std::vector<int, std::allocator<int> >&)",
	  "first", "first<std::vector<int, std::allocator<int> > >",
	  "decltype (({parm#1}.begin)()) first<std::vector<int, "
	  "std::allocator<int> > >(std::vector<int, std::allocator<int> >&)" },
	/* Expressions in template arguments: their '>' closes nothing. */
	{ "std::enable_if<((sizeof (int))>(2)), void>::type big<int>(int)",
	  "big", "big<int>",
	  "std::enable_if<((sizeof (int))>(2)), void>::type big<int>(int)" },
	{ "Arr<5>::fill()", "Arr::fill", "Arr<5>::fill", "Arr<5>::fill()" },
	{ "app::Cache::find(std::map<int, int, std::less<int>, "
	  "std::allocator<std::pair<int const, int> > > const&)",
	  "app::Cache::find", "app::Cache::find",
	  "app::Cache::find(std::map<int, int, std::less<int>, "
	  "std::allocator<std::pair<int const, int> > > const&)" },
};

static const char *
simplify(const char *in, enum profconv_demangle mode)
{
	static char *buf;
	static size_t cap;
	size_t len = 0;

	cr_assert(eq(int, profconv__name_simplify(in, strlen(in), mode, &buf,
	    &cap, &len), 0));
	cr_assert(eq(sz, len, strlen(buf)), "%s", in);
	return buf;
}

static void
table(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct name_case *c = &cases[i];

		cr_expect(eq(str, (char *)simplify(c->in,
		    PROFCONV_DEMANGLE_SIMPLE), (char *)c->simple), "simple: %s",
		    c->in);
		cr_expect(eq(str, (char *)simplify(c->in,
		    PROFCONV_DEMANGLE_TEMPLATES), (char *)c->templates),
		    "templates: %s", c->in);
		cr_expect(eq(str, (char *)simplify(c->in,
		    PROFCONV_DEMANGLE_FULL), (char *)c->full), "full: %s", c->in);
		cr_expect(eq(str, (char *)simplify(c->in,
		    PROFCONV_DEMANGLE_NONE), (char *)c->in), "none: %s", c->in);
	}
}

/* Text no demangler writes (unbalanced, cut short, empty) gives some
 * NUL-terminated text of the length reported, in every mode. */
static void
odd_text(void)
{
	static const char *const odd[] = { "(", ")", "<", ">", "{", "}", "[",
		"operator", "a::operator<", "operator< ", "operator<<=<", "foo(",
		"x<y", "a<b(c>d)>::f()", " [clone", "f() [clone .cold",
		"decltype(", "a b c", " ", "::", "<a as b>::c<", "foo[abc",
		"operator()(", "operator new[", "" };
	size_t i;
	int m;

	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		for (m = 0; m <= PROFCONV_DEMANGLE_NONE; m++)
			(void)simplify(odd[i], (enum profconv_demangle)m);
	cr_expect(eq(str, (char *)simplify("foo(int",
	    PROFCONV_DEMANGLE_SIMPLE), "foo"));
	cr_expect(eq(str, (char *)simplify("", PROFCONV_DEMANGLE_SIMPLE), ""));
}

Test(names, simplified_in_every_mode)
{
	table();
	odd_text();
}

Test(names, parse_modes)
{
	enum profconv_demangle m = PROFCONV_DEMANGLE_NONE;

	cr_assert(eq(int, profconv_demangle_parse("simple", &m), 0));
	cr_assert(eq(int, m, PROFCONV_DEMANGLE_SIMPLE));
	cr_assert(eq(int, profconv_demangle_parse("templates", &m), 0));
	cr_assert(eq(int, m, PROFCONV_DEMANGLE_TEMPLATES));
	cr_assert(eq(int, profconv_demangle_parse("full", &m), 0));
	cr_assert(eq(int, m, PROFCONV_DEMANGLE_FULL));
	cr_assert(eq(int, profconv_demangle_parse("none", &m), 0));
	cr_assert(eq(int, m, PROFCONV_DEMANGLE_NONE));
	cr_assert(eq(int, profconv_demangle_parse("Simple", &m),
	    PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "unknown demangle mode 'Simple' (use "
	    "simple, templates, full or none)"));
}

/* One function NAME / SYS in a one-sample profile, shown in MODE. */
static void
expect_shown(const char *name, const char *sys, enum profconv_demangle mode,
    const char *want)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_function f = { name, sys, "a.cc", 1 };
	struct profconv_line line = { 0, 3, 0 };
	struct profconv_view_frame fr;
	struct profconv_profile *p;
	struct profconv_view *v;
	uint32_t loc;
	int64_t one = 1;

	cr_assert(eq(int, profconv_profile_new(&p), 0));
	profconv_profile_add_sample_type(p, "samples", "count");
	profconv_profile_add_function(p, &f, &line.function_id);
	profconv_profile_add_location(p, 0, 0x1000, &line, 1, 0, &loc);
	profconv_profile_add_sample(p, &loc, 1, &one, NULL, 0);
	vo.demangle = mode;
	cr_assert(eq(int, profconv_view_new(&v, p, &vo), 0), "%s", ERRMSG);
	cr_assert(eq(sz, profconv_view_frame_count(v), 1));
	cr_assert(eq(int, profconv_view_frame(v, 1, &fr), 0));
	cr_expect(eq(str, (char *)fr.name, (char *)want), "%s [%s] mode %d",
	    name, sys, (int)mode);
	cr_expect(eq(str, (char *)fr.function, (char *)want));
	profconv_view_free(v);
	profconv_profile_free(p);
}

/* The linker's name is the source of every mode but simple: a profile
 * symbolized in the default mode keeps no template arguments in its
 * names, and one written with demangle none keeps the mangled name. */
static void
from_system_name(void)
{
	const char *sys = "_ZN3app4makeIiEET_S1_";

	expect_shown("app::make", sys, PROFCONV_DEMANGLE_SIMPLE, "app::make");
	expect_shown("app::make", sys, PROFCONV_DEMANGLE_TEMPLATES,
	    "app::make<int>");
	expect_shown("app::make", sys, PROFCONV_DEMANGLE_FULL,
	    "int app::make<int>(int)");
	expect_shown("app::make", sys, PROFCONV_DEMANGLE_NONE, sys);
	expect_shown(sys, sys, PROFCONV_DEMANGLE_SIMPLE, "app::make");
	expect_shown(sys, sys, PROFCONV_DEMANGLE_TEMPLATES, "app::make<int>");
	expect_shown("", sys, PROFCONV_DEMANGLE_SIMPLE, "app::make");
}

/* Only C++ and Rust names are simplified: Go's parentheses are not a
 * parameter list, and C names are shown as they are. */
static void
go_and_c_untouched(void)
{
	expect_shown("main.(*Pool).grow", "", PROFCONV_DEMANGLE_SIMPLE,
	    "main.(*Pool).grow");
	expect_shown("runtime.mallocgc", "", PROFCONV_DEMANGLE_SIMPLE,
	    "runtime.mallocgc");
	expect_shown("xmalloc", "xmalloc", PROFCONV_DEMANGLE_FULL, "xmalloc");
	expect_shown("app::Pool::grow(unsigned long)", "",
	    PROFCONV_DEMANGLE_SIMPLE, "app::Pool::grow");
}

Test(names, shown_from_the_right_name)
{
	from_system_name();
	go_and_c_untouched();
}
