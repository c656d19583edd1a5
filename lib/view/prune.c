/* SPDX-License-Identifier: MIT */
/*
 * prune.c - drop_frames and keep_frames as pprof applies them: allocator
 * and profiler frames are cut off the leaf end of stacks, but never before
 * the first frame of the program itself.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "view/view.h"

enum { LOC_UNKNOWN = 0, LOC_USER, LOC_PRUNE, LOC_PRUNE_BENEATH };

/* --- the cost bound of a regex (PC_RX_* in bounds.h) ----------------- */

/* A group being scanned: its expanded size, its largest repeat product,
 * and its last atom, to which a repetition applies. */
struct rx_group {
	uint64_t size, prod;
	uint64_t atom_size, atom_prod;
	bool has_atom;
};

static void
rx_close_atom(struct rx_group *g)
{
	if (!g->has_atom)
		return;
	g->size += g->atom_size;
	if (g->atom_prod > g->prod)
		g->prod = g->atom_prod;
	g->has_atom = false;
}

static void
rx_atom(struct rx_group *g, uint64_t size, uint64_t prod)
{
	rx_close_atom(g);
	g->atom_size = size;
	g->atom_prod = prod;
	g->has_atom = true;
}

/* After '[': past the closing ']', or NULL when there is none. */
static const char *
rx_skip_bracket(const char *p)
{
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p != '\0' && *p != ']') {
		if (p[0] == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
			char c = p[1];

			for (p += 2; *p != '\0' && !(p[0] == c && p[1] == ']');)
				p++;
			if (*p == '\0')
				return NULL;
			p += 2;
		} else {
			p++;
		}
	}
	return *p == ']' ? p + 1 : NULL;
}

static unsigned long
rx_number(const char *p, const char **end)
{
	unsigned long v = 0;

	for (; *p >= '0' && *p <= '9'; p++)
		if (v < 1000000)
			v = v * 10 + (unsigned long)(*p - '0');
	*end = p;
	return v;
}

/* "{m}", "{m,}", "{,n}" or "{m,n}" at P: how many copies regcomp makes. */
static bool
rx_interval(const char *p, uint64_t *count, const char **end)
{
	const char *q;
	unsigned long m, n;

	m = rx_number(p + 1, &q);
	if (q == p + 1 && *q != ',')
		return false;
	if (*q == '}') {
		n = m;
	} else if (*q == ',') {
		const char *r;

		n = rx_number(q + 1, &r);
		if (r == q + 1)
			n = m + 1;	/* "{m,}": m copies and a star */
		q = r;
	} else {
		return false;
	}
	if (*q != '}')
		return false;
	*count = n > m ? n : m;
	if (*count == 0)
		*count = 1;
	*end = q + 1;
	return true;
}

int
profconv__rx_check(const char *rx, char *why, size_t whylen)
{
	struct rx_group st[PC_RX_MAX_DEPTH + 1];
	int depth = 0;
	const char *p = rx, *end;
	uint64_t count;

	memset(&st[0], 0, sizeof(st[0]));
	while (*p != '\0') {
		struct rx_group *g = &st[depth];

		if (*p == '(') {
			if (depth == PC_RX_MAX_DEPTH) {
				snprintf(why, whylen, "groups nest more than "
				    "%d deep", PC_RX_MAX_DEPTH);
				return -1;
			}
			rx_close_atom(g);
			memset(&st[++depth], 0, sizeof(st[0]));
			p++;
		} else if (*p == ')' && depth > 0) {
			rx_close_atom(g);
			depth--;
			rx_atom(&st[depth], g->size, g->prod);
			p++;
		} else if (*p == '|') {
			rx_close_atom(g);
			p++;
		} else if (*p == '{' && g->has_atom &&
		    rx_interval(p, &count, &end)) {
			g->atom_size *= count;
			g->atom_prod = (g->atom_prod > 0 ? g->atom_prod : 1) *
			    count;
			if (g->atom_prod > PC_RX_MAX_REPEAT) {
				snprintf(why, whylen, "counted repetitions "
				    "multiply to more than %d",
				    PC_RX_MAX_REPEAT);
				return -1;
			}
			p = end;
		} else if (*p == '*' || *p == '+' || *p == '?') {
			p++;
		} else if (*p == '[') {
			end = rx_skip_bracket(p + 1);
			if (end == NULL)
				return 0;	/* regcomp refuses it */
			rx_atom(g, 1, 0);
			p = end;
		} else if (*p == '\\' && p[1] >= '1' && p[1] <= '9') {
			snprintf(why, whylen, "back-reference '\\%c'", p[1]);
			return -1;
		} else {
			rx_atom(g, 1, 0);
			p += *p == '\\' && p[1] != '\0' ? 2 : 1;
		}
		if (g->atom_size + g->size > PC_RX_MAX_SIZE) {
			snprintf(why, whylen, "more than %d atoms with its "
			    "counted repetitions expanded", PC_RX_MAX_SIZE);
			return -1;
		}
	}
	return 0;
}

/* Compile "^(RX)$"; an expression POSIX cannot read disables the filter. */
static int
compile(regex_t *re, const char *rx, bool *ok)
{
	size_t n = strlen(rx) + 8;
	char *full;

	*ok = false;
	if (*rx == '\0')
		return 0;
	full = malloc(n);
	if (full == NULL)
		return profconv__nomem();
	snprintf(full, n, "^(%s)$", rx);
	*ok = regcomp(re, full, REG_EXTENDED | REG_NOSUB) == 0;
	free(full);
	return 0;
}

/*
 * The profile's drop_frames and keep_frames, or, when either is beyond
 * the cost bound, the defaults for its sample types (p->refused says why).
 */
static void
choose_frames(struct pc_pruner *p, const char **drop, const char **keep)
{
	const struct profconv_profile *prof = p->prof;
	char why[96];

	*drop = profconv__pstr(prof, prof->drop_frames);
	*keep = profconv__pstr(prof, prof->keep_frames);
	if (profconv__rx_check(*drop, why, sizeof(why)) == 0 &&
	    profconv__rx_check(*keep, why, sizeof(why)) == 0)
		return;
	snprintf(p->refused, sizeof(p->refused), "drop_frames or "
	    "keep_frames refused (%s); default allocator frames used", why);
	profconv__default_frames(prof, drop, keep);
	if (*keep == NULL)
		*keep = "";
}

int
profconv__pruner_init(struct pc_pruner *p, const struct profconv_profile *prof,
    bool enabled, bool wrappers)
{
	const char *drop, *keep;
	char *own, *with = NULL;
	int rc;

	memset(p, 0, sizeof(p[0]));
	p->prof = prof;
	if (!enabled)
		return 0;
	choose_frames(p, &drop, &keep);
	/* The wrappers the pprof writer adds go when they are not wanted. */
	own = profconv__drop_with(drop, profconv__wrappers_rx, false);
	if (own == NULL)
		return profconv__nomem();
	rc = compile(&p->drop, own, &p->has_drop);
	/* An allocation profile drops malloc; a CPU profile does not. */
	p->alloc_profile = (p->has_drop &&
	    regexec(&p->drop, "malloc", 0, NULL, 0) == 0) ||
	    profconv__counts_allocations(prof);
	if (rc == 0 && wrappers && p->alloc_profile) {
		with = profconv__drop_with(own, profconv__wrappers_rx, true);
		if (p->has_drop)
			regfree(&p->drop);
		rc = with == NULL ? profconv__nomem() :
		    compile(&p->drop, with, &p->has_drop);
	}
	free(own);
	free(with);
	if (rc == 0 && p->has_drop)
		rc = compile(&p->keep, keep, &p->has_keep);
	p->active = p->has_drop || p->alloc_profile;
	if (rc == 0 && p->active) {
		p->state = calloc(prof->nlocations + 1, 1);
		p->skip = calloc(prof->nlocations + 1, sizeof(*p->skip));
		if (p->state == NULL || p->skip == NULL)
			rc = profconv__nomem();
	}
	if (rc < 0)
		profconv__pruner_free(p);
	return rc;
}

void
profconv__pruner_free(struct pc_pruner *p)
{
	if (p->has_drop)
		regfree(&p->drop);
	if (p->has_keep)
		regfree(&p->keep);
	free(p->state);
	free(p->skip);
	free(p->cut_fn);
	memset(p, 0, sizeof(p[0]));
}

/* pprof's simplifyFunc: no leading '.', no argument list. */
static bool
matches(const regex_t *re, const char *name)
{
	char buf[1024];
	const char *p = name[0] == '.' ? name + 1 : name, *q = p;
	size_t n;

	for (;;) {
		q = strchr(q, '(');
		if (q == NULL) {
			n = strlen(p);
			break;
		}
		if (strncmp(q, "(anonymous namespace)", 21) == 0) {
			q += 21;
			continue;
		}
		if (strncmp(q, "()", 2) == 0 && q - p >= 8 &&
		    strncmp(q - 8, "operator", 8) == 0) {
			q += 2;
			continue;
		}
		n = (size_t)(q - p);
		break;
	}
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return regexec(re, buf, 0, NULL, 0) == 0;
}

/* Classify location ID once: scan its lines from the outermost. */
static unsigned
classify(struct pc_pruner *p, uint32_t id)
{
	const struct profconv_profile *prof = p->prof;
	const struct pc_location *l = pc_location(prof, id);
	const struct pc_line *ln = pc_location_lines(prof, l);
	size_t i;

	if (p->state[id] != LOC_UNKNOWN)
		return p->state[id];
	p->state[id] = LOC_USER;
	if (l->nlines == 0 && p->alloc_profile && l->mapping != 0 &&
	    profconv__allocator_library(profconv__pstr(prof,
	    pc_mapping(prof, l->mapping)->file))) {
		/* No symbols, but inside the allocator itself (Debian's
		 * libjemalloc is stripped): an allocator frame all the same. */
		p->state[id] = LOC_PRUNE;
		return p->state[id];
	}
	for (i = p->has_drop || p->cut_fn != NULL ? l->nlines : 0; i > 0;
	    i--) {
		const struct pc_function *f = pc_function(prof,
		    ln[i - 1].function);
		const char *name = profconv__pstr(prof, f->name);

		if (*name == '\0')
			continue;
		if (!(p->cut_fn != NULL && p->cut_fn[ln[i - 1].function]) &&
		    !(p->has_drop && matches(&p->drop, name)))
			continue;
		if (p->has_keep && matches(&p->keep, name))
			continue;
		if (i == l->nlines) {
			p->state[id] = LOC_PRUNE;
		} else {
			/* Keep only the callers outside the match. */
			p->state[id] = LOC_PRUNE_BENEATH;
			p->skip[id] = (uint32_t)i;
		}
		break;
	}
	return p->state[id];
}

size_t
profconv__prune_stack(struct pc_pruner *p, struct pc_stack stack, size_t n)
{
	bool user = false;
	size_t i;
	unsigned st;

	if (!p->active)
		return 0;
	for (i = n; i > 0; i--) {
		uint32_t id = pc_stack_at(stack, i - 1);

		st = p->state[id];
		if (st == LOC_UNKNOWN)
			st = classify(p, id);
		if (st == LOC_USER) {
			user = true;
			continue;
		}
		if (!user)
			continue;
		return st == LOC_PRUNE ? i : i - 1;
	}
	return 0;
}

uint32_t
profconv__prune_skip(struct pc_pruner *p, uint32_t id)
{
	if (!p->active)
		return 0;
	classify(p, id);
	return p->skip[id];
}
