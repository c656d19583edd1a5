/* SPDX-License-Identifier: MIT */
/*
 * test_hash.c - hashing and the two hash tables (lib/base/hash.c): the
 * u64 map with key 0 kept aside, the byte-string key map, and the keyed
 * byte hash.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "base/base.h"

static void
stores_zero_and_large_keys(void)
{
	struct pc_u64map m = { 0 };
	uint32_t v;
	uint64_t k;

	cr_assert(not(profconv__u64map_get(&m, 0, &v)));
	cr_assert(eq(int, profconv__u64map_put(&m, 0, 7), 0));
	for (k = 1; k < 100000; k++)
		cr_assert(eq(int, profconv__u64map_put(&m, k * 0x1000, (uint32_t)k), 0));
	cr_assert(profconv__u64map_get(&m, 0, &v));
	cr_assert(eq(u32, v, 7));
	cr_assert(profconv__u64map_get(&m, 0x1000 * 777, &v));
	cr_assert(eq(u32, v, 777));
	cr_assert(not(profconv__u64map_get(&m, 0x1001, &v)));
	cr_assert(eq(sz, m.len, 99999));
	profconv__u64map_free(&m);
}

/* A value is stored + 1, so UINT32_MAX is refused; a put overwrites. */
static void
u64map_overwrites_and_refuses_the_last_value(void)
{
	struct pc_u64map m = { 0 };
	uint32_t v = 0;

	cr_assert(not(profconv__u64map_get(&m, 5, &v)));
	cr_assert(eq(int, profconv__u64map_put(&m, 5, 1), 0));
	cr_assert(eq(int, profconv__u64map_put(&m, 5, 0), 0));
	cr_assert(profconv__u64map_get(&m, 5, &v));
	cr_assert(eq(u32, v, 0));
	cr_assert(eq(sz, m.len, 1));
	cr_assert(eq(int, profconv__u64map_put(&m, 6, UINT32_MAX),
	    PROFCONV_EINVAL));
	cr_assert(eq(str, ERRMSG, "map value out of range"));
	cr_assert(not(profconv__u64map_get(&m, 6, &v)));
	cr_assert(eq(int, profconv__u64map_put(&m, 6, UINT32_MAX - 1), 0));
	cr_assert(profconv__u64map_get(&m, 6, &v));
	cr_assert(eq(u32, v, UINT32_MAX - 1));
	profconv__u64map_free(&m);
	cr_assert(eq(sz, m.cap, 0));
}

Test(hash, u64map_keeps_keys_and_values)
{
	stores_zero_and_large_keys();
	u64map_overwrites_and_refuses_the_last_value();
}

/*
 * Byte-string keys: the first value given stays; keys that are
 * prefixes of each other, or differ in one byte past 8 (the hash's
 * word), are different; the empty key is one key; growth past 512
 * keys (the first table's half) loses none.
 */
Test(hash, keymap_interns_byte_strings)
{
	struct pc_keymap m = { 0 };
	char key[32];
	uint32_t v;
	bool ins;

	cr_assert(eq(int, profconv__keymap_intern(&m, "abc", 3, 1, &v, &ins),
	    0));
	cr_assert(ins);
	cr_assert(eq(u32, v, 1));
	cr_assert(eq(int, profconv__keymap_intern(&m, "abc", 3, 2, &v, &ins),
	    0));
	cr_assert(not(ins));
	cr_assert(eq(u32, v, 1));
	cr_assert(eq(int, profconv__keymap_intern(&m, "ab", 2, 3, &v, &ins),
	    0));
	cr_assert(ins);
	cr_assert(eq(int, profconv__keymap_intern(&m, NULL, 0, 4, &v, &ins),
	    0));
	cr_assert(ins);
	cr_assert(eq(int, profconv__keymap_intern(&m, "", 0, 5, &v, &ins), 0));
	cr_assert(not(ins));
	cr_assert(eq(u32, v, 4));
	cr_assert(eq(int, profconv__keymap_intern(&m, "0123456789x", 11, 6,
	    &v, &ins), 0));
	cr_assert(eq(int, profconv__keymap_intern(&m, "0123456789y", 11, 7,
	    &v, &ins), 0));
	cr_assert(ins);
	for (uint32_t i = 0; i < 2000; i++) {
		snprintf(key, sizeof(key), "key %u", i);
		cr_assert(eq(int, profconv__keymap_intern(&m, key, strlen(key),
		    100 + i, &v, &ins), 0));
		cr_assert(ins);
	}
	for (uint32_t i = 0; i < 2000; i++) {
		snprintf(key, sizeof(key), "key %u", i);
		cr_assert(eq(int, profconv__keymap_intern(&m, key, strlen(key),
		    0, &v, &ins), 0));
		cr_assert(not(ins));
		cr_assert(eq(u32, v, 100 + i));
	}
	cr_assert(eq(sz, m.n, 2005));
	profconv__keymap_free(&m);
}

/* The byte hash is a function of the bytes, length and seed: equal
 * inputs agree, and a change in any of them (a byte of the tail, the
 * length of zero padding, the seed) changes it. */
static void
bytes_hash_depends_on_bytes_length_and_seed(void)
{
	static const char a[] = "0123456789abcdef0123", b[] =
	    "0123456789abcdef0124";
	static const char zeros[16] = { 0 };
	uint64_t h = profconv__hash_bytes(a, 20, 1);

	cr_assert(eq(u64, profconv__hash_bytes(a, 20, 1), h));
	cr_assert(ne(u64, profconv__hash_bytes(b, 20, 1), h));
	cr_assert(ne(u64, profconv__hash_bytes(a, 20, 2), h));
	cr_assert(ne(u64, profconv__hash_bytes(zeros, 3, 1),
	    profconv__hash_bytes(zeros, 4, 1)));
	cr_assert(ne(u64, profconv__hash_bytes(zeros, 8, 1),
	    profconv__hash_bytes(zeros, 16, 1)));
	cr_assert(eq(u64, profconv__hash_seed() & 1, 1));
}

/* The mixer is MurmurHash3's fmix64: its fixed point 0, and values
 * computed with the reference algorithm in Python. */
static void
u64_mixer_is_fmix64(void)
{
	cr_assert(eq(u64, profconv__hash_u64(0), 0));
	cr_assert(eq(u64, profconv__hash_u64(1), 0xb456bcfc34c2cb2cULL));
	cr_assert(eq(u64, profconv__hash_u64(0x1234567890abcdefULL),
	    0x0cae996fee6bd396ULL));
}

Test(hash, hash_functions)
{
	bytes_hash_depends_on_bytes_length_and_seed();
	u64_mixer_is_fmix64();
}
