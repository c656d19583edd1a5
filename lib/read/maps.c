/* SPDX-License-Identifier: MIT */
/*
 * maps.c - the memory-map parser of every legacy format: procfs lines,
 * pprof's brief lines, glog prefixes and $variable substitution.
 *
 * pprof matches each line against two unanchored regular expressions,
 * procMapsRE and then briefMapsRE (pprof-reference.md section 2.6).  This
 * is a hand-written matcher with the same leftmost-first results, so odd
 * lines are read the way go tool pprof reads them.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "read/lex.h"
#include "read/maps.h"

static const char *
skip_trim_space(const char *p, const char *end)
{
	while (p < end && pc_is_ws((unsigned char)*p))
		p++;
	return p;
}

static bool
is_perm(int c)
{
	return c == '-' || c == 'r' || c == 'w' || c == 'x' || c == 'p';
}

static const char *
skip_ws(const char *p, const char *end)
{
	while (p < end && pc_is_re_space((unsigned char)*p))
		p++;
	return p;
}

static const char *
skip_hex(const char *p, const char *end)
{
	while (p < end && pc_is_hex(*p))
		p++;
	return p;
}

/* Parse hex text [P, Q) into *OUT; false when it overflows 64 bits. */
static bool
hex_value(const char *p, const char *q, uint64_t *out)
{
	uint64_t v = 0;
	int d;

	for (; p < q; p++) {
		d = pc_hex_value(*p);
		if (v > (UINT64_MAX >> 4))
			return false;
		v = v << 4 | (uint64_t)d;
	}
	*out = v;
	return true;
}

/* "start-end" with its optional 0x prefixes and separator. */
struct range_text {
	const char *s0, *s1, *e0, *e1;	/* start and end hex text */
	const char *rest;		/* after end and an optional ':' */
};

static bool
match_range(const char *p, const char *end, struct range_text *r)
{
	const char *q;

	p = skip_ws(p, end);
	if (end - p >= 3 && p[0] == '0' && p[1] == 'x' &&
	    pc_is_hex(p[2]))
		p += 2;
	r->s0 = p;
	r->s1 = skip_hex(p, end);
	if (r->s1 == p)
		return false;
	q = r->s1;
	if (q < end && (pc_is_re_space((unsigned char)*q) || *q == '-'))
		q++;
	q = skip_ws(q, end);
	if (end - q >= 3 && q[0] == '0' && q[1] == 'x' &&
	    pc_is_hex(q[2]))
		q += 2;
	r->e0 = q;
	r->e1 = skip_hex(q, end);
	if (r->e1 == q && r->s1 - r->s0 >= 2 && r->s1[-1] == '0' &&
	    end - r->s1 >= 2 && r->s1[0] == 'x' &&
	    pc_is_hex(r->s1[1])) {
		/* "...60x10": the regex gives the start's last 0 to "0x". */
		r->s1--;
		r->e0 = r->s1 + 2;
		r->e1 = skip_hex(r->e0, end);
	} else if (r->e1 == q) {
		/* No end number: the regex backtracks into the start. */
		if (r->s1 - r->s0 < 2)
			return false;
		r->e1 = r->s1;
		r->s1--;
		r->e0 = r->s1;
	}
	r->rest = r->e1;
	if (r->rest < end && *r->rest == ':')
		r->rest++;
	return true;
}

/* A whitespace-led token at P: [*T0, *T1); false when none. */
static bool
next_token(const char *p, const char *end, const char **t0, const char **t1)
{
	const char *q = skip_ws(p, end);

	if (q == p || q == end)
		return false;
	*t0 = q;
	while (q < end && !pc_is_re_space((unsigned char)*q))
		q++;
	*t1 = q;
	return true;
}

static bool
all_of(const char *p, const char *q, bool (*pred)(int))
{
	if (p == q)
		return false;
	for (; p < q; p++)
		if (!pred((unsigned char)*p))
			return false;
	return true;
}

/* Fields of one entry as text spans; NULL spans are absent. */
struct entry_text {
	const char *perm0, *perm1, *off0, *off1, *file0, *file1, *bid0, *bid1;
	bool deleted;
};

/* Is what follows the file token, P to END, the kernel's " (deleted)"? */
static bool
is_deleted_mark(const char *p, const char *end)
{
	static const char mark[] = "(deleted)";

	p = skip_ws(p, end);
	if ((size_t)(end - p) < sizeof(mark) - 1 ||
	    memcmp(p, mark, sizeof(mark) - 1) != 0)
		return false;
	return skip_ws(p + sizeof(mark) - 1, end) == end;
}

/* procMapsRE: [perms] [offset] dev(hex:hex) inode(digits...) [file]. */
static bool
match_proc(const char *p, const char *end, struct entry_text *e)
{
	const char *t0, *t1, *colon;

	memset(e, 0, sizeof(*e));
	if (!next_token(p, end, &t0, &t1))
		return false;
	if (all_of(t0, t1, is_perm)) {
		e->perm0 = t0;
		e->perm1 = t1;
		p = t1;
		if (!next_token(p, end, &t0, &t1))
			return false;
	}
	if (all_of(t0, t1, pc_is_hex)) {
		e->off0 = t0;
		e->off1 = t1;
		p = t1;
		if (!next_token(p, end, &t0, &t1))
			return false;
	}
	colon = memchr(t0, ':', (size_t)(t1 - t0));
	if (colon == NULL || !all_of(t0, colon, pc_is_hex) ||
	    !all_of(colon + 1, t1, pc_is_hex))
		return false;
	p = t1;
	if (!next_token(p, end, &t0, &t1) || !pc_is_digit(*t0))
		return false;
	/* The inode is the token's leading digits; the rest is ignored. */
	p = t0;
	while (p < end && pc_is_digit(*p))
		p++;
	if (next_token(p, end, &t0, &t1)) {
		e->file0 = t0;
		e->file1 = t1;
		/* pprof keeps one token for the file; the mark is two. */
		e->deleted = is_deleted_mark(t1, end);
	}
	return true;
}

/* briefMapsRE: always matches once the range did. */
static void
match_brief(const char *p, const char *end, struct entry_text *e)
{
	const char *t0, *t1, *q;

	memset(e, 0, sizeof(*e));
	q = skip_ws(p, end);
	if (q != p && q < end && is_perm((unsigned char)*q)) {
		/* Greedy perms, possibly only a prefix of the token. */
		e->perm0 = q;
		while (q < end && is_perm((unsigned char)*q))
			q++;
		e->perm1 = q;
		p = q;
	}
	if (next_token(p, end, &t0, &t1)) {
		e->file0 = t0;
		e->file1 = t1;
		e->deleted = is_deleted_mark(t1, end);
		p = t1;
	}
	q = skip_ws(p, end);
	if (q != p && end - q >= 4 && q[0] == '(' && q[1] == '@') {
		const char *h = skip_hex(q + 2, end);

		if (h > q + 2 && h < end && *h == ')') {
			e->off0 = q + 2;
			e->off1 = h;
			p = h + 1;
		}
	}
	q = skip_ws(p, end);
	if (q != p && q < end && pc_is_hex(*q)) {
		e->bid0 = q;
		e->bid1 = skip_hex(q, end);
	}
}

static char *
dup_span(const char *p, const char *q)
{
	size_t n = p != NULL ? (size_t)(q - p) : 0;
	char *s = malloc(n + 1);

	if (s != NULL) {
		if (n != 0)
			memcpy(s, p, n);
		s[n] = '\0';
	}
	return s;
}

/* Remove a glog prefix "...file:line] " (logInfoRE). */
static const char *
strip_glog(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && *q != '[' && *q != ']')
		q++;
	/* [^\[\]]+ : [0-9]+ ] \s  -- the colon is the last one before ']' */
	if (q == end || *q != ']' || q == p)
		return p;
	{
		const char *d = q;

		while (d > p && pc_is_digit(d[-1]))
			d--;
		if (d == q || d - 1 <= p || d[-1] != ':')
			return p;
	}
	if (q + 1 < end && pc_is_re_space((unsigned char)q[1]))
		return q + 2;
	return p;
}

/* Grow OUT (capacity *CAP) to hold NEED bytes; false when out of memory. */
static bool
reserve(char **out, size_t *cap, size_t need)
{
	char *grown;

	if (need <= *cap)
		return true;
	grown = realloc(*out, need * 2);
	if (grown == NULL)
		return false;
	*out = grown;
	*cap = need * 2;
	return true;
}

/* The first variable, in order of definition, whose name is at P. */
static size_t
find_var(struct pc_maps *maps, const char *p, size_t left)
{
	size_t k;

	for (k = 0; k < maps->nvars; k += 2) {
		const char *name = maps->vars[k];
		size_t nl;

		maps->lookups++;
		/* name[0] is '$'; "$" alone matches every '$'. */
		if (name[1] != '\0' && (left < 2 || name[1] != p[1]))
			continue;
		nl = strlen(name);
		if (nl <= left && memcmp(p, name, nl) == 0)
			break;
	}
	return k;
}

/*
 * Replace every $name in LINE, in order of definition, into the malloc'd
 * *OUT.  Bounded by PC_MAPS_MAX_EXPANSION and PC_MAPS_MAX_LOOKUPS over the
 * whole map (bounds.h).
 */
static int
substitute(struct pc_maps *maps, const char *p, size_t len, char **out)
{
	size_t cap = len + 1, n = 0, i, k;
	char *o = malloc(cap);

	*out = NULL;
	if (o == NULL)
		return profconv__nomem();
	for (i = 0; i < len;) {
		const char *v = NULL;
		size_t vl = 0;

		k = maps->nvars;
		if (p[i] == '$' && maps->nvars != 0)
			k = find_var(maps, p + i, len - i);
		if (k < maps->nvars) {
			v = maps->vars[k + 1];
			vl = strlen(v);
		}
		maps->expanded += vl;
		if (maps->expanded > PC_MAPS_MAX_EXPANSION ||
		    maps->lookups > PC_MAPS_MAX_LOOKUPS) {
			free(o);
			return profconv__fail(PROFCONV_EFORMAT, "%s",
			    maps->expanded > PC_MAPS_MAX_EXPANSION ?
			    "$variable expansion exceeds 16 MiB" :
			    "$variable lookups exceed 64M comparisons "
			    "(too many variables)");
		}
		if (v == NULL) {
			o[n++] = p[i++];
			continue;
		}
		if (!reserve(&o, &cap, n + vl + (len - i) + 1)) {
			free(o);
			return profconv__nomem();
		}
		memcpy(o + n, v, vl);
		n += vl;
		i += strlen(maps->vars[k]);
	}
	o[n] = '\0';
	*out = o;
	return 0;
}

/* "name=value": define $name (both trimmed). */
static int
define_var(struct pc_maps *maps, const char *p, const char *end)
{
	const char *eq = memchr(p, '=', (size_t)(end - p));
	const char *a0, *a1, *b0, *b1;
	char *name, *value;
	int rc;

	if (eq == NULL)
		return 0;
	a0 = skip_trim_space(p, eq);
	a1 = eq;
	while (a1 > a0 && pc_is_ws((unsigned char)a1[-1]))
		a1--;
	b0 = skip_trim_space(eq + 1, end);
	b1 = end;
	while (b1 > b0 && pc_is_ws((unsigned char)b1[-1]))
		b1--;
	name = malloc((size_t)(a1 - a0) + 2);
	value = dup_span(b0, b1);
	rc = PC_GROW(maps->vars, maps->vars_cap, maps->nvars, 2);
	if (name == NULL || value == NULL || rc < 0) {
		free(name);
		free(value);
		return profconv__nomem();
	}
	name[0] = '$';
	memcpy(name + 1, a0, (size_t)(a1 - a0));
	name[a1 - a0 + 1] = '\0';
	maps->vars[maps->nvars++] = name;
	maps->vars[maps->nvars++] = value;
	return 0;
}

static int
append_entry(struct pc_maps *maps, const struct range_text *r,
    const struct entry_text *e, enum pc_map_line *kind)
{
	struct pc_map_entry m = { 0 };

	if (!hex_value(r->s0, r->s1, &m.start) ||
	    !hex_value(r->e0, r->e1, &m.limit) ||
	    (e->off0 != NULL && !hex_value(e->off0, e->off1, &m.offset))) {
		*kind = PC_MAP_UNRECOGNIZED;
		return 0;
	}
	if (e->perm0 != NULL && memchr(e->perm0, 'x',
	    (size_t)(e->perm1 - e->perm0)) == NULL) {
		*kind = PC_MAP_SKIPPED;
		return 0;
	}
	m.file = dup_span(e->file0, e->file1);
	m.build_id = dup_span(e->bid0, e->bid1);
	m.deleted = e->deleted;
	if (m.file == NULL || m.build_id == NULL ||
	    PC_GROW(maps->v, maps->cap, maps->n, 1) < 0) {
		free(m.file);
		free(m.build_id);
		return profconv__nomem();
	}
	maps->v[maps->n++] = m;
	*kind = PC_MAP_ENTRY;
	return 0;
}

int
profconv__maps_parse_line(struct pc_maps *maps, const char *line, size_t len,
    enum pc_map_line *kind_out)
{
	struct range_text r;
	struct entry_text e;
	const char *p, *end;
	char *text;
	int rc = 0;

	/* As pprof: the glog prefix goes first, then $variables. */
	p = strip_glog(line, line + len);
	rc = substitute(maps, p, len - (size_t)(p - line), &text);
	if (rc < 0)
		return rc;
	p = text;
	end = text + strlen(text);
	*kind_out = PC_MAP_UNRECOGNIZED;
	if (match_range(p, end, &r)) {
		if (!match_proc(r.rest, end, &e))
			match_brief(r.rest, end, &e);
		rc = append_entry(maps, &r, &e, kind_out);
	}
	if (rc == 0 && *kind_out == PC_MAP_UNRECOGNIZED)
		rc = define_var(maps, p, end);
	free(text);
	return rc;
}

bool
profconv__maps_is_sentinel(const char *line, size_t len)
{
	static const char *const sentinels[] = {
		"--- Memory map: ---", "MAPPED_LIBRARIES:",
	};
	size_t i;

	/* Both have an 'M', which stack lines (lower-case hex) lack: one
	 * vectorized memchr instead of two searches on every line. */
	if (memchr(line, 'M', len) == NULL)
		return false;
	for (i = 0; i < PC_ARRAY_LEN(sentinels); i++)
		if (memmem(line, len, sentinels[i], strlen(sentinels[i])) != NULL)
			return true;
	return false;
}

int
profconv__maps_parse_rest(struct pc_maps *maps, struct pc_input *in)
{
	enum pc_map_line kind;
	const char *line;
	size_t len;
	int rc;

	maps->seen = true;
	while ((rc = profconv__input_getline(in, &line, &len)) == 1) {
		maps->cut = in->unterminated;
		maps->cut_lineno = in->lineno;
		rc = profconv__maps_parse_line(maps, line, len, &kind);
		if (rc == PROFCONV_EFORMAT) {
			char msg[256];

			snprintf(msg, sizeof(msg), "%s", profconv_errmsg());
			return profconv__fail(rc, "line %llu: %s",
			    (unsigned long long)in->lineno, msg);
		}
		if (rc < 0)
			return rc;
	}
	return rc;
}

int
profconv__maps_parse_after_sentinel(struct pc_maps *maps,
    struct pc_input *in, const char *line, size_t len)
{
	int rc = line != NULL ? 1 : 0;

	while (rc == 1 && !profconv__maps_is_sentinel(line, len))
		rc = profconv__input_getline(in, &line, &len);
	if (rc == 1)
		rc = profconv__maps_parse_rest(maps, in);
	return rc;
}

void
profconv__maps_free(struct pc_maps *maps)
{
	size_t i;

	for (i = 0; i < maps->n; i++) {
		free(maps->v[i].file);
		free(maps->v[i].build_id);
	}
	for (i = 0; i < maps->nvars; i++)
		free(maps->vars[i]);
	free(maps->v);
	free(maps->vars);
	memset(maps, 0, sizeof(*maps));
}
