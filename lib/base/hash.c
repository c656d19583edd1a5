/* SPDX-License-Identifier: MIT */
/* hash.c - byte hashing and the 64-bit key map used for deduplication. */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>

#include "base/base.h"

static uint64_t seed_value;

/*
 * Chosen when the library is loaded, before any thread of the program can
 * hash: a seed read by many threads and written by none is no race (and
 * needs no pthread_once, which helgrind cannot see through).
 */
__attribute__((constructor)) static void
choose_seed(void)
{
	struct timespec ts;
	uint64_t s = 0;

	if (getrandom(&s, sizeof(s), GRND_NONBLOCK) != (ssize_t)sizeof(s)) {
		/* No entropy yet (early boot): time, pid and ASLR. */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		s = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^
		    ((uint64_t)getpid() << 16) ^ (uint64_t)(uintptr_t)&s;
	}
	seed_value = profconv__hash_u64(s) | 1;
}

uint64_t
profconv__hash_seed(void)
{
	return seed_value;
}

/* A key's slot hash: the mixer keyed with the process seed. */
static inline uint64_t
hash_key(uint64_t key)
{
	return profconv__hash_u64(key ^ profconv__hash_seed());
}

uint64_t
profconv__hash_bytes(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t h = seed ^ profconv__hash_seed() ^
	    (len * 0x9e3779b97f4a7c15ULL);
	uint64_t w;

	/* Eight bytes at a time through the u64 mixer; the tail padded. */
	while (len >= 8) {
		memcpy(&w, p, 8);
		h = profconv__hash_u64(h ^ w) + 0x9e3779b97f4a7c15ULL;
		p += 8;
		len -= 8;
	}
	w = 0;
	if (len != 0)
		memcpy(&w, p, len);
	return profconv__hash_u64(h ^ w ^ ((uint64_t)len << 56));
}

void
profconv__u64map_free(struct pc_u64map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

static size_t
slot_of(const struct pc_u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1;
	size_t i = hash_key(key) & mask;

	while (m->vals[i] != 0 && m->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

bool
profconv__u64map_get(const struct pc_u64map *m, uint64_t key, uint32_t *val)
{
	size_t i;

	if (key == 0) {
		if (m->has_zero)
			*val = m->zero_val;
		return m->has_zero;
	}
	if (m->cap == 0)
		return false;
	i = slot_of(m, key);
	if (m->vals[i] == 0)
		return false;
	*val = m->vals[i] - 1;
	return true;
}

static int
rehash(struct pc_u64map *m, size_t newcap)
{
	struct pc_u64map n = { 0 };
	size_t i, j;

	n.keys = malloc(newcap * sizeof(*n.keys));
	n.vals = calloc(newcap, sizeof(*n.vals));
	if (n.keys == NULL || n.vals == NULL) {
		free(n.keys);
		free(n.vals);
		return profconv__nomem();
	}
	n.cap = newcap;
	for (i = 0; i < m->cap; i++) {
		if (m->vals[i] == 0)
			continue;
		j = slot_of(&n, m->keys[i]);
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = n.keys;
	m->vals = n.vals;
	m->cap = newcap;
	return 0;
}

int
profconv__u64map_put(struct pc_u64map *m, uint64_t key, uint32_t val)
{
	size_t i;
	int rc;

	if (val == UINT32_MAX)
		return profconv__fail(PROFCONV_EINVAL, "map value out of range");
	if (key == 0) {
		m->has_zero = true;
		m->zero_val = val;
		return 0;
	}
	/* Keep the load under 1/2 so probes stay short. */
	if ((m->len + 1) * 2 > m->cap) {
		rc = rehash(m, m->cap != 0 ? m->cap * 2 : 64);
		if (rc < 0)
			return rc;
	}
	i = slot_of(m, key);
	if (m->vals[i] == 0)
		m->len++;
	m->keys[i] = key;
	m->vals[i] = val + 1;
	return 0;
}

/* --- byte-string keys -------------------------------------------------------- */

void
profconv__keymap_free(struct pc_keymap *m)
{
	free(m->slots);
	free(m->entries);
	free(m->blob);
	memset(m, 0, sizeof(*m));
}

static size_t
key_slot(const struct pc_keymap *m, const void *key, size_t len, uint64_t h)
{
	size_t mask = m->nslots - 1, i = h & mask;
	uint32_t e;

	for (;; i = (i + 1) & mask) {
		e = m->slots[i];
		if (e == 0)
			return i;
		e--;
		if (m->entries[e].hash == h && m->entries[e].len == len &&
		    (len == 0 ||
		    memcmp(m->blob + m->entries[e].off, key, len) == 0))
			return i;
	}
}

static int
key_rehash(struct pc_keymap *m, size_t nslots)
{
	uint32_t *slots = calloc(nslots, sizeof(*slots));
	size_t i, j, mask = nslots - 1;

	if (slots == NULL)
		return profconv__nomem();
	for (i = 0; i < m->n; i++) {
		for (j = m->entries[i].hash & mask; slots[j] != 0;
		    j = (j + 1) & mask)
			;
		slots[j] = (uint32_t)i + 1;
	}
	free(m->slots);
	m->slots = slots;
	m->nslots = nslots;
	return 0;
}

int
profconv__keymap_intern(struct pc_keymap *m, const void *key, size_t len,
    uint32_t value, uint32_t *value_out, bool *inserted)
{
	uint64_t h = profconv__hash_bytes(key, len, 0x5eed);
	struct pc_keyentry *e;
	size_t slot;
	int rc;

	if ((m->n + 1) * 2 > m->nslots) {
		rc = key_rehash(m, m->nslots != 0 ? m->nslots * 2 : 1024);
		if (rc < 0)
			return rc;
	}
	slot = key_slot(m, key, len, h);
	if (m->slots[slot] != 0) {
		*value_out = m->entries[m->slots[slot] - 1].value;
		*inserted = false;
		return 0;
	}
	if (m->n >= UINT32_MAX - 1)
		return profconv__fail(PROFCONV_ENOMEM, "too many keys");
	rc = PC_GROW(m->entries, m->entries_cap, m->n, 1);
	if (rc == 0)
		rc = PC_GROW(m->blob, m->blob_cap, m->blob_len, len);
	if (rc < 0)
		return rc;
	/* An empty key (a sample without a stack) may come as NULL. */
	if (len != 0)
		memcpy(m->blob + m->blob_len, key, len);
	e = &m->entries[m->n];
	e->off = m->blob_len;
	e->len = len;
	e->hash = h;
	e->value = value;
	m->blob_len += len;
	m->slots[slot] = (uint32_t)++m->n;
	*value_out = value;
	*inserted = true;
	return 0;
}
