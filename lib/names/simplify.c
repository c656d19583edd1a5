/* SPDX-License-Identifier: MIT */
/*
 * simplify.c - function names as pprof shows them.
 *
 * pprof's symbolizer demangles in one of four modes: the default, simple,
 * drops parameter lists, template arguments and return types
 * ("app::Pool::grow"); "templates" keeps the template arguments; "full"
 * is the demangler's whole text (without clone suffixes); "none" keeps the
 * linker's name.  The same rules are applied here to text that is already
 * demangled, so that a profile that carries full names (written by
 * another tool, or by an older profconv) shows the same names as one
 * symbolized in the chosen mode.
 *
 * Only C++ and Rust names are touched (the caller decides: a mangled
 * system name, or "::" in the name); Go's "main.(*T).M" has parentheses
 * that are not a parameter list.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "names/names.h"

static bool
is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '$' ||
	    (unsigned char)c >= 0x80;
}

/* Does the text before P (from START) end with "operator"? */
static bool
after_operator(const char *start, const char *p)
{
	return p - start >= 8 && memcmp(p - 8, "operator", 8) == 0 &&
	    (p - start == 8 || !is_ident(p[-9]));
}

/*
 * Length of the operator symbol at P, right after the keyword "operator"
 * ("<<=", "()", "->*", "[]", ...), so that its brackets are not taken for
 * a template or parameter list.  0 when P starts no such symbol.
 */
static size_t
operator_symbol(const char *p)
{
	static const char *const ops[] = {
		"<=>", "<<=", ">>=", "->*", "()", "[]", "<<", ">>", "<=",
		">=", "->", "<", ">",
	};
	size_t i, n;

	for (i = 0; i < PC_ARRAY_LEN(ops); i++) {
		n = strlen(ops[i]);
		if (strncmp(p, ops[i], n) == 0)
			return n;
	}
	return 0;
}

/* Does the text before P (from START) end with an operator symbol
 * ("operator<", "operator<<") and a space, as in "operator< <int>",
 * where the template arguments of an operator function follow? */
static bool
after_operator_symbol(const char *start, const char *p)
{
	const char *q;

	if (p - start < 10 || p[-1] != ' ')
		return false;
	for (q = p - 2; q > start && p - 1 - q < 3 && !is_ident(*q); q--)
		if (after_operator(start, q) && operator_symbol(q) ==
		    (size_t)(p - 1 - q))
			return true;
	return false;
}

/* Does the text before P (from START) end with an operator's name,
 * "operator" and its symbol ("operator<<", "operator==")?  Then a '('
 * at P opens its parameter list. */
static bool
after_operator_name(const char *start, const char *p)
{
	const char *q = p;

	while (q > start && p - q < 3 && q[-1] != '\0' &&
	    strchr("+-*/%^&|~!=<>,", q[-1]) != NULL)
		q--;
	return q < p && after_operator(start, q);
}

/* Does the text before P (from START) end with "decltype" (and a space)?
 * Then the parentheses at P are a type, not a parameter list. */
static bool
after_decltype(const char *start, const char *p)
{
	if (p > start && p[-1] == ' ')
		p--;
	return p - start >= 8 && memcmp(p - 8, "decltype", 8) == 0 &&
	    (p - start == 8 || !is_ident(p[-9]));
}

/* Skip a balanced group that starts at P with OPEN; returns the position
 * after its CLOSE (or the end of the text when it is not closed). */
static const char *
skip_group(const char *p, const char *end, char open, char close)
{
	int depth = 0;

	for (; p < end; p++) {
		if (*p == open)
			depth++;
		else if (*p == close && --depth == 0)
			return p + 1;
	}
	return end;
}

/* Skip template arguments that start at P with '<': parenthesized
 * expressions in them ("enable_if<(sizeof (T)>2), void>") are opaque, so
 * their '>' closes nothing. */
static const char *
skip_template(const char *p, const char *end)
{
	int depth = 0;

	for (; p < end; p++) {
		if (*p == '(')
			p = skip_group(p, end, '(', ')') - 1;
		else if (*p == '<')
			depth++;
		else if (*p == '>' && --depth == 0)
			return p + 1;
	}
	return end;
}

/* Is P the start of a Rust crate disambiguator, "[" hex digits "]"? */
static size_t
disambiguator(const char *p, const char *end)
{
	const char *q = p + 1;

	if (*p != '[')
		return 0;
	while (q < end && ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f')))
		q++;
	return q > p + 1 && q < end && *q == ']' ? (size_t)(q + 1 - p) : 0;
}

/* Past the qualifiers of a member function after its parameter list:
 * " const", " volatile", " &", " &&", " noexcept". */
static const char *
skip_qualifiers(const char *p, const char *end)
{
	static const char *const quals[] = {
		" const", " volatile", " &&", " &", " noexcept", " restrict",
	};
	size_t i, n;

	for (i = 0; i < PC_ARRAY_LEN(quals); i++) {
		n = strlen(quals[i]);
		if ((size_t)(end - p) >= n && strncmp(p, quals[i], n) == 0 &&
		    (p + n == end || !is_ident(p[n]))) {
			p += n;
			i = (size_t)-1;	/* another may follow */
		}
	}
	return p;
}

struct out {
	char *buf;
	size_t len, cap;
	int rc;
};

static void
put(struct out *o, const char *s, size_t n)
{
	if (o->rc != 0 || n == 0)
		return;
	o->rc = PC_GROW(o->buf, o->cap, o->len, n + 1);
	if (o->rc == 0) {
		memcpy(o->buf + o->len, s, n);
		o->len += n;
		o->buf[o->len] = '\0';
	}
}

/*
 * Copy [P, END) to O without parameter lists (and, with NO_TEMPLATES,
 * template arguments and Rust crate disambiguators).  Brace groups ("{lambda(int)#1}") are kept whole;
 * "(anonymous namespace)" stays; "<T as Trait>" qualified paths keep their
 * brackets.
 */
static void
strip(struct out *o, const char *p, const char *end, bool no_templates)
{
	const char *start = p, *q;
	size_t n;

	while (p < end && o->rc == 0) {
		if (after_operator(start, p) && (n = operator_symbol(p)) != 0) {
			put(o, p, n);
			p += n;
			continue;
		}
		switch (*p) {
		case '{':
			q = skip_group(p, end, '{', '}');
			put(o, p, (size_t)(q - p));
			p = q;
			continue;
		case '(':
			if (end - p >= 21 &&
			    strncmp(p, "(anonymous namespace)", 21) == 0) {
				put(o, p, 21);
				p += 21;
				continue;
			}
			/* A type, not a parameter list: decltype's operand,
			 * and a group that follows no name ("operator<<" and
			 * "operator()" are names): Rust's "()" and "(A, B)". */
			if (after_decltype(start, p) || p == start ||
			    !(is_ident(p[-1]) || p[-1] == '>' || p[-1] == ']' ||
			    p[-1] == ')' || after_operator_name(start, p))) {
				q = skip_group(p, end, '(', ')');
				put(o, p, (size_t)(q - p));
				p = q;
				continue;
			}
			/* A parameter list, and the qualifiers after it. */
			p = skip_qualifiers(skip_group(p, end, '(', ')'), end);
			continue;
		case '<':
			if (p > start && (is_ident(p[-1]) || p[-1] == '>' ||
			    after_operator_symbol(start, p) ||
			    after_operator_name(start, p))) {
				q = skip_template(p, end);
				if (no_templates) {
					if (p[-1] == ' ' && o->len > 0)	/* "operator< " */
						o->buf[--o->len] = '\0';
					p = q;
					continue;
				}
				/* Keep the arguments as they are: function
				 * types in them are types, not parameters. */
				put(o, p, (size_t)(q - p));
				p = q;
				continue;
			}
			/* Rust's turbofish, "path::<T>": generic arguments
			 * too, and the "::" before them goes with them. */
			if (p - start >= 2 && p[-1] == ':' && p[-2] == ':') {
				q = skip_group(p, end, '<', '>');
				if (no_templates) {
					if (o->len >= 2 && o->buf[o->len - 1] == ':')
						o->buf[o->len -= 2] = '\0';
					p = q;
					continue;
				}
				put(o, p, (size_t)(q - p));
				p = q;
				continue;
			}
			/* A qualified path "<T as Trait>": keep the brackets. */
			put(o, p, 1);
			p++;
			continue;
		case ' ':
			/* " [clone .cold]" and the like: pprof drops them. */
			if (end - p >= 8 && strncmp(p, " [clone ", 8) == 0) {
				p = skip_group(p + 1, end, '[', ']');
				continue;
			}
			break;
		case '[':
			if (no_templates && (n = disambiguator(p, end)) != 0) {
				p += n;
				continue;
			}
			break;
		default:
			break;
		}
		put(o, p, 1);
		p++;
	}
}

/* Drop a return type: the text up to the last space at depth 0 that is
 * not part of "operator new" and the like. */
static size_t
return_type_end(const char *s, size_t n)
{
	size_t i, cut = 0;
	int depth = 0;

	for (i = 0; i < n; i++) {
		char c = s[i];
		size_t k;

		if (after_operator(s, s + i) && (k = operator_symbol(s + i)) != 0) {
			/* "operator<" opens nothing, and in "operator< <int>"
			 * the space ends no return type. */
			i += k - 1;
			if (i + 1 < n && s[i + 1] == ' ')
				i++;
			continue;
		}
		if (c == '(') {
			/* Parentheses hold no return type's end, and their
			 * '<' and '>' are operators, not brackets. */
			i = (size_t)(skip_group(s + i, s + n, '(', ')') - s) - 1;
			continue;
		}
		if (c == '<' || c == '[' || c == '{')
			depth++;
		else if ((c == '>' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (c == ' ' && depth == 0 && !after_operator(s, s + i) &&
		    i + 1 < n)
			cut = i + 1;
	}
	return cut;
}

/* " [clone .isra.0]" suffixes alone, for the full mode. */
static void
strip_clones(struct out *o, const char *p, const char *end)
{
	const char *q;

	while (p < end && o->rc == 0) {
		q = p;
		while (q < end && !(end - q >= 8 && strncmp(q, " [clone ", 8) == 0))
			q++;
		put(o, p, (size_t)(q - p));
		if (q == end)
			break;
		p = skip_group(q + 1, end, '[', ']');
	}
}

int
profconv__name_simplify(const char *name, size_t len,
    enum profconv_demangle mode, char **buf, size_t *cap, size_t *out_len)
{
	struct out o = { *buf, 0, *cap, 0 };
	size_t cut;

	switch (mode) {
	case PROFCONV_DEMANGLE_SIMPLE:
	case PROFCONV_DEMANGLE_TEMPLATES:
		strip(&o, name, name + len, mode == PROFCONV_DEMANGLE_SIMPLE);
		break;
	case PROFCONV_DEMANGLE_FULL:
		strip_clones(&o, name, name + len);
		break;
	default:
		put(&o, name, len);
		break;
	}
	if (o.rc == 0 && o.len == 0)
		put(&o, name, len);	/* nothing left: show it as it was */
	if (o.rc == 0 && o.len == 0) {
		/* An empty name: the result is "", not what BUF held. */
		o.rc = PC_GROW(o.buf, o.cap, 0, 1);
		if (o.rc == 0)
			o.buf[0] = '\0';
	}
	*buf = o.buf;
	*cap = o.cap;
	if (o.rc != 0)
		return o.rc;
	if (o.len == 0) {
		*out_len = 0;
		return 0;
	}
	if (mode == PROFCONV_DEMANGLE_SIMPLE ||
	    mode == PROFCONV_DEMANGLE_TEMPLATES) {
		cut = return_type_end(o.buf, o.len);
		memmove(o.buf, o.buf + cut, o.len - cut + 1);
		o.len -= cut;
	}
	*out_len = o.len;
	return 0;
}

bool
profconv__name_is_mangled(const char *name)
{
	return strncmp(name, "_Z", 2) == 0 || strncmp(name, "__Z", 3) == 0 ||
	    (strncmp(name, "_R", 2) == 0 && name[2] >= 'A' && name[2] <= 'Z');
}

bool
profconv__name_is_cxx(const char *name)
{
	return strstr(name, "::") != NULL;
}

int
profconv_demangle_parse(const char *text, enum profconv_demangle *out)
{
	static const char *const modes[] = { "simple", "templates", "full",
		"none" };
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(modes); i++)
		if (strcmp(text, modes[i]) == 0) {
			*out = (enum profconv_demangle)i;
			return 0;
		}
	return profconv__fail(PROFCONV_EINVAL, "unknown demangle mode '%s' "
	    "(use simple, templates, full or none)", text);
}

int
profconv__namer_name(struct pc_namer *n, const struct profconv_profile *prof,
    uint32_t fid, const char **out, size_t *out_len)
{
	const struct pc_function *f = pc_function(prof, fid);
	const char *name = profconv__pstr(prof, f->name);
	const char *sys = profconv__pstr(prof, f->system_name);
	const char *full = NULL;
	bool mangled = profconv__name_is_mangled(sys);
	int rc;

	if (n->mode == PROFCONV_DEMANGLE_NONE) {
		*out = *sys != '\0' ? sys : name;
		*out_len = strlen(*out);
		return 0;
	}
	/* The full text from the linker's name when there is one: the
	 * profile's own name may be simplified already (no template
	 * arguments left for the templates mode), or be that mangled name
	 * itself (written with demangle none), which pprof demangles. */
	if (mangled && (n->mode != PROFCONV_DEMANGLE_SIMPLE || *name == '\0' ||
	    strcmp(name, sys) == 0))
		full = profconv__demangle(sys, &n->dm,
		    n->mode == PROFCONV_DEMANGLE_FULL ? 0 :
		    PC_DEMANGLE_NO_HASH);
	if (full != NULL)
		name = full;
	else if (*name == '\0')
		name = sys;
	if (full == NULL && !mangled && !profconv__name_is_cxx(name)) {
		*out = name;
		*out_len = strlen(name);
		return 0;
	}
	rc = profconv__name_simplify(name, strlen(name), n->mode, &n->buf,
	    &n->cap, out_len);
	*out = n->buf;
	return rc;
}

void
profconv__namer_free(struct pc_namer *n)
{
	profconv__demangler_free(&n->dm);
	free(n->buf);
	n->buf = NULL;
	n->cap = 0;
}
