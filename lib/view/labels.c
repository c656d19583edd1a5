/* SPDX-License-Identifier: MIT */
/*
 * labels.c - what a view does with a sample's labels, as go tool pprof
 * does: --tagfocus and --tagignore keep or drop whole samples by their
 * labels, --tagroot and --tagleaf add pseudo-frames named by a label's
 * values at the root or the leaf of every stack.
 *
 * The semantics are pprof's (internal/driver/driver_focus.go and
 * tagroot.go, as go 1.19 ships it), so that a filter keeps the samples
 * go tool pprof keeps with the same flag:
 *
 *   - "KEY=VALUE" filters on label KEY alone; "VALUE" on every label;
 *   - VALUE is a range when it reads as one: "N", "N:", ":N" or "N:M",
 *     each bound a signed integer with an optional unit ("8kb", "1mb",
 *     "10ms"), both of one kind; a numeric label matches when its value,
 *     in the unit the profile gives its key, falls in it (a key without
 *     a unit is its own unit, "request" and "alignment" are bytes);
 *   - otherwise VALUE is a list of regular expressions split at ','
 *     (POSIX extended here, RE2 in pprof): with KEY, any of them found
 *     in any string value of KEY matches; without, each of them must be
 *     found in some "key:value" of the sample;
 *   - a numeric label of 0 without a unit is no label: in the protobuf
 *     it cannot be told from none, and pprof drops it.
 *
 * One departure: what looks like a range but is not one pprof reads
 * ("64:1mb", a bound without a unit beside one with; "1kb:2ms"; a
 * number beyond 64 bits) is refused, where pprof takes the first two as
 * regular expressions that match no number and panics on the third.
 */

#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "view/graph.h"
#include "view/view.h"

/* --- the filters ---------------------------------------------------------- */

enum range_op { R_EQ, R_GE, R_LE, R_IN };

struct tagfilter {
	char *key;		/* NULL: every label */
	bool numeric;
	/* A range: values in UNIT (static, or inside TEXT). */
	enum range_op op;
	double lo, hi;
	const char *unit;
	char *units;		/* the bounds' unit texts, owned */
	/* Or regular expressions. */
	regex_t *rx;
	bool *rx_empty;		/* "" matches everything */
	size_t nrx;
};

struct pc_labels {
	const struct profconv_profile *prof;
	struct tagfilter focus, ignore;
	bool has_focus, has_ignore;
	char **root, **leaf;	/* keys, split at ',' (empty ones dropped) */
	size_t nroot, nleaf;
	bool split;		/* a thread frame outside the root keys */
	unsigned matched;	/* PROFCONV_FILTER_TAG* that found some
				 * sample */
	/* pprof's numLabelUnits: key string -> its unit, computed once. */
	const char **key_unit;
	char *buf;
	size_t buf_cap;
};

/* One bound "[+-]DIGITS[ALPHA]" at S: its length, 0 when none. */
static size_t
bound_len(const char *s, size_t *digits_at, size_t *alpha_at)
{
	size_t i = 0;

	if (s[i] == '+' || s[i] == '-')
		i++;
	*digits_at = i;
	if (!isdigit((unsigned char)s[i]))
		return 0;
	while (isdigit((unsigned char)s[i]))
		i++;
	*alpha_at = i;
	while (isalpha((unsigned char)s[i]) && (unsigned char)s[i] < 128)
		i++;
	return i;
}

/*
 * The matches of pprof's "([+-]?[[:digit:]]+)([[:alpha:]]+)?" in S,
 * leftmost first, at most two: where each begins and its length.
 */
static size_t
find_bounds(const char *s, size_t at[2], size_t len[2])
{
	size_t i = 0, n = 0, d, a, l;

	while (s[i] != '\0' && n < 2) {
		l = bound_len(s + i, &d, &a);
		if (l != 0) {
			at[n] = i;
			len[n++] = l;
			i += l;
		} else {
			i++;
		}
	}
	return n;
}

/* Bound at S (LEN bytes, a find_bounds() match) as a number and a unit
 * text (into UNIT, NUL-ended); -1 when the number is beyond 64 bits. */
static int
parse_bound(const char *s, size_t len, int64_t *num, char *unit, size_t usize)
{
	char tmp[64];
	size_t d, a, n;
	char *end;
	long long v;

	(void)bound_len(s, &d, &a);
	n = a < sizeof(tmp) ? a : sizeof(tmp) - 1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	errno = 0;
	v = strtoll(tmp, &end, 10);
	if (errno == ERANGE || a >= sizeof(tmp))
		return -1;
	*num = v;
	n = len - a < usize ? len - a : usize - 1;
	memcpy(unit, s + a, n);
	unit[n] = '\0';
	return 0;
}

/* Does S read as a range in form ("B", "B:", ":B", "B:B")? */
static bool
range_shaped(const char *s)
{
	size_t d, a, l;

	if (*s == ':')
		s++;
	l = bound_len(s, &d, &a);
	if (l == 0)
		return false;
	s += l;
	if (*s == '\0')
		return true;
	if (*s++ != ':')
		return false;
	if (*s == '\0')
		return true;
	l = bound_len(s, &d, &a);
	return l != 0 && s[l] == '\0';
}

/*
 * VALUE as pprof's parseTagFilterRange() reads it, into F: 1 a range,
 * 0 none (a regular expression then), -1 with WHY when it is shaped
 * like a range but is not one pprof reads.
 */
static int
parse_range(struct tagfilter *f, const char *value, char *why, size_t wlen)
{
	size_t at[2], len[2], n = find_bounds(value, at, len);
	char u0[32], u1[32], *m0;
	const char *unit, *unit2;
	int64_t v0, v1;
	bool shaped = range_shaped(value);

	if (n == 0)
		return 0;
	if (parse_bound(value + at[0], len[0], &v0, u0, sizeof(u0)) < 0 ||
	    (n == 2 && parse_bound(value + at[1], len[1], &v1, u1,
	    sizeof(u1)) < 0)) {
		snprintf(why, wlen, "a number in '%s' is beyond 64 bits",
		    value);
		return -1;
	}
	f->units = malloc(sizeof(u0) + sizeof(u1));
	if (f->units == NULL)
		return profconv__nomem();
	memcpy(f->units, u0, sizeof(u0));
	memcpy(f->units + sizeof(u0), u1, sizeof(u1));
	f->lo = profconv__measure_scale(v0, f->units, f->units, &unit);
	f->unit = unit;		/* static, or F's own copy of U0 */
	m0 = (char *)value + at[0];
	if (n == 1) {
		if (at[0] == 0 && len[0] == strlen(value))
			f->op = R_EQ;
		else if (at[0] == 0 && strcmp(m0 + len[0], ":") == 0)
			f->op = R_GE;
		else if (at[0] == 1 && value[0] == ':' &&
		    m0[len[0]] == '\0')
			f->op = R_LE;
		else
			goto not_range;
		f->hi = f->lo;
		f->numeric = true;
		return 1;
	}
	if (at[0] != 0 || value[len[0]] != ':' || at[1] != len[0] + 1 ||
	    value[at[1] + len[1]] != '\0')
		goto not_range;
	f->hi = profconv__measure_scale(v1, f->units + sizeof(u0), f->unit,
	    &unit2);
	if (strcmp(unit2, f->unit) != 0) {
		if (shaped) {
			snprintf(why, wlen, "'%s' is not a range: its bounds "
			    "are in different units ('%s' and '%s'; give "
			    "both, as 64b:1mb)", value, u0, u1);
			return -1;
		}
		goto not_range;
	}
	f->op = R_IN;
	f->numeric = true;
	return 1;
not_range:
	free(f->units);
	f->units = NULL;
	f->unit = NULL;
	if (shaped) {
		snprintf(why, wlen, "'%s' is not a range pprof reads", value);
		return -1;
	}
	return 0;
}

static void
filter_free(struct tagfilter *f)
{
	size_t i;

	for (i = 0; i < f->nrx; i++)
		if (!f->rx_empty[i])
			regfree(&f->rx[i]);
	free(f->rx);
	free(f->rx_empty);
	free(f->units);
	free(f->key);
	memset(f, 0, sizeof(*f));
}

/* SPEC (WHAT names the option) into F. */
static int
filter_parse(struct tagfilter *f, const char *spec, const char *what)
{
	const char *eq = strchr(spec, '='), *value = spec, *p, *c;
	char why[256], *part;
	size_t n, i;
	bool ok;
	int rc;

	memset(f, 0, sizeof(*f));
	if (eq != NULL) {
		f->key = strndup(spec, (size_t)(eq - spec));
		if (f->key == NULL)
			return profconv__nomem();
		value = eq + 1;
	}
	rc = parse_range(f, value, why, sizeof(why));
	if (rc < 0) {
		if (rc == -1)
			rc = profconv__fail(PROFCONV_EINVAL,
			    "invalid %s value '%s': %s", what, spec, why);
		filter_free(f);
		return rc;
	}
	if (rc == 1)
		return 0;
	for (n = 1, p = value; (p = strchr(p, ',')) != NULL; p++)
		n++;
	f->rx = calloc(n, sizeof(*f->rx));
	f->rx_empty = calloc(n, sizeof(*f->rx_empty));
	if (f->rx == NULL || f->rx_empty == NULL) {
		filter_free(f);
		return profconv__nomem();
	}
	for (i = 0, p = value; i < n; i++, p = c + 1) {
		c = strchr(p, ',');
		if (c == NULL)
			c = p + strlen(p);
		part = strndup(p, (size_t)(c - p));
		if (part == NULL) {
			filter_free(f);
			return profconv__nomem();
		}
		f->nrx = i + 1;
		if (*part == '\0') {
			f->rx_empty[i] = true;
			free(part);
			continue;
		}
		rc = profconv__view_compile(&f->rx[i], part, &ok, what);
		if (rc < 0) {
			f->rx_empty[i] = true;	/* nothing to free */
			free(part);
			filter_free(f);
			return rc;
		}
		free(part);
	}
	return 0;
}

/* Keys of SPEC split at ',', empty ones dropped. */
static int
split_keys(const char *spec, char ***out, size_t *n)
{
	const char *p = spec, *c;
	size_t max = 1;

	*n = 0;
	*out = NULL;
	if (spec == NULL)
		return 0;
	for (c = spec; (c = strchr(c, ',')) != NULL; c++)
		max++;
	*out = calloc(max, sizeof(**out));
	if (*out == NULL)
		return profconv__nomem();
	for (;;) {
		c = strchr(p, ',');
		if (c == NULL)
			c = p + strlen(p);
		if (c != p) {
			(*out)[*n] = strndup(p, (size_t)(c - p));
			if ((*out)[*n] == NULL)
				return profconv__nomem();
			(*n)++;
		}
		if (*c == '\0')
			break;
		p = c + 1;
	}
	return 0;
}

static void
keys_free(char **k, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(k[i]);
	free(k);
}

void
profconv__labels_free(struct pc_labels *l)
{
	if (l == NULL)
		return;
	if (l->has_focus)
		filter_free(&l->focus);
	if (l->has_ignore)
		filter_free(&l->ignore);
	keys_free(l->root, l->nroot);
	keys_free(l->leaf, l->nleaf);
	free(l->key_unit);
	free(l->buf);
	free(l);
}

static bool
is_label(const struct pc_label *lb)
{
	return lb->str != 0 || lb->num != 0 || lb->unit != 0;
}

int
profconv__label_units(const struct profconv_profile *prof,
    const char ***out)
{
	const char **ku;
	size_t i, si;

	*out = NULL;
	ku = calloc(prof->strings.len + 1, sizeof(*ku));
	if (ku == NULL)
		return profconv__nomem();
	for (si = 0; si < prof->nsamples; si++) {
		const struct pc_sample *s = pc_sample(prof, si);
		const struct pc_label *lb = pc_sample_labels(prof, s);
		const char *u;

		for (i = 0; i < s->nlabels; i++) {
			if (lb[i].str != 0 || !is_label(&lb[i]) ||
			    lb[i].key >= prof->strings.len)
				continue;
			u = profconv__pstr(prof, lb[i].unit);
			if (ku[lb[i].key] == NULL ||
			    (*ku[lb[i].key] == '\0' && *u != '\0'))
				ku[lb[i].key] = u;
		}
	}
	for (i = 0; i < prof->strings.len; i++) {
		const char *k;

		if (ku[i] == NULL || *ku[i] != '\0')
			continue;
		k = profconv__pstr(prof, (uint32_t)i);
		ku[i] = strcmp(k, "request") == 0 ||
		    strcmp(k, "alignment") == 0 ? "bytes" : k;
	}
	*out = ku;
	return 0;
}

bool
profconv__label_numeric(const struct pc_label *lb)
{
	return lb->str == 0 && is_label(lb);
}

static int
key_units(struct pc_labels *l)
{
	return profconv__label_units(l->prof, &l->key_unit);
}

int
profconv__labels_new(struct pc_labels **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *o)
{
	struct pc_labels *l;
	int rc = 0;

	*out = NULL;
	if ((o->tagfocus == NULL || *o->tagfocus == '\0') &&
	    (o->tagignore == NULL || *o->tagignore == '\0') &&
	    o->tagroot == NULL && o->tagleaf == NULL && !o->split_threads)
		return 0;
	l = calloc(1, sizeof(*l));
	if (l == NULL)
		return profconv__nomem();
	l->prof = prof;
	if (o->tagfocus != NULL && *o->tagfocus != '\0') {
		rc = filter_parse(&l->focus, o->tagfocus, "--tagfocus");
		l->has_focus = rc == 0;
	}
	if (rc == 0 && o->tagignore != NULL && *o->tagignore != '\0') {
		rc = filter_parse(&l->ignore, o->tagignore, "--tagignore");
		l->has_ignore = rc == 0;
	}
	if (rc == 0)
		rc = split_keys(o->tagroot, &l->root, &l->nroot);
	if (rc == 0)
		rc = split_keys(o->tagleaf, &l->leaf, &l->nleaf);
	l->split = o->split_threads != 0;
	if (rc == 0 && prof != NULL && (l->has_focus || l->has_ignore))
		rc = key_units(l);
	if (rc < 0) {
		profconv__labels_free(l);
		return rc;
	}
	*out = l;
	return 0;
}

static bool
in_range(const struct tagfilter *f, int64_t v, const char *unit)
{
	const char *su;
	double x = profconv__measure_scale(v, unit, f->unit, &su);

	if (strcmp(su, f->unit) != 0)
		return false;
	switch (f->op) {
	case R_EQ:
		return x == f->lo;
	case R_GE:
		return x >= f->lo;
	case R_LE:
		return x <= f->lo;
	case R_IN:
		break;
	}
	return x >= f->lo && x <= f->hi;
}

static bool
rx_found(const struct tagfilter *f, size_t i, const char *s)
{
	return f->rx_empty[i] || regexec(&f->rx[i], s, 0, NULL, 0) == 0;
}

/* Does sample S match filter F? */
static bool
filter_match(struct pc_labels *l, const struct tagfilter *f,
    const struct pc_sample *s)
{
	const struct profconv_profile *prof = l->prof;
	const struct pc_label *lb = pc_sample_labels(prof, s);
	size_t i, j, n = s->nlabels, need;
	const char *k, *val;

	if (f->numeric) {
		for (i = 0; i < n; i++) {
			if (lb[i].str != 0 || !is_label(&lb[i]))
				continue;
			k = profconv__pstr(prof, lb[i].key);
			if (f->key != NULL && strcmp(k, f->key) != 0)
				continue;
			if (in_range(f, lb[i].num, l->key_unit[lb[i].key]))
				return true;
		}
		return false;
	}
	if (f->key != NULL) {
		for (i = 0; i < n; i++) {
			if (lb[i].str == 0 || strcmp(profconv__pstr(prof,
			    lb[i].key), f->key) != 0)
				continue;
			val = profconv__pstr(prof, lb[i].str);
			for (j = 0; j < f->nrx; j++)
				if (rx_found(f, j, val))
					return true;
		}
		return false;
	}
	/* Every expression found in some "key:value". */
	for (j = 0; j < f->nrx; j++) {
		bool found = false;

		for (i = 0; i < n && !found; i++) {
			if (lb[i].str == 0)
				continue;
			k = profconv__pstr(prof, lb[i].key);
			val = profconv__pstr(prof, lb[i].str);
			need = strlen(k) + strlen(val) + 2;
			if (PC_GROW(l->buf, l->buf_cap, 0, need) < 0)
				return false;
			snprintf(l->buf, need, "%s:%s", k, val);
			found = rx_found(f, j, l->buf);
		}
		if (!found)
			return false;
	}
	return true;
}

bool
profconv__labels_filter(const struct pc_labels *l)
{
	return l != NULL && (l->has_focus || l->has_ignore);
}

bool
profconv__labels_keep(struct pc_labels *l, size_t si)
{
	const struct pc_sample *s;
	bool focused = true, ignored = false;

	if (l == NULL || (!l->has_focus && !l->has_ignore))
		return true;
	s = pc_sample(l->prof, si);
	if (l->has_focus)
		focused = filter_match(l, &l->focus, s);
	/* A sample out of focus is matched against --tagignore only
	 * until it has matched one: whether it matches any is said. */
	if (l->has_ignore && (focused ||
	    (l->matched & PROFCONV_FILTER_TAGIGNORE) == 0))
		ignored = filter_match(l, &l->ignore, s);
	if (l->has_focus && focused)
		l->matched |= PROFCONV_FILTER_TAGFOCUS;
	if (ignored)
		l->matched |= PROFCONV_FILTER_TAGIGNORE;
	return focused && !ignored;
}

unsigned
profconv__labels_matched(const struct pc_labels *l)
{
	return l != NULL ? l->matched : 0;
}

size_t
profconv__labels_pseudo(const struct pc_labels *l, size_t *nroot)
{
	*nroot = l != NULL ? l->nroot + l->split : 0;
	return l != NULL ? l->nroot + l->split + l->nleaf : 0;
}

static int
put(struct pc_labels *l, size_t *len, const char *s)
{
	size_t n = strlen(s);
	int rc = PC_GROW(l->buf, l->buf_cap, *len, n + 2);

	if (rc == 0) {
		if (*len != 0)
			l->buf[(*len)++] = ',';
		memcpy(l->buf + *len, s, n + 1);
		*len += n;
	}
	return rc;
}

/* The --split-threads frame of sample S: "thread N (NAME)", "thread
 * N", or "[no thread]"; N is the "thread" label (0 counts here: text2pb
 * gives it to the main thread), NAME the "thread_name" one. */
static int
thread_text(struct pc_labels *l, const struct pc_sample *s,
    const char **text, size_t *len, const char **key)
{
	const struct profconv_profile *prof = l->prof;
	const struct pc_label *lb = pc_sample_labels(prof, s);
	const char *name = NULL, *k;
	bool has_uid = false;
	int64_t uid = 0;
	size_t i, need;
	int n;

	for (i = 0; i < s->nlabels; i++) {
		k = profconv__pstr(prof, lb[i].key);
		if (lb[i].str == 0 && strcmp(k, "thread") == 0) {
			uid = lb[i].num;
			has_uid = true;
		} else if (lb[i].str != 0 && strcmp(k, "thread_name") == 0) {
			name = profconv__pstr(prof, lb[i].str);
		} else if (lb[i].str != 0 && strcmp(k, "thread") == 0) {
			/* A thread label as a string: its text. */
			name = profconv__pstr(prof, lb[i].str);
		}
	}
	*key = "thread";
	need = (name != NULL ? strlen(name) : 0) + 48;
	if (PC_GROW(l->buf, l->buf_cap, 0, need) < 0)
		return profconv__nomem();
	if (has_uid && name != NULL)
		n = snprintf(l->buf, need, "thread %" PRId64 " (%s)", uid, name);
	else if (has_uid)
		n = snprintf(l->buf, need, "thread %" PRId64, uid);
	else if (name != NULL)
		n = snprintf(l->buf, need, "thread (%s)", name);
	else
		n = snprintf(l->buf, need, "[no thread]");
	*len = (size_t)n;
	*text = l->buf;
	return 0;
}

int
profconv__thread_parse(const char *text, size_t len, int64_t *uid,
    bool *has_uid, size_t *name_at, size_t *name_len)
{
	static const char word[] = "thread ";
	size_t i = sizeof(word) - 1, d;
	long long v;
	char num[32];

	*has_uid = false;
	*uid = 0;
	*name_at = *name_len = 0;
	/* thread_text()'s forms: "thread N (NAME)", "thread N",
	 * "thread (NAME)", "[no thread]". */
	if (len < i || memcmp(text, word, i) != 0)
		return -1;
	d = i;
	if (i < len && text[i] == '-')
		i++;
	while (i < len && isdigit((unsigned char)text[i]))
		i++;
	if (i > d && i - d < sizeof(num)) {
		memcpy(num, text + d, i - d);
		num[i - d] = '\0';
		errno = 0;
		v = strtoll(num, NULL, 10);
		if (errno != 0)
			return -1;
		*uid = v;
		*has_uid = true;
		if (i == len)
			return 0;
		if (text[i++] != ' ')
			return -1;
	}
	if (len - i < 2 || text[i] != '(' || text[len - 1] != ')')
		return -1;
	*name_at = i + 1;
	*name_len = len - i - 2;
	return 0;
}

bool
profconv__labels_has_thread(const struct profconv_profile *prof)
{
	size_t si, i, n = profconv_profile_sample_count(prof);
	const struct pc_sample *s;
	const struct pc_label *lb;
	const char *k;

	for (si = 0; si < n; si++) {
		s = pc_sample(prof, si);
		lb = pc_sample_labels(prof, s);
		for (i = 0; i < s->nlabels; i++) {
			k = profconv__pstr(prof, lb[i].key);
			if (strcmp(k, "thread") == 0 ||
			    strcmp(k, "thread_name") == 0)
				return true;
		}
	}
	return false;
}

int
profconv__labels_pseudo_text(struct pc_labels *l, size_t si, size_t k,
    const char **text, size_t *len, const char **key)
{
	const struct profconv_profile *prof = l->prof;
	const struct pc_sample *s = pc_sample(prof, si);
	const struct pc_label *lb = pc_sample_labels(prof, s);
	const char *unit, *u;
	char num[64];
	bool any_unit = false;
	size_t i, n;
	double x;
	int rc = 0;

	if (l->split && k == 0)
		return thread_text(l, s, text, len, key);
	k -= l->split;
	*key = k < l->nroot ? l->root[k] : l->leaf[k - l->nroot];
	*len = 0;
	/* String values first, then numbers, each in label order. */
	for (i = 0; rc == 0 && i < s->nlabels; i++)
		if (lb[i].str != 0 && strcmp(profconv__pstr(prof, lb[i].key),
		    *key) == 0)
			rc = put(l, len, profconv__pstr(prof, lb[i].str));
	for (i = 0; i < s->nlabels; i++)
		if (lb[i].str == 0 && is_label(&lb[i]) && lb[i].unit != 0 &&
		    strcmp(profconv__pstr(prof, lb[i].key), *key) == 0)
			any_unit = true;
	for (i = 0; rc == 0 && i < s->nlabels; i++) {
		if (lb[i].str != 0 || !is_label(&lb[i]) ||
		    strcmp(profconv__pstr(prof, lb[i].key), *key) != 0)
			continue;
		u = any_unit ? profconv__pstr(prof, lb[i].unit) : "";
		/* pprof's measurement.ScaledLabel. */
		x = profconv__measure_scale(lb[i].num, u,
		    any_unit ? "minimum" : "", &unit);
		snprintf(num, sizeof(num), "%.2f", x);
		n = strlen(num);
		if (n > 3 && strcmp(num + n - 3, ".00") == 0)
			num[n -= 3] = '\0';
		if (strcmp(num, "0") == 0 || strcmp(num, "-0") == 0)
			snprintf(num, sizeof(num), "0");
		else
			snprintf(num + n, sizeof(num) - n, "%s", unit);
		rc = put(l, len, num);
	}
	if (rc < 0)
		return rc;
	if (*len != 0)
		l->matched |= k < l->nroot ? PROFCONV_FILTER_TAGROOT :
		    PROFCONV_FILTER_TAGLEAF;
	if (*len == 0) {
		/* pprof names it ""; say what is missing instead. */
		size_t need = strlen(*key) + 6;

		rc = PC_GROW(l->buf, l->buf_cap, 0, need);
		if (rc < 0)
			return rc;
		*len = (size_t)snprintf(l->buf, need, "[no %s]", *key);
	}
	*text = l->buf;
	return 0;
}

/* --- --tagshow and --taghide ------------------------------------------------ */

static int
tagname_rx(regex_t *re, bool *has, const char *rx, const char *what)
{
	*has = false;
	return rx == NULL || *rx == '\0' ? 0 :
	    profconv__view_compile(re, rx, has, what);
}

int
profconv__tagnames_init(struct pc_tagnames *t,
    const struct profconv_view_options *o)
{
	int rc;

	memset(t, 0, sizeof(*t));
	rc = tagname_rx(&t->show, &t->has_show, o->tagshow, "--tagshow");
	if (rc == 0)
		rc = tagname_rx(&t->hide, &t->has_hide, o->taghide,
		    "--taghide");
	if (rc < 0)
		profconv__tagnames_free(t);
	return rc;
}

bool
profconv__tagnames_keep(const struct pc_tagnames *t, const char *key)
{
	if (t->has_show && regexec(&t->show, key, 0, NULL, 0) != 0)
		return false;
	return !(t->has_hide && regexec(&t->hide, key, 0, NULL, 0) == 0);
}

void
profconv__tagnames_free(struct pc_tagnames *t)
{
	if (t->has_show)
		regfree(&t->show);
	if (t->has_hide)
		regfree(&t->hide);
	t->has_show = t->has_hide = false;
}
