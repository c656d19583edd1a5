/* SPDX-License-Identifier: MIT */
/*
 * rust_v0.c - Rust's v0 symbol names ("_R...", RFC 2603) as GNU c++filt
 * 2.40 prints them: a recursive parser over paths, types, generic
 * arguments and consts, with back-references and punycode identifiers.
 * It writes through demangle.c's output buffer; demangle.c's entry point
 * calls it for names that start with "_R".
 */

#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "names/demangle.h"

/* Hostile names must not make recursion explode. */
#define MAX_DEPTH 300

struct v0 {
	const char *s;			/* the name after "_R" */
	size_t len, pos;
	struct pc_dm_out *o;
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
		profconv__dm_puts(v->o, s);
}

static void
print_n(struct v0 *v, const char *s, size_t n)
{
	if (!v->skip && !v->err)
		profconv__dm_put(v->o, s, n);
}

static void
print_u(struct v0 *v, uint64_t x, bool hex)
{
	if (!v->skip && !v->err)
		profconv__dm_putu(v->o, x, hex);
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

/* One level deeper: false, with V->err set, when V has failed already
 * or the nesting passes MAX_DEPTH.  The caller's way out decrements. */
static bool
enter(struct v0 *v)
{
	if (v->err || ++v->depth > MAX_DEPTH) {
		v->err = true;
		return false;
	}
	return true;
}

static void
print_path(struct v0 *v, bool in_value)
{
	struct ident id;
	uint64_t dis;
	bool was;
	char tag, ns;

	if (!enter(v))
		return;
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
		if (target >= at || !enter(v)) {
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

	if (!enter(v))
		return;
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
		if ((d = profconv__dm_hex_nibble(next(v))) < 0) {
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

	if (!enter(v))
		return;
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

bool
profconv__demangle_rust_v0(struct pc_dm_out *o, const char *name, bool verbose)
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
