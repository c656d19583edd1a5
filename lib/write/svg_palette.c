/* SPDX-License-Identifier: MIT */
/*
 * svg_palette.c - flame-graph colours: flamegraph.pl's palettes (the same
 * names give the same hues), its language palettes that pick a hue from
 * what a name looks like, its three ways of choosing a shade (by a seed
 * from the name, by its name hash, at random), its backgrounds, and the
 * red/blue scale of differential graphs.  Written from the description in
 * the project's notes; the rules are flamegraph.pl's, the code our own.
 */

#include "config.h"

#include <string.h>

#include "model/model.h"
#include "write/write.h"

enum hue { HOT, MEM, IO, RED, GREEN, BLUE, AQUA, YELLOW, PURPLE, ORANGE };

/* How a palette picks the hue of a frame. */
enum rule { ONE, JAVA, JS, PERL, CHAIN };

struct pc_palette {
	const char *name;
	enum hue hue;		/* ONE: the hue of every frame */
	enum rule rule;
	const char *background;
};

static const struct pc_palette palettes[] = {
	{ "hot", HOT, ONE, "yellow" },
	{ "mem", MEM, ONE, "green" },
	{ "io", IO, ONE, "blue" },
	{ "wakeup", AQUA, ONE, "blue" },
	{ "chain", BLUE, CHAIN, "blue" },
	{ "java", RED, JAVA, "yellow" },
	{ "js", RED, JS, "yellow" },
	{ "perl", RED, PERL, "yellow" },
	{ "red", RED, ONE, "grey" },
	{ "green", GREEN, ONE, "grey" },
	{ "blue", BLUE, ONE, "grey" },
	{ "aqua", AQUA, ONE, "grey" },
	{ "yellow", YELLOW, ONE, "grey" },
	{ "purple", PURPLE, ONE, "grey" },
	{ "orange", ORANGE, ONE, "grey" },
};

static const struct {
	const char *name, *top, *bottom;
} backgrounds[] = {
	{ "yellow", "#eeeeee", "#eeeeb0" },
	{ "blue", "#eeeeee", "#e0e0ff" },
	{ "green", "#eef2ee", "#e0ffe0" },
	{ "grey", "#f8f8f8", "#e8e8e8" },
};

const struct pc_palette *
profconv__palette(const char *name)
{
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(palettes); i++)
		if (strcmp(palettes[i].name, name) == 0)
			return &palettes[i];
	return NULL;
}

const char *
profconv__palette_names(void)
{
	return "hot, mem, io, wakeup, chain, java, js, perl, red, green, "
	    "blue, aqua, yellow, purple, orange";
}

bool
profconv__palette_chain(const struct pc_palette *p)
{
	return p->rule == CHAIN;
}

int
profconv__background(const struct pc_palette *p, const char *name,
    char top[8], char bottom[8])
{
	size_t i;

	if (name == NULL)
		name = p->background;
	for (i = 0; i < PC_ARRAY_LEN(backgrounds); i++) {
		if (strcmp(backgrounds[i].name, name) == 0) {
			memcpy(top, backgrounds[i].top, 8);
			memcpy(bottom, backgrounds[i].bottom, 8);
			return 0;
		}
	}
	/* "#rrggbb": one flat colour. */
	if (name[0] != '#' || strlen(name) != 7 ||
	    strspn(name + 1, "0123456789abcdefABCDEF") != 6)
		return -1;
	memcpy(top, name, 8);
	memcpy(bottom, name, 8);
	return 0;
}

/* --- shades: the three numbers in [0,1) a colour is made of --------------- */

/* The code point at *P (a bad byte counts as itself); advances *P. */
static uint32_t
next_code_point(const unsigned char **pp)
{
	const unsigned char *p = *pp;
	size_t n = *p < 0x80 ? 1 : *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 :
	    *p >= 0xc0 ? 2 : 0;
	uint32_t cp;
	size_t i;

	if (n <= 1 || strnlen((const char *)p, n) < n ||
	    !profconv__utf8_valid((const char *)p, n)) {
		*pp = p + 1;
		return *p;
	}
	cp = *p & (0x7f >> n);
	for (i = 1; i < n; i++)
		cp = cp << 6 | (p[i] & 0x3f);
	*pp = p + n;
	return cp;
}

/* The first number drand48() gives after srand48(SEED), computed here
 * because those keep global state: X = (SEED << 16) + 0x330e, then one
 * step of X = (0x5deece66d X + 0xb) mod 2^48, over 2^48. */
static double
first_drand48(uint32_t seed)
{
	uint64_t x = ((uint64_t)seed << 16) + 0x330e;

	x = (0x5deece66dULL * x + 0xb) & ((1ULL << 48) - 1);
	return (double)x / (double)(1ULL << 48);
}

struct pc_shade
profconv__shade_seeded(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	uint32_t sum = 0;
	double v;

	/* flamegraph.pl's default: the sum of the code points modulo 2^32
	 * seeds Perl's drand48, and each of the three is its first draw. */
	while (*p != '\0')
		sum += next_code_point(&p);
	v = first_drand48(sum);
	return (struct pc_shade){ v, v, v };
}

/* flamegraph.pl's name hash of the (at most) three code points C: the
 * k-th, modulo 10 + k and over 9 + k, weighs 0.7^k; one minus their sum
 * over one plus the weights used. */
static double
hash_three(const uint32_t *c, size_t n)
{
	double vector = 0, max = 1, weight = 1;
	size_t k;

	for (k = 0; k < n; k++) {
		vector += (double)(c[k] % (10 + k)) / (double)(9 + k) * weight;
		max += weight;
		weight *= 0.70;
	}
	return 1 - vector / max;
}

/* The hash looks at a name's first three code points, after removing a
 * module prefix: everything up to the first back-quote that is not the
 * first character ("libc.so`malloc" -> "malloc").  For the name read
 * backwards that is the last back-quote that is not the last character.
 * One pass keeps both candidates of each. */
struct pc_shade
profconv__shade_hash(const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	uint32_t head[3], after[3], tail[3], before[3], before_prev[3];
	size_t nhead = 0, nafter = 0, ntail = 0, nbefore = 0, nprev = 0;
	size_t i = 0, k;
	bool cut = false, quote = false, prev_quote = false, last_quote = false;
	double v1, v2;

	while (*p != '\0') {
		uint32_t c = next_code_point(&p);

		if (cut && nafter < 3)
			after[nafter++] = c;
		if (nhead < 3)
			head[nhead++] = c;
		last_quote = c == '`';
		if (last_quote && i > 0)
			cut = true;
		if (last_quote) {
			/* The three before this quote, nearest first. */
			memcpy(before_prev, before, sizeof(before));
			nprev = nbefore;
			prev_quote = quote;
			for (k = 0; k < ntail; k++)
				before[k] = tail[ntail - 1 - k];
			nbefore = ntail;
			quote = true;
		}
		/* The last three code points, oldest first. */
		if (ntail == 3)
			memmove(tail, tail + 1, 2 * sizeof(*tail));
		tail[ntail < 3 ? ntail++ : 2] = c;
		i++;
	}
	v1 = cut ? hash_three(after, nafter) : hash_three(head, nhead);
	/* Backwards: a quote that ends the name is the reversed name's first
	 * character, which cannot cut; the one before it then does. */
	if (last_quote && quote) {
		quote = prev_quote;
		memcpy(before, before_prev, sizeof(before));
		nbefore = nprev;
	}
	if (quote) {
		v2 = hash_three(before, nbefore);
	} else {
		uint32_t rev[3];

		for (k = 0; k < ntail; k++)
			rev[k] = tail[ntail - 1 - k];
		v2 = hash_three(rev, ntail);
	}
	return (struct pc_shade){ v1, v2, v2 };
}

/* splitmix64: a small generator with a 64-bit state, good enough for
 * colours and the same on every machine for one seed. */
static double
next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) / (double)(1ULL << 53);
}

struct pc_shade
profconv__shade_random(uint64_t *state)
{
	struct pc_shade s;

	s.v1 = next_random(state);
	s.v2 = next_random(state);
	s.v3 = next_random(state);
	return s;
}

/* --- hues by what a name looks like ---------------------------------------- */

static bool
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

static bool
has(const char *s, const char *needle)
{
	return strstr(s, needle) != NULL;
}

/* "java/...", "Lorg/..." and the like: a JVM class name. */
static bool
java_package(const char *name)
{
	static const char *const packages[] = { "java/", "javax/", "jdk/",
	    "net/", "org/", "com/", "io/", "sun/" };
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(packages); i++)
		if (strncmp(name, packages[i], strlen(packages[i])) == 0 ||
		    (name[0] == 'L' && strncmp(name + 1, packages[i],
		    strlen(packages[i])) == 0))
			return true;
	return false;
}

/* Annotations (_[j] JIT, _[i] inlined, _[k] kernel) first, then the
 * shape of the name: JVM classes green, C++ "::" yellow, the rest red. */
static enum hue
java_hue(const char *n)
{
	if (ends_with(n, "_[j]"))
		return GREEN;
	if (ends_with(n, "_[i]"))
		return AQUA;
	if (java_package(n) || has(n, ":::"))
		return GREEN;
	if (has(n, "::"))
		return YELLOW;
	if (ends_with(n, "_[k]"))
		return ORANGE;
	return RED;
}

static enum hue
perl_hue(const char *n)
{
	if (has(n, "::"))
		return YELLOW;
	if (has(n, "Perl") || has(n, ".pl"))
		return GREEN;
	if (ends_with(n, "_[k]"))
		return ORANGE;
	return RED;
}

/* A JIT frame is green with a path (script code), aqua without (a
 * builtin); "::" is C++; a path to a .js file green; other names with a
 * ':' aqua; a name that is one space (no symbol) green; kernel orange. */
static enum hue
js_hue(const char *n)
{
	const char *slash = strchr(n, '/');

	if (ends_with(n, "_[j]"))
		return slash != NULL ? GREEN : AQUA;
	if (has(n, "::"))
		return YELLOW;
	if (slash != NULL && has(slash + 1, ".js"))
		return GREEN;
	if (strchr(n, ':') != NULL)
		return AQUA;
	if (strcmp(n, " ") == 0)
		return GREEN;
	if (has(n, "_[k]"))
		return ORANGE;
	return RED;
}

static enum hue
hue_of(const struct pc_palette *p, const char *name, bool waker)
{
	switch (p->rule) {
	case JAVA: return java_hue(name);
	case JS: return js_hue(name);
	case PERL: return perl_hue(name);
	case CHAIN: return waker || has(name, "_[w]") ? AQUA : BLUE;
	case ONE: break;
	}
	return p->hue;
}

struct pc_rgb
profconv__palette_color(const struct pc_palette *p, const char *name,
    bool waker, struct pc_shade s)
{
	double v = s.v1;
	int a = (int)(50 * v), b = (int)(55 * v), c = (int)(60 * v);

	/* Separators between the stacks of a chain: greys. */
	if (strcmp(name, "--") == 0)
		return (struct pc_rgb){ 160, 160, 160 };
	if (strcmp(name, "-") == 0)
		return (struct pc_rgb){ 200, 200, 200 };
	switch (hue_of(p, name, waker)) {
	case HOT:
		return (struct pc_rgb){ 205 + (int)(50 * s.v3),
		    (int)(230 * v), (int)(55 * s.v2) };
	case MEM:
		return (struct pc_rgb){ 0, 190 + (int)(50 * s.v2),
		    (int)(210 * v) };
	case IO:
		return (struct pc_rgb){ 80 + c, 80 + c, 190 + (int)(55 * s.v2) };
	case RED:
		return (struct pc_rgb){ 200 + b, 50 + (int)(80 * v),
		    50 + (int)(80 * v) };
	case GREEN:
		return (struct pc_rgb){ 50 + c, 200 + b, 50 + c };
	case BLUE:
		return (struct pc_rgb){ 80 + c, 80 + c, 205 + a };
	case AQUA:
		return (struct pc_rgb){ 50 + c, 165 + b, 165 + b };
	case YELLOW:
		return (struct pc_rgb){ 175 + b, 175 + b, 50 + (int)(20 * v) };
	case PURPLE:
		return (struct pc_rgb){ 190 + (int)(65 * v), 80 + c,
		    190 + (int)(65 * v) };
	case ORANGE:
		return (struct pc_rgb){ 190 + (int)(65 * v),
		    90 + (int)(65 * v), 0 };
	}
	return (struct pc_rgb){ 0, 0, 0 };
}

struct pc_rgb
profconv__diff_color(int64_t delta, int64_t maxdelta)
{
	double max = (double)maxdelta, d = (double)delta;
	int c;

	if (delta > 0) {
		c = (int)(210 * (max - d) / max);
		return (struct pc_rgb){ 255, c, c };
	}
	if (delta < 0) {
		c = (int)(210 * (max + d) / max);
		return (struct pc_rgb){ c, c, 255 };
	}
	return (struct pc_rgb){ 255, 255, 255 };
}
