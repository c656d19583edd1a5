/* SPDX-License-Identifier: MIT */
/*
 * test_demangle.c - symbol names made readable (lib/names/demangle.c):
 * which names are demangled at all, Rust legacy names as c++filt 2.40
 * and rustfilt print them, C++ through __cxa_demangle, and the bounded
 * output buffer both Rust parsers write through.
 */

#include "config.h"

#include <stdlib.h>

#include "names/demangle.h"
#include "demangle_fixture.h"

static void
demangles_rust_legacy_names_like_rustfilt(void)
{
	cr_assert(eq(str, STR(dm("_ZN4main9keep_some17ha3f709c3fdb70cedE",
	    HIDE)), "main::keep_some"));
	cr_assert(eq(str, STR(dm(
	    "_ZN5alloc3vec16Vec$LT$T$C$A$GT$4push17h301c4d372852a1ebE", HIDE)),
	    "alloc::vec::Vec<T,A>::push"));
	cr_assert(eq(str, STR(dm(
	    "_ZN4core3ptr85drop_in_place$LT$std..rt..lang_start$LT$$LP$$RP$$GT$"
	    "..$u7b$$u7b$closure$u7d$$u7d$$GT$17h0f1b2c3d4e5f6a7bE", HIDE)),
	    "core::ptr::drop_in_place<std::rt::lang_start<()>::{{closure}}>"));
	/* A C++ name that merely ends in a word stays as it was. */
	cr_assert(eq(str, STR(dm("_ZN2ns4hashEv", HIDE)), "ns::hash()"));
	profconv__demangler_free(&dm_buf);
}

static void
demangles_rust_legacy_names_like_cxxfilt_in_full(void)
{
	/* c++filt 2.40 keeps the hash and drops an LLVM suffix. */
	cr_assert(eq(str, STR(dm("_ZN3foo3bar17h0123456789abcdefE", 0)),
	    "foo::bar::h0123456789abcdef"));
	cr_assert(eq(str, STR(dm("_ZN3foo3bar17h0123456789abcdefE.llvm.99",
	    0)), "foo::bar::h0123456789abcdef"));
	/* Too few different digits: not a Rust hash, so C++. */
	cr_assert(eq(str, STR(dm("_ZN3foo3bar17h0000000000000000E", 0)),
	    "foo::bar::h0000000000000000"));
	profconv__demangler_free(&dm_buf);
}

static void
demangles_itanium_names_only(void)
{
	struct pc_demangler d = { 0 };

	cr_assert(eq(str, STR(profconv__demangle("_Z3fooi", &d, 0)),
	    "foo(int)"));
	cr_assert(eq(str, STR(profconv__demangle("_ZN2ns3BoxIiE3getEv", &d,
	    0)), "ns::Box<int>::get()"));
	cr_assert(eq(str, STR(profconv__demangle("_Z3barv.cold", &d, 0)),
	    "bar() [clone .cold]"));
	cr_assert(zero(ptr, (void *)profconv__demangle("main", &d, 0)));
	cr_assert(zero(ptr, (void *)profconv__demangle("i", &d, 0)));
	cr_assert(zero(ptr, (void *)profconv__demangle("_Zqq", &d, 0)));
	/* The buffer survives a failure and grows for a long name. */
	cr_assert(eq(str, STR(profconv__demangle(
	    "_ZN5outer5inner6middle4deep9very_long13function_nameEv", &d, 0)),
	    "outer::inner::middle::deep::very_long::function_name()"));
	profconv__demangler_free(&d);
	ASSERT_NO_LEAKS();
}


/* Each "$..$" escape of legacy Rust, ".." as "::", the "_" before a
 * leading escape dropped, and an unknown escape kept as is; each text
 * is what GNU c++filt 2.40 prints. */
static void
rust_legacy_escapes(void)
{
	static const char name[] = "_ZN3foo10_$LT$a$GT$9fmt$u20$x"
	    "23$SP$$BP$$RF$$LP$$RP$$C$6$u19$q5$u7e$17h0123456789abcdefE";

	cr_assert(eq(str, STR(dm(name, HIDE)),
	    "foo::<a>::fmt x::@*&(),::$u19$q::~"));
	cr_assert(eq(str, STR(dm(name, 0)),
	    "foo::<a>::fmt x::@*&(),::$u19$q::~::h0123456789abcdef"));
	cr_assert(eq(str, STR(dm("_ZN3std2io5stdio9print..we17h0123456789abcdefE",
	    HIDE)), "std::io::stdio::print::we"));
	profconv__demangler_free(&dm_buf);
}

/* A single "." in a legacy identifier stays a "." (c++filt 2.40 and
 * llvm-cxxfilt; libiberty printed "-" before binutils 2.34). */
static void
rust_legacy_single_dot_as_cxxfilt(void)
{
	cr_assert(eq(str, STR(dm("_ZN3foo3a.b17h0123456789abcdefE", 0)),
	    "foo::a.b::h0123456789abcdef"));
	profconv__demangler_free(&dm_buf);
}

/* A legacy hash has at least 5 different hex digits: with 4 the name is
 * C++, whose demangling keeps the last part. */
static void
rust_legacy_hash_needs_five_digits(void)
{
	cr_assert(eq(str, STR(dm("_ZN3foo3bar17h0123401234012340E", HIDE)),
	    "foo::bar"));
	cr_assert(eq(str, STR(dm("_ZN3foo3bar17h0123012301230123E", HIDE)),
	    "foo::bar::h0123012301230123"));
	/* One part only, or anything but a ".suffix" after the E: not
	 * Rust, but C++ (the "x" is a long long parameter). */
	cr_assert(eq(str, STR(dm("_ZN17h0123456789abcdefE", HIDE)),
	    "h0123456789abcdef"));
	cr_assert(eq(str, STR(dm("_ZN3foo3bar17h0123456789abcdefEx", HIDE)),
	    "foo::bar::h0123456789abcdef(long long)"));
	profconv__demangler_free(&dm_buf);
}

/* Legacy Rust names, their escapes and hashes, as rustfilt and
 * c++filt 2.40 print them. */
Test(demangle, rust_legacy_names)
{
	demangles_rust_legacy_names_like_rustfilt();
	demangles_rust_legacy_names_like_cxxfilt_in_full();
	rust_legacy_escapes();
	rust_legacy_single_dot_as_cxxfilt();
	rust_legacy_hash_needs_five_digits();
}

/* Names without a known prefix are never demangled, not even as the
 * type they might spell. */
static void
only_known_prefixes(void)
{
	struct pc_demangler d = { 0 };

	cr_assert(zero(ptr, (void *)profconv__demangle(NULL, &d, 0)));
	cr_assert(zero(ptr, (void *)profconv__demangle("v", &d, 0)));
	cr_assert(zero(ptr, (void *)profconv__demangle("__Z3foov", &d, 0)));
	cr_assert(zero(ptr, (void *)profconv__demangle("_D3foo", &d, 0)));
	cr_assert(eq(str, STR(profconv__demangle("_Z3foov", &d, 0)),
	    "foo()"));
	profconv__demangler_free(&d);
	cr_assert(zero(ptr, d.buf));
	cr_assert(eq(sz, d.cap, 0));
}

/* Which names are demangled at all: Itanium C++ names, nothing else. */
Test(demangle, demangles_only_known_prefixes)
{
	demangles_itanium_names_only();
	only_known_prefixes();
}

/* The output buffer: text, numbers in decimal and hex, and a write past
 * the bound (1 MiB) that fails once and makes every later one a no-op. */
Test(demangle, output_is_bounded)
{
	struct pc_demangler d = { 0 };
	struct pc_dm_out o = { &d, 0, false };
	size_t big = (1u << 20) - 26;
	char *junk = malloc(big);

	cr_assert(not(zero(ptr, junk)));
	memset(junk, 'x', big);
	profconv__dm_puts(&o, "ab");
	profconv__dm_putu(&o, 255, true);
	profconv__dm_putu(&o, UINT64_MAX, false);
	cr_assert(eq(str, d.buf, "abff18446744073709551615"));
	cr_assert(eq(sz, o.len, 24));
	/* 24 + big + 1 = 2^20 - 1: fits; two more bytes do not */
	profconv__dm_put(&o, junk, big);
	cr_assert(not(o.err));
	profconv__dm_put(&o, "yy", 2);
	cr_assert(o.err);
	profconv__dm_puts(&o, "z");
	cr_assert(eq(sz, o.len, 24 + big));
	cr_assert(eq(sz, strlen(d.buf), 24 + big));
	free(junk);
	profconv__demangler_free(&d);
}

Test(demangle, hex_nibbles_are_lower_case_only)
{
	cr_assert(eq(int, profconv__dm_hex_nibble('0'), 0));
	cr_assert(eq(int, profconv__dm_hex_nibble('9'), 9));
	cr_assert(eq(int, profconv__dm_hex_nibble('a'), 10));
	cr_assert(eq(int, profconv__dm_hex_nibble('f'), 15));
	cr_assert(eq(int, profconv__dm_hex_nibble('A'), -1));
	cr_assert(eq(int, profconv__dm_hex_nibble('g'), -1));
}
