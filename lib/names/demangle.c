/* SPDX-License-Identifier: MIT */
/*
 * demangle.c - symbol names made readable: C++ (Itanium) names through
 * libstdc++'s __cxa_demangle, Rust's legacy names (Itanium-like with a
 * hash and $-escapes) and Rust's v0 names ("_R...", RFC 2603) by their
 * own parsers here.
 *
 * The full form is the text GNU c++filt 2.40 prints, down to its quirks
 * (crate disambiguators in brackets, ": type" after const generic
 * values, characters escaped as it does), so that what profconv shows
 * can be compared with c++filt, jeprof and pprof one to one.
 * PC_DEMANGLE_NO_HASH leaves out what only tells builds apart: the
 * legacy "::h<hash>" and v0's crate disambiguators, as rustfilt does.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names/names.h"

/* The Itanium C++ ABI demangler; declared here to avoid a C++ header. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len,
    int *status);

/* Hostile names must not make output or recursion explode. */
#define MAX_OUTPUT (1u << 20)
#define MAX_DEPTH 300

/* --- the output buffer ---------------------------------------------------- */

struct out {
	struct pc_demangler *d;
	size_t len;
	bool err;
};

static void
put(struct out *o, const char *s, size_t n)
{
	size_t cap;
	char *p;

	if (o->err)
		return;
	if (o->len + n + 1 > MAX_OUTPUT) {
		o->err = true;
		return;
	}
	if (o->len + n + 1 > o->d->cap) {
		cap = o->d->cap != 0 ? o->d->cap : 256;
		while (cap < o->len + n + 1)
			cap *= 2;
		p = realloc(o->d->buf, cap);
		if (p == NULL) {
			o->err = true;
			return;
		}
		o->d->buf = p;
		o->d->cap = cap;
	}
	memcpy(o->d->buf + o->len, s, n);
	o->len += n;
	o->d->buf[o->len] = '\0';
}

static void
puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void
putu(struct out *o, uint64_t v, bool hex)
{
	char buf[24];

	snprintf(buf, sizeof(buf), hex ? "%" PRIx64 : "%" PRIu64, v);
	puts_(o, buf);
}

/* --- Rust legacy names ---------------------------------------------------- */

static int
hex_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* One of legacy Rust's "$..$" escapes at P (N bytes): its length, or 0. */
static size_t
legacy_escape(const char *p, size_t n, char *c)
{
	static const struct { const char *esc; char c; } table[] = {
		{ "$SP$", '@' }, { "$BP$", '*' }, { "$RF$", '&' },
		{ "$LT$", '<' }, { "$GT$", '>' }, { "$LP$", '(' },
		{ "$RP$", ')' }, { "$C$", ',' },
	};
	size_t i, k;
	int hi, lo;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		k = strlen(table[i].esc);
		if (n >= k && memcmp(p, table[i].esc, k) == 0) {
			*c = table[i].c;
			return k;
		}
	}
	/* $uXX$: a printable ASCII character by its code. */
	if (n >= 5 && p[1] == 'u' && p[4] == '$') {
		hi = hex_nibble(p[2]);
		lo = hex_nibble(p[3]);
		if (hi >= 0 && hi < 8 && lo >= 0 && (hi << 4 | lo) >= 0x20) {
			*c = (char)(hi << 4 | lo);
			return 5;
		}
	}
	return 0;
}

static void
legacy_ident(struct out *o, const char *p, size_t n)
{
	size_t k;
	char c;

	/* The mangler puts "_" before a leading escape. */
	if (n >= 2 && p[0] == '_' && p[1] == '$') {
		p++;
		n--;
	}
	while (n > 0) {
		if (p[0] == '$') {
			k = legacy_escape(p, n, &c);
			if (k == 0) {
				put(o, p, n);	/* unknown: the rest as is */
				return;
			}
			put(o, &c, 1);
		} else if (p[0] == '.') {
			k = n >= 2 && p[1] == '.' ? 2 : 1;
			puts_(o, k == 2 ? "::" : "-");
		} else {
			for (k = 0; k < n && p[k] != '$' && p[k] != '.'; k++)
				;
			put(o, p, k);
		}
		p += k;
		n -= k;
	}
}

/* Is the identifier P (N bytes) a legacy hash, "h" and 16 hex digits
 * with at least 5 different ones? */
static bool
legacy_hash(const char *p, size_t n)
{
	unsigned seen = 0, count = 0;
	size_t i;
	int v;

	if (n != 17 || p[0] != 'h')
		return false;
	for (i = 1; i < 17; i++) {
		if ((v = hex_nibble(p[i])) < 0)
			return false;
		seen |= 1u << v;
	}
	for (; seen != 0; seen >>= 1)
		count += seen & 1;
	return count >= 5;
}

/*
 * The identifiers of "_ZN...E": their count, or -1 when NAME is no
 * legacy Rust name.  A ".suffix" after the final E (".llvm.NNN") is
 * ignored, as c++filt does.
 */
static int
rust_legacy(struct out *o, const char *name, bool hash)
{
	const char *p = name + 3, *end = name + strlen(name), *last = NULL;
	size_t n, lastn = 0;
	int pass, count;

	/* Cut ".suffix" parts until the name ends with E. */
	while (end > p && end[-1] != 'E') {
		const char *dot = end - 1;

		while (dot > p && *dot != '.')
			dot--;
		if (*dot != '.')
			return -1;
		end = dot;
	}
	if (end <= p)
		return -1;
	end--;			/* the E */
	for (pass = 0; pass < 2; pass++) {
		const char *q = p;

		for (count = 0; q < end; count++) {
			for (n = 0; q < end && *q >= '0' && *q <= '9'; q++) {
				if (n > (size_t)(end - p))
					return -1;
				n = n * 10 + (size_t)(*q - '0');
			}
			if (n == 0 || n > (size_t)(end - q))
				return -1;
			if (pass == 0) {
				last = q;
				lastn = n;
			} else if (hash || q != last) {
				if (count > 0)
					puts_(o, "::");
				legacy_ident(o, q, n);
			}
			q += n;
		}
		if (pass == 0 && (count < 2 || !legacy_hash(last, lastn)))
			return -1;
	}
	return count;
}

/* Only [_0-9a-zA-Z$.:] occur in legacy Rust names, up to a suffix. */
static bool
legacy_chars(const char *name)
{
	for (; *name != '\0'; name++)
		if (!(*name == '_' || *name == '$' || *name == '.' ||
		    *name == ':' || *name == '@' ||
		    (*name >= '0' && *name <= '9') ||
		    (*name >= 'a' && *name <= 'z') ||
		    (*name >= 'A' && *name <= 'Z')))
			return false;
	return true;
}

/* --- Rust v0 names -------------------------------------------------------- */

struct v0 {
	const char *s;			/* the name after "_R" */
	size_t len, pos;
	struct out *o;
	bool verbose;			/* c++filt's form: hashes and types */
	bool skip;			/* parse without printing */
	bool err;
	unsigned depth;
	uint64_t bound;			/* lifetimes bound by for<...> */
};

static char
peek(const struct v0 *v)
{
	return v->pos < v->len ? v->s[v->pos] : '\0';
}

static bool
eat(struct v0 *v, char c)
{
	if (v->err || peek(v) != c)
		return false;
	v->pos++;
	return true;
}

static char
next(struct v0 *v)
{
	char c = peek(v);

	if (c == '\0')
		v->err = true;
	else
		v->pos++;
	return c;
}

static void
print(struct v0 *v, const char *s)
{
	if (!v->skip && !v->err)
		puts_(v->o, s);
}

static void
print_n(struct v0 *v, const char *s, size_t n)
{
	if (!v->skip && !v->err)
		put(v->o, s, n);
}

static void
print_u(struct v0 *v, uint64_t x, bool hex)
{
	if (!v->skip && !v->err)
		putu(v->o, x, hex);
}

/* A base-62 number: "_" is 0, digits then "_" are their value plus 1. */
static uint64_t
int62(struct v0 *v)
{
	uint64_t x = 0;
	int d;
	char c;

	if (eat(v, '_'))
		return 0;
	while (!v->err && !eat(v, '_')) {
		c = next(v);
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'z')
			d = 10 + c - 'a';
		else if (c >= 'A' && c <= 'Z')
			d = 36 + c - 'A';
		else {
			v->err = true;
			return 0;
		}
		if (x > (UINT64_MAX - (uint64_t)d) / 62) {
			v->err = true;
			return 0;
		}
		x = x * 62 + (uint64_t)d;
	}
	if (v->err || x == UINT64_MAX) {
		v->err = true;
		return 0;
	}
	return x + 1;
}

/* An optional TAG and base-62 number: 0 without, else the number + 1. */
static uint64_t
opt_int62(struct v0 *v, char tag)
{
	uint64_t x;

	if (!eat(v, tag))
		return 0;
	x = int62(v);
	if (x == UINT64_MAX)
		v->err = true;
	return x + 1;
}

struct ident {
	const char *p;
	size_t n;
	bool puny;
};

static struct ident
parse_ident(struct v0 *v)
{
	struct ident id = { NULL, 0, false };
	size_t n;
	char c;

	id.puny = eat(v, 'u');
	c = next(v);
	if (c < '0' || c > '9') {
		v->err = true;
		return id;
	}
	n = (size_t)(c - '0');
	if (c != '0')
		while (peek(v) >= '0' && peek(v) <= '9') {
			if (n > v->len) {
				v->err = true;
				return id;
			}
			n = n * 10 + (size_t)(next(v) - '0');
		}
	/* A separator before bytes that start with a digit or "_". */
	(void)eat(v, '_');
	if (n > v->len - v->pos) {
		v->err = true;
		return id;
	}
	id.p = v->s + v->pos;
	id.n = n;
	v->pos += n;
	return id;
}

/* Append code point CP as UTF-8. */
static void
print_utf8(struct v0 *v, uint32_t cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	print_n(v, b, n);
}

#define PUNY_MAX 256		/* code points in one identifier */

static uint32_t
puny_adapt(uint32_t delta, uint32_t points, bool first)
{
	uint32_t k = 0;

	delta = first ? delta / 700 : delta / 2;
	delta += delta / points;
	while (delta > ((36 - 1) * 26) / 2) {
		delta /= 36 - 1;
		k += 36;
	}
	return k + (36 * delta) / (delta + 38);
}

/*
 * Decode a Punycode identifier (RFC 3492; Rust puts "_" where the RFC
 * has "-" between the basic characters and the encoded ones).
 */
static void
print_punycode(struct v0 *v, struct ident id)
{
	uint32_t cps[PUNY_MAX], n = 128, i = 0, bias = 72, w, k, t, digit;
	size_t ncp = 0, j, basic = 0, pos;
	bool first = true;
	uint64_t add;
	char c;

	for (j = id.n; j > 0; j--)
		if (id.p[j - 1] == '_') {
			basic = j - 1;
			break;
		}
	if (basic > PUNY_MAX) {
		v->err = true;
		return;
	}
	for (j = 0; j < basic; j++)
		cps[ncp++] = (unsigned char)id.p[j];
	pos = basic > 0 ? basic + 1 : 0;
	while (pos < id.n && !v->err) {
		uint32_t old = i;

		for (w = 1, k = 36;; k += 36) {
			if (pos >= id.n) {
				v->err = true;
				return;
			}
			c = id.p[pos++];
			if (c >= 'a' && c <= 'z')
				digit = (uint32_t)(c - 'a');
			else if (c >= '0' && c <= '9')
				digit = (uint32_t)(c - '0') + 26;
			else {
				v->err = true;
				return;
			}
			add = (uint64_t)digit * w;
			if (add > UINT32_MAX - i) {
				v->err = true;
				return;
			}
			i += (uint32_t)add;
			t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
			if (digit < t)
				break;
			if ((uint64_t)w * (36 - t) > UINT32_MAX) {
				v->err = true;
				return;
			}
			w *= 36 - t;
		}
		if (ncp >= PUNY_MAX) {
			v->err = true;
			return;
		}
		bias = puny_adapt(i - old, (uint32_t)ncp + 1, first);
		first = false;
		if (i / (ncp + 1) > 0x10ffff - n) {
			v->err = true;
			return;
		}
		n += i / (uint32_t)(ncp + 1);
		i %= (uint32_t)(ncp + 1);
		memmove(&cps[i + 1], &cps[i], (ncp - i) * sizeof(cps[0]));
		cps[i++] = n;
		ncp++;
	}
	for (j = 0; j < ncp && !v->err; j++)
		print_utf8(v, cps[j]);
}

static void
print_ident(struct v0 *v, struct ident id)
{
	if (id.puny)
		print_punycode(v, id);
	else
		print_n(v, id.p, id.n);
}

static void print_path(struct v0 *v, bool in_value);
static void print_type(struct v0 *v);
static void print_const(struct v0 *v);

/* Follow a backreference: parse at its target with FN, then come back. */
static void
backref(struct v0 *v, void (*fn)(struct v0 *), void (*pfn)(struct v0 *,
    bool), bool in_value)
{
	size_t at = v->pos - 1, save;
	uint64_t target = int62(v);

	if (v->err)
		return;
	if (target >= at) {
		v->err = true;	/* only backwards: no loops */
		return;
	}
	if (v->skip)
		return;
	save = v->pos;
	v->pos = (size_t)target;
	if (fn != NULL)
		fn(v);
	else
		pfn(v, in_value);
	v->pos = save;
}

static void
print_lifetime(struct v0 *v, uint64_t index)
{
	uint64_t depth;
	char c[3] = "'a";

	if (index == 0) {
		print(v, "'_");
		return;
	}
	depth = v->bound - index;	/* wraps like c++filt's when unbound */
	if (depth < 26) {
		c[1] = (char)('a' + depth);
		print(v, c);
		return;
	}
	print(v, "'_");
	print_u(v, depth, false);
}

/* "for<'a, 'b> " for a binder; the lifetimes count as bound after it. */
static void
print_binder(struct v0 *v)
{
	uint64_t n = opt_int62(v, 'G'), i;

	if (v->err || n == 0)
		return;
	print(v, "for<");
	for (i = 0; i < n && !v->err; i++) {
		if (i > 0)
			print(v, ", ");
		v->bound++;
		print_lifetime(v, 1);
	}
	print(v, "> ");
}

static void
print_generic_arg(struct v0 *v)
{
	if (eat(v, 'L'))
		print_lifetime(v, int62(v));
	else if (eat(v, 'K'))
		print_const(v);
	else
		print_type(v);
}

/* The arguments up to "E", separated by ", ". */
static void
print_generic_args(struct v0 *v)
{
	unsigned i;

	for (i = 0; !v->err && !eat(v, 'E'); i++) {
		if (i > 0)
			print(v, ", ");
		print_generic_arg(v);
	}
}

static void
print_path(struct v0 *v, bool in_value)
{
	struct ident id;
	uint64_t dis;
	bool was;
	char tag, ns;

	if (v->err || ++v->depth > MAX_DEPTH) {
		v->err = true;
		return;
	}
	switch (tag = next(v)) {
	case 'C':
		dis = opt_int62(v, 's');
		id = parse_ident(v);
		print_ident(v, id);
		if (v->verbose) {
			print(v, "[");
			print_u(v, dis, true);
			print(v, "]");
		}
		break;
	case 'N':
		ns = next(v);
		if (!((ns >= 'a' && ns <= 'z') || (ns >= 'A' && ns <= 'Z'))) {
			v->err = true;
			break;
		}
		print_path(v, in_value);
		dis = opt_int62(v, 's');
		id = parse_ident(v);
		if (ns >= 'A' && ns <= 'Z') {
			char c[2] = { ns, '\0' };

			print(v, "::{");
			print(v, ns == 'C' ? "closure" : ns == 'S' ? "shim" : c);
			if (id.n > 0) {
				print(v, ":");
				print_ident(v, id);
			}
			print(v, "#");
			print_u(v, dis, false);
			print(v, "}");
		} else if (id.n > 0) {
			print(v, "::");
			print_ident(v, id);
		}
		break;
	case 'M':
	case 'X':
		/* The impl's own path is not shown. */
		(void)opt_int62(v, 's');
		was = v->skip;
		v->skip = true;
		print_path(v, in_value);
		v->skip = was;
		/* FALLTHROUGH */
	case 'Y':
		print(v, "<");
		print_type(v);
		if (tag != 'M') {
			print(v, " as ");
			print_path(v, false);
		}
		print(v, ">");
		break;
	case 'I':
		print_path(v, in_value);
		if (in_value)
			print(v, "::");
		print(v, "<");
		print_generic_args(v);
		print(v, ">");
		break;
	case 'B':
		backref(v, NULL, print_path, in_value);
		break;
	default:
		v->err = true;
		break;
	}
	v->depth--;
}

static const char *
basic_type(char tag)
{
	switch (tag) {
	case 'a': return "i8";
	case 'b': return "bool";
	case 'c': return "char";
	case 'd': return "f64";
	case 'e': return "str";
	case 'f': return "f32";
	case 'h': return "u8";
	case 'i': return "isize";
	case 'j': return "usize";
	case 'l': return "i32";
	case 'm': return "u32";
	case 'n': return "i128";
	case 'o': return "u128";
	case 's': return "i16";
	case 't': return "u16";
	case 'u': return "()";
	case 'v': return "...";
	case 'x': return "i64";
	case 'y': return "u64";
	case 'z': return "!";
	case 'p': return "_";
	default: return NULL;
	}
}

static void
print_fn_sig(struct v0 *v)
{
	uint64_t bound = v->bound;
	struct ident abi;
	unsigned i;
	size_t k;

	print_binder(v);
	if (eat(v, 'U'))
		print(v, "unsafe ");
	if (eat(v, 'K')) {
		print(v, "extern \"");
		if (eat(v, 'C'))
			print(v, "C");
		else {
			abi = parse_ident(v);
			if (abi.puny)
				v->err = true;
			/* "rust_call" is the ABI "rust-call". */
			for (k = 0; k < abi.n && !v->err; k++)
				print_n(v, abi.p[k] == '_' ? "-" : &abi.p[k], 1);
		}
		print(v, "\" ");
	}
	print(v, "fn(");
	for (i = 0; !v->err && !eat(v, 'E'); i++) {
		if (i > 0)
			print(v, ", ");
		print_type(v);
	}
	print(v, ")");
	if (!eat(v, 'u')) {
		print(v, " -> ");
		print_type(v);
	}
	v->bound = bound;
}

/*
 * A trait path whose generic arguments stay open for associated type
 * bindings ("Fn<(u64,), Output = u64>"); true when a "<" was printed.
 */
static bool
print_path_open(struct v0 *v)
{
	size_t at, save;
	uint64_t target;
	bool open;

	if (eat(v, 'B')) {
		at = v->pos - 1;
		target = int62(v);
		if (v->err || target >= at || ++v->depth > MAX_DEPTH) {
			v->err = true;
			return false;
		}
		save = v->pos;
		v->pos = (size_t)target;
		open = print_path_open(v);
		v->pos = save;
		v->depth--;
		return open;
	}
	if (eat(v, 'I')) {
		print_path(v, false);
		print(v, "<");
		print_generic_args(v);
		return true;
	}
	print_path(v, false);
	return false;
}

static void
print_dyn_bounds(struct v0 *v)
{
	uint64_t bound = v->bound;
	struct ident name;
	unsigned i;
	bool open;

	print_binder(v);
	for (i = 0; !v->err && !eat(v, 'E'); i++) {
		if (i > 0)
			print(v, " + ");
		open = print_path_open(v);
		while (!v->err && eat(v, 'p')) {
			print(v, open ? ", " : "<");
			open = true;
			name = parse_ident(v);
			print_ident(v, name);
			print(v, " = ");
			print_type(v);
		}
		if (open)
			print(v, ">");
	}
	v->bound = bound;
}

static void
print_type(struct v0 *v)
{
	const char *basic;
	uint64_t lt;
	unsigned i;
	char tag;

	if (v->err || ++v->depth > MAX_DEPTH) {
		v->err = true;
		return;
	}
	tag = next(v);
	if ((basic = basic_type(tag)) != NULL) {
		print(v, basic);
		v->depth--;
		return;
	}
	switch (tag) {
	case 'R':
	case 'Q':
		print(v, "&");
		if (eat(v, 'L') && (lt = int62(v)) != 0) {
			print_lifetime(v, lt);
			print(v, " ");
		}
		if (tag == 'Q')
			print(v, "mut ");
		print_type(v);
		break;
	case 'P':
	case 'O':
		print(v, tag == 'P' ? "*const " : "*mut ");
		print_type(v);
		break;
	case 'A':
	case 'S':
		print(v, "[");
		print_type(v);
		if (tag == 'A') {
			print(v, "; ");
			print_const(v);
		}
		print(v, "]");
		break;
	case 'T':
		print(v, "(");
		for (i = 0; !v->err && !eat(v, 'E'); i++) {
			if (i > 0)
				print(v, ", ");
			print_type(v);
		}
		if (i == 1)
			print(v, ",");
		print(v, ")");
		break;
	case 'F':
		print_fn_sig(v);
		break;
	case 'D':
		print(v, "dyn ");
		print_dyn_bounds(v);
		if (!eat(v, 'L'))
			v->err = true;
		else if ((lt = int62(v)) != 0) {
			print(v, " + ");
			print_lifetime(v, lt);
		}
		break;
	case 'B':
		backref(v, print_type, NULL, false);
		break;
	default:
		v->pos--;
		print_path(v, false);
		break;
	}
	v->depth--;
}

/*
 * The hex digits of a const up to "_" (at least one): their value in
 * *X, or more than 16 of them (*BIG, the value then is not kept).
 */
static size_t
const_hex(struct v0 *v, uint64_t *x, bool *big)
{
	size_t n = 0;
	int d;

	*x = 0;
	*big = false;
	while (!v->err && !eat(v, '_')) {
		if ((d = hex_nibble(next(v))) < 0) {
			v->err = true;
			return 0;
		}
		*x = *x << 4 | (uint64_t)d;
		n++;
	}
	if (n == 0)
		v->err = true;
	*big = n > 16;
	return n;
}

static void
print_char(struct v0 *v, uint64_t c)
{
	char buf[2] = { (char)c, '\0' };

	/* c++filt 2.40 escapes these three and non-printable ASCII only. */
	print(v, "'");
	if (c == '\t')
		print(v, "\\t");
	else if (c == '\r')
		print(v, "\\r");
	else if (c == '\n')
		print(v, "\\n");
	else if (c >= 0x20 && c < 0x7f)
		print(v, buf);
	else {
		print(v, "\\u{");
		print_u(v, c, true);
		print(v, "}");
	}
	print(v, "'");
}

static void
print_const(struct v0 *v)
{
	size_t start, n;
	uint64_t x;
	bool big;
	char tag;

	if (v->err || ++v->depth > MAX_DEPTH) {
		v->err = true;
		return;
	}
	if (eat(v, 'B')) {
		backref(v, print_const, NULL, false);
		v->depth--;
		return;
	}
	tag = next(v);
	switch (tag) {
	case 'p':
		print(v, "_");
		v->depth--;
		return;
	case 'a': case 's': case 'l': case 'x': case 'n': case 'i':
		if (eat(v, 'n'))
			print(v, "-");
		/* FALLTHROUGH */
	case 'h': case 't': case 'm': case 'y': case 'o': case 'j':
		start = v->pos;
		n = const_hex(v, &x, &big);
		if (v->err)
			break;
		if (big) {
			/* What c++filt 2.40 prints: its window is one off. */
			print(v, "0x");
			print_n(v, v->s + start + 1, n);
		} else
			print_u(v, x, false);
		break;
	case 'b':
		(void)const_hex(v, &x, &big);
		if (big || x > 1)
			v->err = true;
		print(v, x != 0 ? "true" : "false");
		break;
	case 'c':
		(void)const_hex(v, &x, &big);
		if (big || x > 0x10ffff)
			v->err = true;
		print_char(v, x);
		break;
	default:
		v->err = true;
		break;
	}
	if (v->verbose && !v->err) {
		print(v, ": ");
		print(v, basic_type(tag));
	}
	v->depth--;
}

/* Demangle the v0 name NAME ("_R..."); false when it is none. */
static bool
rust_v0(struct out *o, const char *name, bool verbose)
{
	struct v0 v;
	const char *dot = strchr(name, '.');
	size_t i;

	memset(&v, 0, sizeof(v));
	v.s = name + 2;
	v.len = (dot != NULL ? (size_t)(dot - name) : strlen(name)) - 2;
	v.o = o;
	v.verbose = verbose;
	for (i = 0; i < v.len; i++)
		if (!(v.s[i] == '_' || (v.s[i] >= '0' && v.s[i] <= '9') ||
		    (v.s[i] >= 'a' && v.s[i] <= 'z') ||
		    (v.s[i] >= 'A' && v.s[i] <= 'Z')))
			return false;
	/* An encoding version: none is defined yet. */
	if (peek(&v) >= '0' && peek(&v) <= '9')
		return false;
	print_path(&v, true);
	/* The instantiating crate is not shown. */
	if (!v.err && peek(&v) >= 'A' && peek(&v) <= 'Z') {
		v.skip = true;
		print_path(&v, false);
	}
	return !v.err && v.pos == v.len && !o->err;
}

/* --- the entry point ------------------------------------------------------ */

static const char *
cxx(struct pc_demangler *d, const char *name)
{
	size_t len = d->cap;
	char *out;
	int status = 0;

	/* The buffer must come from malloc: __cxa_demangle may realloc it. */
	out = __cxa_demangle(name, d->buf, &len, &status);
	if (out == NULL)
		return NULL;	/* d->buf is untouched when it fails */
	/* On success it owns the buffer: ours, or a larger one that
	 * replaced it (ours then was freed); LEN is its size. */
	d->buf = out;
	d->cap = len;
	return status == 0 ? out : NULL;
}

const char *
profconv__demangle(const char *name, struct pc_demangler *d, unsigned flags)
{
	struct out o = { d, 0, false };
	bool hash = (flags & PC_DEMANGLE_NO_HASH) == 0;

	/*
	 * Only names with a known prefix: anything else (a C name, D)
	 * would either fail or, worse, demangle as a type ("i" is "int").
	 */
	if (name == NULL)
		return NULL;
	if (strncmp(name, "_R", 2) == 0)
		return rust_v0(&o, name, hash) ? d->buf : NULL;
	if (strncmp(name, "_ZN", 3) == 0 && legacy_chars(name) &&
	    rust_legacy(&o, name, hash) > 0 && !o.err)
		return d->buf;
	if (strncmp(name, "_Z", 2) != 0)
		return NULL;
	return cxx(d, name);
}

void
profconv__demangler_free(struct pc_demangler *d)
{
	free(d->buf);
	d->buf = NULL;
	d->cap = 0;
}
