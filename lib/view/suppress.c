/* SPDX-License-Identifier: MIT */
/*
 * suppress.c - leak suppressions in LeakSanitizer's format, applied to a
 * view's samples, with what each one hid.
 *
 * A suppressions file holds one "TYPE:PATTERN" a line; blanks around it
 * and lines that are empty or begin with '#' are skipped, and only the
 * "leak" type is used (others, such as ASan's or TSan's, are ignored).
 * A sample is suppressed when some frame of its whole stack, inlined
 * calls included, has a function name, a source file or a module (the
 * mapped file) the pattern matches as LLVM's TemplateMatch does: '*'
 * matches any run of bytes, a leading '^' anchors at the start, a '$'
 * at the end anchors there, and the rest is found as a substring.  The
 * frame nearest the leaf with a match names the suppression (the first
 * listed that matches it), as LeakSanitizer reports it.
 *
 * The built-in list (profconv_default_suppressions) comes first, as
 * LeakSanitizer reads its own before the user's: allocations the C
 * library, the dynamic linker and GLib make once and keep.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base/bounds.h"
#include "view/view.h"

/* One-time allocations of the runtime, kept for the life of a process
 * (heaptrack's list, plus thread-local storage blocks and GLib types). */
static const char *const builtin[] = {
	"__nss_module_allocate",	/* glibc NSS modules */
	"__gconv_read_conf",		/* iconv configuration */
	"__new_exitfn",			/* atexit handlers */
	"tzset_internal",		/* time zone data */
	"dl_open_worker",		/* dlopen'ed libraries */
	"_dl_allocate_tls",		/* thread-local storage */
	"__libc_setup_tls",
	"g_main_context_new",		/* GLib main loop */
	"g_thread_self",
	"g_type_register_static",	/* GLib type registration */
	NULL
};

struct supp {
	char *pattern;
	size_t line;		/* 0: built in */
	size_t samples;
	int64_t *values;	/* per sample type */
};

struct pc_suppress {
	const struct profconv_profile *prof;
	char *file;		/* for profconv_view_suppression() */
	struct supp *s;
	size_t n, cap;
	uint32_t *loc;		/* location id -> 0 unknown, 1 none, k + 2 */
	uint32_t *str;		/* string index -> the same: a module's,
				 * function's or file's name is met in
				 * many locations */
	size_t nstr;
};

/* LLVM's TemplateMatch on TEMPL and STR (TEMPL is not changed). */
static bool
template_match(const char *templ, const char *str)
{
	bool start = false, star = false;
	const char *cut, *dollar, *at;
	size_t n;

	if (str == NULL || *str == '\0')
		return false;
	if (*templ == '^') {
		start = true;
		templ++;
	}
	while (*templ != '\0') {
		if (*templ == '*') {
			templ++;
			start = false;
			star = true;
			continue;
		}
		if (*templ == '$')
			return *str == '\0' || star;
		if (*str == '\0')
			return false;
		cut = strchr(templ, '*');
		dollar = strchr(templ, '$');
		if (cut == NULL || (dollar != NULL && dollar < cut))
			cut = dollar;
		n = cut != NULL ? (size_t)(cut - templ) : strlen(templ);
		/* The first place it is found (n > 0: a '*' or a '$'
		 * at TEMPL was taken above). */
		at = start ? (strncmp(str, templ, n) == 0 ? str : NULL) :
		    memmem(str, strlen(str), templ, n);
		if (at == NULL || (start && at != str))
			return false;
		str = at + n;
		templ += n;
		start = star = false;
	}
	return true;
}

static int
add(struct pc_suppress *sp, const char *pat, size_t len, size_t line,
    size_t ntypes)
{
	struct supp *s;
	int rc = PC_GROW(sp->s, sp->cap, sp->n, 1);

	if (rc < 0)
		return rc;
	s = &sp->s[sp->n];
	memset(s, 0, sizeof(*s));
	s->pattern = strndup(pat, len);
	s->values = calloc(ntypes + 1, sizeof(*s->values));
	s->line = line;
	if (s->pattern == NULL || s->values == NULL) {
		free(s->pattern);
		free(s->values);
		return profconv__nomem();
	}
	sp->n++;
	return 0;
}

/* Is PAT (LEN bytes) one that hides every frame, or has a '$' before
 * its end?  The reason, or NULL. */
static const char *
bad_pattern(const char *pat, size_t len)
{
	const char *d = memchr(pat, '$', len);
	size_t i = 0;

	if (d != NULL && d != pat + len - 1)
		return "'$' may only end a pattern";
	if (i < len && pat[i] == '^')
		i++;
	while (i < len && (pat[i] == '*' || pat[i] == '$'))
		i++;
	if (i == len)
		return "the pattern matches every frame";
	return NULL;
}

/* The suppressions file TEXT, named NAME, into SP. */
static int
parse(struct pc_suppress *sp, const char *text, const char *name,
    size_t ntypes)
{
	const char *line = text, *end, *e2, *colon, *why;
	size_t lineno = 0, nbuiltin = sp->n;
	int rc = 0;

	while (rc == 0 && *line != '\0') {
		lineno++;
		end = strchr(line, '\n');
		if (end == NULL)
			end = line + strlen(line);
		while (line < end && (*line == ' ' || *line == '\t'))
			line++;
		e2 = end;
		while (e2 > line && (e2[-1] == ' ' || e2[-1] == '\t' ||
		    e2[-1] == '\r'))
			e2--;
		if (line != e2 && *line != '#' &&
		    sp->n >= PC_SUPP_MAX_PATTERNS + nbuiltin)
			return profconv__fail(PROFCONV_EINVAL,
			    "%s:%zu: more than %d suppressions", name, lineno,
			    PC_SUPP_MAX_PATTERNS);
		if (line != e2 && *line != '#') {
			colon = memchr(line, ':', (size_t)(e2 - line));
			if (colon == NULL)
				return profconv__fail(PROFCONV_EINVAL,
				    "%s:%zu: not a suppression (TYPE:PATTERN, "
				    "such as leak:my_init)", name, lineno);
			if (colon - line == 4 && memcmp(line, "leak", 4) == 0) {
				why = bad_pattern(colon + 1,
				    (size_t)(e2 - colon - 1));
				if (why != NULL)
					return profconv__fail(PROFCONV_EINVAL,
					    "%s:%zu: bad pattern '%.*s': %s",
					    name, lineno, (int)(e2 - colon - 1),
					    colon + 1, why);
				rc = add(sp, colon + 1, (size_t)(e2 - colon - 1),
				    lineno, ntypes);
			}
		}
		line = *end != '\0' ? end + 1 : end;
	}
	return rc;
}

void
profconv__suppress_free(struct pc_suppress *sp)
{
	size_t i;

	if (sp == NULL)
		return;
	for (i = 0; i < sp->n; i++) {
		free(sp->s[i].pattern);
		free(sp->s[i].values);
	}
	free(sp->s);
	free(sp->file);
	free(sp->loc);
	free(sp->str);
	free(sp);
}

int
profconv__suppress_new(struct pc_suppress **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *o)
{
	struct pc_suppress *sp;
	size_t i, ntypes = prof != NULL ? prof->nsample_types : 0;
	int rc = 0;

	*out = NULL;
	if (o->suppressions == NULL && !o->default_suppressions)
		return 0;
	sp = calloc(1, sizeof(*sp));
	if (sp == NULL)
		return profconv__nomem();
	sp->prof = prof;
	sp->file = strdup(o->suppressions_name != NULL ?
	    o->suppressions_name : "suppressions");
	if (sp->file == NULL)
		rc = profconv__nomem();
	for (i = 0; rc == 0 && o->default_suppressions &&
	    builtin[i] != NULL; i++)
		rc = add(sp, builtin[i], strlen(builtin[i]), 0, ntypes);
	if (rc == 0 && o->suppressions != NULL &&
	    strnlen(o->suppressions, PROFCONV_MAX_SUPPRESSIONS + 1) >
	    PROFCONV_MAX_SUPPRESSIONS)
		rc = profconv__fail(PROFCONV_EINVAL, "suppressions '%s' are "
		    "longer than %zu KiB", sp->file,
		    PROFCONV_MAX_SUPPRESSIONS >> 10);
	if (rc == 0 && o->suppressions != NULL)
		rc = parse(sp, o->suppressions, sp->file, ntypes);
	if (rc == 0 && prof != NULL) {
		sp->loc = calloc(prof->nlocations + 1, sizeof(*sp->loc));
		sp->nstr = prof->strings.len;
		sp->str = calloc(sp->nstr + 1, sizeof(*sp->str));
		if (sp->loc == NULL || sp->str == NULL)
			rc = profconv__nomem();
	}
	if (rc < 0) {
		profconv__suppress_free(sp);
		return rc;
	}
	*out = sp;
	return 0;
}

/* The first suppression matching S, or SIZE_MAX. */
static size_t
first_match(const struct pc_suppress *sp, const char *s)
{
	size_t k;

	if (*s == '\0')
		return SIZE_MAX;
	for (k = 0; k < sp->n; k++)
		if (strcmp(sp->s[k].pattern, s) == 0 ||
		    template_match(sp->s[k].pattern, s))
			return k;
	return SIZE_MAX;
}

static size_t
min_z(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* The first suppression matching the profile's string IDX (cached), or
 * SIZE_MAX. */
static size_t
string_match(struct pc_suppress *sp, uint32_t idx)
{
	size_t m;

	if (idx >= sp->nstr)
		return first_match(sp, profconv__pstr(sp->prof, idx));
	if (sp->str[idx] == 0) {
		m = first_match(sp, profconv__pstr(sp->prof, idx));
		sp->str[idx] = m == SIZE_MAX ? 1 : (uint32_t)m + 2;
	}
	return sp->str[idx] == 1 ? SIZE_MAX : sp->str[idx] - 2;
}

/* Location ID's suppression (cached): its module, then its lines. */
static uint32_t
location(struct pc_suppress *sp, uint32_t id)
{
	const struct profconv_profile *prof = sp->prof;
	const struct pc_location *l;
	const struct pc_line *ln;
	size_t i, m = SIZE_MAX;

	if (sp->loc[id] != 0)
		return sp->loc[id];
	l = pc_location(prof, id);
	if (l->mapping != 0)
		m = string_match(sp, pc_mapping(prof, l->mapping)->file);
	ln = pc_location_lines(prof, l);
	for (i = 0; i < l->nlines; i++) {
		const struct pc_function *f = pc_function(prof,
		    ln[i].function);

		m = min_z(m, string_match(sp, f->name));
		m = min_z(m, string_match(sp, f->system_name));
		m = min_z(m, string_match(sp, f->file));
	}
	sp->loc[id] = m == SIZE_MAX ? 1 : (uint32_t)m + 2;
	return sp->loc[id];
}

/* Count sample SI against suppression K. */
static void
hit(struct pc_suppress *sp, size_t k, size_t si)
{
	const int64_t *vals = pc_sample_values(sp->prof, si);
	struct supp *h = &sp->s[k];
	size_t t;

	h->samples++;
	for (t = 0; t < sp->prof->nsample_types; t++)
		pc_add_sat(&h->values[t], vals[t]);
}

bool
profconv__suppress_sample(struct pc_suppress *sp, size_t si)
{
	const struct pc_sample *s;
	struct pc_stack stk;
	uint32_t m = 1;
	size_t i;

	if (sp == NULL || sp->n == 0)
		return false;
	s = pc_sample(sp->prof, si);
	stk = pc_sample_stack(sp->prof, s);
	for (i = 0; i < s->nlocs && m == 1; i++)	/* leaf first */
		m = location(sp, pc_stack_at(stk, i));
	if (m == 1)
		return false;
	hit(sp, m - 2, si);
	return true;
}

void
profconv__suppress_prepare(struct pc_suppress *sp)
{
	uint32_t id;

	for (id = 1; sp != NULL && sp->n != 0 && id <= sp->prof->nlocations;
	    id++)
		(void)location(sp, id);
}

size_t
profconv__suppress_find(const struct pc_suppress *sp, size_t si)
{
	const struct pc_sample *s;
	struct pc_stack stk;
	uint32_t m = 1;
	size_t i;

	if (sp == NULL || sp->n == 0)
		return 0;
	s = pc_sample(sp->prof, si);
	stk = pc_sample_stack(sp->prof, s);
	for (i = 0; i < s->nlocs && m == 1; i++)	/* leaf first */
		m = sp->loc[pc_stack_at(stk, i)];
	return m == 1 ? 0 : m - 1;
}

void
profconv__suppress_hit(struct pc_suppress *sp, size_t k, size_t si)
{
	hit(sp, k - 1, si);
}

size_t
profconv__suppress_count(const struct pc_suppress *sp)
{
	return sp != NULL ? sp->n : 0;
}

void
profconv__suppress_get(const struct pc_suppress *sp, size_t i,
    struct profconv_suppression *out)
{
	const struct supp *s = &sp->s[i];

	out->pattern = s->pattern;
	out->file = s->line != 0 ? sp->file : "built-in";
	out->line = s->line;
	out->samples = s->samples;
	out->values = s->values;
}

const char *const *
profconv_default_suppressions(void)
{
	return builtin;
}
