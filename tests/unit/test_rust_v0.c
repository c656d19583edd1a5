/* SPDX-License-Identifier: MIT */
/*
 * test_rust_v0.c - Rust v0 names, RFC 2603 (lib/names/rust_v0.c): the
 * text GNU c++filt 2.40 prints, the short form without disambiguators
 * and const types, and the names c++filt refuses.
 */

#include "config.h"

#include <stdio.h>

#include "demangle_fixture.h"

static void
demangles_rust_v0_names_like_cxxfilt(void)
{
	/* Each expected text is what GNU c++filt 2.40 prints. */
	static const char *const cases[][2] = {
		{ "_RNvCs6KtT2fMGqXk_8infiloop4main",
		  "infiloop[4e9e38d21762ec98]::main" },
		{ "_RINvCs_3abc3fooKc0a_E", "abc[1]::foo::<'\\n': char>" },
		{ "_RINvCs_3abc3fooKc27_E", "abc[1]::foo::<''': char>" },
		{ "_RINvCs_3abc3fooKce9_E", "abc[1]::foo::<'\\u{e9}': char>" },
		{ "_RINvCs_3abc3fooKo123456789abcdef0123_E",
		  "abc[1]::foo::<0x23456789abcdef0123_: u128>" },
		{ "_RINvCs_3abc3fooKpE", "abc[1]::foo::<_>" },
		{ "_RNvNvC3abc3foo0", "abc[0]::foo" },
		{ "_RNvC3abcu7gre_cua", "abc[0]::gr\xc4\xaf" "e" },
		{ "_RINvC3abc3fooAhj3_E", "abc[0]::foo::<[u8; 3: usize]>" },
		{ "_RINvC3abc3fooFK9rust_callhEhE",
		  "abc[0]::foo::<extern \"rust-call\" fn(u8) -> u8>" },
		{ "_RINvC3abc3fooFUKCEuE",
		  "abc[0]::foo::<unsafe extern \"C\" fn()>" },
		{ "_RINvC3abc3fooFG_RL0_hEuE",
		  "abc[0]::foo::<for<'a> fn(&'a u8)>" },
		{ "_RINvC3abc3fooThEE", "abc[0]::foo::<(u8,)>" },
		{ "_RINvC3abc3fooQL_hE", "abc[0]::foo::<&mut u8>" },
		{ "_RINvC3abc3fooDG_NtC3abc3BarEL0_E",
		  "abc[0]::foo::<dyn for<'a> abc[0]::Bar + "
		  "'_18446744073709551615>" },
		{ "_RINvC3abc3fooLs_E", "abc[0]::foo::<'_18446744073709551587>" },
		{ "_RNvNCC3abc3foos0_3bar", "abc[0]::{closure:foo#0}::bar" },
		{ "_RNvNXC3abc4name3bar", "abc[0]::{X:name#0}::bar" },
		{ "_RNvYhNtC3abc5Trait3bar", "<u8 as abc[0]::Trait>::bar" },
		{ "_RNvXC3abchINtC3abc5TraitpE3bar",
		  "<u8 as abc[0]::Trait<_>>::bar" },
		{ "_RNvCs9HOLXVGwAZm_6v0prog4main.llvm.1234",
		  "v0prog[710f8397f055e12e]::main" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_expect(eq(str, STR(dm(cases[i][0], 0)), STR(cases[i][1])),
		    "%s", cases[i][0]);
	cr_assert(eq(str, STR(dm("_RNvCs6KtT2fMGqXk_8infiloop4main", HIDE)),
	    "infiloop::main"));
	cr_assert(eq(str, STR(dm("_RINvCs_3abc3fooKj19_E", HIDE)),
	    "abc::foo::<25>"));
	profconv__demangler_free(&dm_buf);
}

static void
refuses_what_cxxfilt_refuses_in_v0(void)
{
	static const char *const bad[] = {
		"_RINvCs_3abc3fooKp_E", "_RINvCs_3abc3fooKhn1_E",
		"_RINvC3abc3fooKe_E", "_RNvC0_3abc3foo", "_R0NvC3abc3foo",
		"_RNvCs_3abc3foo$x", "_RINvCs_3abc3fooKj_E",
		"_RINvCs_3abc3fooKb2_E", "_RINvC3abc3fooG_QL0_hE",
		/* Hostile: a backreference to itself, runaway nesting. */
		"_RNvB0_3foo", "_RNvNtB2_3foo3bar", "_R", "_RC", "_RNv",
	};
	char deep[4096];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect(eq(str, STR(dm(bad[i], 0)), "(null)"), "%s", bad[i]);
	/* 1,000 nested references: refused, not a stack overflow. */
	snprintf(deep, sizeof(deep), "_RINvC1a1f");
	for (i = 0; i < 1000; i++)
		deep[10 + i] = 'R';
	snprintf(deep + 1010, sizeof(deep) - 1010, "hE");
	cr_assert(eq(str, STR(dm(deep, 0)), "(null)"));
	profconv__demangler_free(&dm_buf);
}


/* Disambiguators are base-62 plus one ("s_" 1, "s0_" 2, "sa_" 12), in
 * hex; the instantiating crate after the path is read, not shown. */
static void
disambiguators_and_instantiating_crate(void)
{
	cr_assert(eq(str, STR(dm("_RNvCs0_3abc3foo", 0)), "abc[2]::foo"));
	cr_assert(eq(str, STR(dm("_RNvCsa_3abc3foo", 0)), "abc[c]::foo"));
	cr_assert(eq(str, STR(dm("_RNvCsZ_3abc3foo", 0)), "abc[3f]::foo"));
	cr_assert(eq(str, STR(dm("_RNvC3abc3fooCs_3xyz", 0)), "abc[0]::foo"));
	cr_assert(eq(str, STR(dm("_RNvC3abc3fooCs_3xyz", HIDE)), "abc::foo"));
	/* Anything else after the path, or a cut-off crate: refused. */
	cr_assert(eq(str, STR(dm("_RNvC3abc3fooC", 0)), "(null)"));
	cr_assert(eq(str, STR(dm("_RNvC3abc3foox", 0)), "(null)"));
	profconv__demangler_free(&dm_buf);
}

/* Consts: a sign for signed types, bools by name, several arguments
 * separated by ", "; the short form drops the ": type". */
static void
consts_full_and_short(void)
{
	cr_assert(eq(str, STR(dm("_RINvC3abc3fooKln5_E", 0)),
	    "abc[0]::foo::<-5: i32>"));
	cr_assert(eq(str, STR(dm("_RINvC3abc3fooKln5_E", HIDE)),
	    "abc::foo::<-5>"));
	cr_assert(eq(str, STR(dm("_RINvC3abc3fooKj1_Kb0_E", 0)),
	    "abc[0]::foo::<1: usize, false: bool>"));
	cr_assert(eq(str, STR(dm("_RINvC3abc3fooKb1_KhffE", HIDE)),
	    "(null)"));
	cr_assert(eq(str, STR(dm("_RINvC3abc3fooKb1_Khff_E", HIDE)),
	    "abc::foo::<true, 255>"));
	profconv__demangler_free(&dm_buf);
}

Test(rust_v0, demangles_like_cxxfilt)
{
	demangles_rust_v0_names_like_cxxfilt();
	disambiguators_and_instantiating_crate();
	consts_full_and_short();
}

/* Characters outside [_0-9a-zA-Z] before a ".suffix", and a leading
 * encoding version, are refused before any parsing. */
static void
refuses_foreign_characters_and_versions(void)
{
	cr_assert(eq(str, STR(dm("_RNvC3abc3foo.anything$goes", 0)),
	    "abc[0]::foo"));
	cr_assert(eq(str, STR(dm("_RNvC3ab-3foo", 0)), "(null)"));
	cr_assert(eq(str, STR(dm("_R1NvC3abc3foo", 0)), "(null)"));
	profconv__demangler_free(&dm_buf);
}

Test(rust_v0, refuses_malformed_names)
{
	refuses_what_cxxfilt_refuses_in_v0();
	refuses_foreign_characters_and_versions();
}
