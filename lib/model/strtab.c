/* SPDX-License-Identifier: MIT */
/* strtab.c - the interned string table; index 0 is the empty string. */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/model.h"

#define CHUNK_SIZE ((size_t)1 << 20)

static int
chunk_alloc(struct pc_strtab *t, size_t need)
{
	size_t size = need > CHUNK_SIZE ? need : CHUNK_SIZE;
	char *c;
	int rc;

	rc = PC_GROW(t->chunks, t->chunks_cap, t->nchunks, 1);
	if (rc < 0)
		return rc;
	c = malloc(size);
	if (c == NULL)
		return profconv__nomem();
	t->chunks[t->nchunks++] = c;
	t->chunk = c;
	t->chunk_left = size;
	return 0;
}

/*
 * Copy S into chunk storage, NUL-terminated, after its length in 4 bytes:
 * profconv_string_len() finds the full length of a string that holds a
 * NUL from the pointer alone.
 */
static int
store(struct pc_strtab *t, const char *s, size_t len, const char **out)
{
	uint32_t n = (uint32_t)len;
	size_t need = sizeof(n) + len + 1;
	char *p;
	int rc;

	if (need > t->chunk_left) {
		rc = chunk_alloc(t, need);
		if (rc < 0)
			return rc;
	}
	p = t->chunk;
	memcpy(p, &n, sizeof(n));
	p += sizeof(n);
	memcpy(p, s, len);
	p[len] = '\0';
	t->chunk += need;
	t->chunk_left -= need;
	*out = p;
	return 0;
}

size_t
profconv_string_len(const char *s)
{
	uint32_t n;

	if (s == NULL)
		return 0;
	memcpy(&n, s - sizeof(n), sizeof(n));
	return n;
}

/* Length of the well-formed UTF-8 sequence at S (before END), 0 if none. */
static int
utf8_seq(const unsigned char *s, const unsigned char *end)
{
	uint32_t c;
	int n, i;

	if (*s < 0x80)
		return 1;
	if (*s >= 0xc2 && *s <= 0xdf) {
		n = 1;
		c = *s & 0x1f;
	} else if (*s >= 0xe0 && *s <= 0xef) {
		n = 2;
		c = *s & 0x0f;
	} else if (*s >= 0xf0 && *s <= 0xf4) {
		n = 3;
		c = *s & 0x07;
	} else {
		return 0;
	}
	if (end - s <= n)
		return 0;
	for (i = 1; i <= n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates, beyond U+10FFFF. */
	if ((n == 2 && c < 0x800) || (n == 3 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	return n + 1;
}

bool
profconv__utf8_valid(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text, *end = s + len;
	int n;

	while (s < end) {
		n = utf8_seq(s, end);
		if (n == 0)
			return false;
		s += n;
	}
	return true;
}

/*
 * TEXT with each byte that starts no well-formed sequence replaced by
 * U+FFFD (EF BF BD), as a malloc'd copy of *LEN_OUT bytes.  One byte per
 * replacement keeps the count of bad bytes visible, and the rest of the
 * string, NULs included, stays as it was.
 */
static char *
utf8_repair(const char *text, size_t len, size_t *len_out)
{
	const unsigned char *s = (const unsigned char *)text, *end = s + len;
	char *out, *o;
	int n;

	if (len > (SIZE_MAX - 1) / 3)
		return NULL;
	out = malloc(len * 3 + 1);
	if (out == NULL)
		return NULL;
	for (o = out; s < end; s += n) {
		n = utf8_seq(s, end);
		if (n == 0) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			n = 1;
			continue;
		}
		memcpy(o, s, (size_t)n);
		o += n;
	}
	*len_out = (size_t)(o - out);
	return out;
}

static size_t
probe(const struct pc_strtab *t, const char *s, size_t len, uint64_t h)
{
	size_t mask = t->nslots - 1;
	size_t i = h & mask;
	uint32_t v;

	for (;;) {
		v = t->slots[i];
		if (v == 0)
			return i;
		if (t->lens[v - 1] == len && memcmp(t->strs[v - 1], s, len) == 0)
			return i;
		i = (i + 1) & mask;
	}
}

static int
resize_slots(struct pc_strtab *t, size_t nslots)
{
	uint32_t *slots, *old = t->slots;
	size_t i;

	slots = calloc(nslots, sizeof(*slots));
	if (slots == NULL)
		return profconv__nomem();
	t->slots = slots;
	t->nslots = nslots;
	for (i = 0; i < t->len; i++) {
		uint64_t h = profconv__hash_bytes(t->strs[i], t->lens[i], 0);

		t->slots[probe(t, t->strs[i], t->lens[i], h)] = (uint32_t)i + 1;
	}
	free(old);
	return 0;
}

int
profconv__strtab_init(struct pc_strtab *t)
{
	uint32_t idx;

	memset(t, 0, sizeof(*t));
	return profconv__strtab_intern(t, "", 0, &idx);
}

void
profconv__strtab_free(struct pc_strtab *t)
{
	size_t i;

	for (i = 0; i < t->nchunks; i++)
		free(t->chunks[i]);
	free(t->chunks);
	free(t->strs);
	free(t->lens);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

bool
profconv__strtab_find(const struct pc_strtab *t, const char *s, size_t len,
    uint32_t *idx)
{
	uint32_t v;

	if (t->nslots == 0)
		return false;
	v = t->slots[probe(t, s, len, profconv__hash_bytes(s, len, 0))];
	if (v == 0)
		return false;
	*idx = v - 1;
	return true;
}

static int intern_repaired(struct pc_strtab *t, const char *s, size_t len,
    uint32_t *idx);

int
profconv__strtab_intern(struct pc_strtab *t, const char *s, size_t len,
    uint32_t *idx)
{
	uint64_t h = profconv__hash_bytes(s, len, 0);
	size_t slot;
	int rc;

	if (len > UINT32_MAX - 1 || t->len >= UINT32_MAX - 1)
		return profconv__fail(PROFCONV_ENOMEM, "string table is full");
	/* The model holds UTF-8 only (pprof's readers expect it): what is
	 * not is repaired, and counted. */
	if (!profconv__utf8_valid(s, len))
		return intern_repaired(t, s, len, idx);
	if ((t->len + 1) * 2 > t->nslots) {
		rc = resize_slots(t, t->nslots != 0 ? t->nslots * 2 : 256);
		if (rc < 0)
			return rc;
	}
	slot = probe(t, s, len, h);
	if (t->slots[slot] != 0) {
		*idx = t->slots[slot] - 1;
		return 0;
	}
	rc = PC_GROW(t->strs, t->cap, t->len, 1);
	if (rc < 0)
		return rc;
	rc = PC_GROW(t->lens, t->lens_cap, t->len, 1);
	if (rc < 0)
		return rc;
	rc = store(t, s, len, &t->strs[t->len]);
	if (rc < 0)
		return rc;
	t->lens[t->len] = (uint32_t)len;
	t->slots[slot] = (uint32_t)t->len + 1;
	*idx = (uint32_t)t->len++;
	return 0;
}

/* Intern the repair of S; count it when it is new to the table. */
static int
intern_repaired(struct pc_strtab *t, const char *s, size_t len,
    uint32_t *idx)
{
	size_t n, before = t->len;
	char *fixed;
	int rc;

	fixed = utf8_repair(s, len, &n);
	if (fixed == NULL)
		return profconv__nomem();
	rc = profconv__strtab_intern(t, fixed, n, idx);
	free(fixed);
	if (rc == 0 && t->len > before)
		t->repaired++;
	return rc;
}

int
profconv__strtab_intern_cstr(struct pc_strtab *t, const char *s,
    uint32_t *idx)
{
	if (s == NULL) {
		*idx = 0;
		return 0;
	}
	return profconv__strtab_intern(t, s, strlen(s), idx);
}
