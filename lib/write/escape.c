/* SPDX-License-Identifier: MIT */
/*
 * escape.c - names as XML and JSON text, numbers for people: the one
 * place every writer (SVG, speedscope, the diff and trend JSON) turns a
 * name into markup or a string literal, so a name is spelt the same in
 * every output.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "write/write.h"

/* Length of the well-formed UTF-8 sequence at P, of AVAIL bytes (>= 1),
 * 0 when it is not one. */
static size_t
sequence_in(const unsigned char *p, size_t avail)
{
	size_t n = *p < 0x80 ? 1 : *p >= 0xf8 ? 0 : *p >= 0xf0 ? 4 :
	    *p >= 0xe0 ? 3 : *p >= 0xc2 ? 2 : 0;

	if (n > avail || (n > 1 && !profconv__utf8_valid((const char *)p, n)))
		return 0;
	return n;
}

/* The same in a NUL-terminated string (the NUL ends any sequence). */
static size_t
sequence(const unsigned char *p)
{
	return sequence_in(p, strnlen((const char *)p, 4));
}

size_t
profconv__utf8_chars(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0, k;

	while (*p != '\0') {
		k = sequence(p);
		p += k != 0 ? k : 1;
		n++;
	}
	return n;
}

void
profconv__xml_put(FILE *fp, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k;

	for (; *p != '\0' && max != 0; max--, p += k != 0 ? k : 1) {
		k = sequence(p);
		switch (k == 1 ? *p : 0x100) {
		case '&': fputs("&amp;", fp); continue;
		case '<': fputs("&lt;", fp); continue;
		case '>': fputs("&gt;", fp); continue;
		case '"': fputs("&quot;", fp); continue;
		case '\'': fputs("&#39;", fp); continue;
		/* Legal XML, but a raw control byte in a page. */
		case '\r': fputs("&#13;", fp); continue;
		default: break;
		}
		/* XML 1.0 has no place for most C0 controls, U+FFFE, U+FFFF;
		 * DEL is no text either. */
		if (k == 0 || (k == 1 && ((*p < 0x20 && *p != '\t' &&
		    *p != '\n') || *p == 0x7f)) ||
		    (k == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe))
			fputs("\xef\xbf\xbd", fp);
		else
			fwrite(p, 1, k, fp);
	}
}

void
profconv__json_string(FILE *fp, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	size_t k;

	putc('"', fp);
	for (; p < end; p += k != 0 ? k : 1) {
		k = sequence_in(p, (size_t)(end - p));
		if (k == 0) {
			/* Not UTF-8: JSON text must be, so U+FFFD. */
			fputs("\\ufffd", fp);
		} else if (k == 1 && (*p == '"' || *p == '\\')) {
			putc('\\', fp);
			putc(*p, fp);
		} else if (k == 1 && (*p == '\n' || *p == '\r' || *p == '\t')) {
			putc('\\', fp);
			putc(*p == '\n' ? 'n' : *p == '\r' ? 'r' : 't', fp);
		} else if (k == 1 && *p < 0x20) {
			fputs("\\u00", fp);
			putc(hex[*p >> 4], fp);
			putc(hex[*p & 15], fp);
		} else if (k == 3 && p[0] == 0xe2 && p[1] == 0x80 &&
		    (p[2] & 0xfe) == 0xa8) {
			/* U+2028 and U+2029 end a line in JavaScript. */
			fputs(p[2] == 0xa8 ? "\\u2028" : "\\u2029", fp);
		} else {
			fwrite(p, 1, k, fp);
		}
	}
	putc('"', fp);
}

void
profconv__json_cstr(FILE *fp, const char *s)
{
	profconv__json_string(fp, s, strlen(s));
}

char *
profconv__group_digits(char *buf, int64_t v)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%" PRIu64,
	    v < 0 ? -(uint64_t)v : (uint64_t)v), i;
	char *o = buf;

	if (v < 0)
		*o++ = '-';
	for (i = 0; i < n; i++) {
		if (i != 0 && (n - i) % 3 == 0)
			*o++ = ',';
		*o++ = digits[i];
	}
	*o = '\0';
	return buf;
}

char *
profconv__group_text(char *buf, const char *digits)
{
	size_t n, i;
	char *o = buf;

	if (*digits == '-')
		*o++ = *digits++;
	n = strlen(digits);
	for (i = 0; i < n; i++) {
		if (i != 0 && (n - i) % 3 == 0)
			*o++ = ',';
		*o++ = digits[i];
	}
	*o = '\0';
	return buf;
}

bool
profconv__xml_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k;

	for (; *p != '\0'; p += k) {
		k = sequence(p);
		if (k == 0 || (k == 1 && *p < 0x20 && *p != '\t') ||
		    (k == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe))
			return false;
	}
	return true;
}

/* --- text for a terminal ------------------------------------------------- */

/* The code point of the LEN-byte UTF-8 sequence at P. */
static uint32_t
code_point(const unsigned char *p, size_t len)
{
	static const unsigned char lead[5] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	uint32_t c = p[0] & lead[len];
	size_t i;

	for (i = 1; i < len; i++)
		c = c << 6 | (p[i] & 0x3f);
	return c;
}

static bool
terminal_control(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9f) || c == 0x61c || c == 0x200e ||
	    c == 0x200f || (c >= 0x2028 && c <= 0x202e) ||
	    (c >= 0x2066 && c <= 0x2069);
}

/*
 * The escape of the character at P (its bytes in *LEN) into ESC, or
 * false (and *LEN) when it stays as it is.
 */
static bool
text_escape(const unsigned char *p, size_t *len, char esc[8])
{
	size_t n = sequence(p);

	if (*p < 0x20 || *p == 0x7f || n == 0) {
		snprintf(esc, 8, "\\x%02x", *p);
		*len = 1;
		return true;
	}
	*len = n;
	if (n == 1 || !terminal_control(code_point(p, n)))
		return false;
	snprintf(esc, 8, "\\u%04x", (unsigned)code_point(p, n));
	return true;
}

bool
profconv__text_escape(const char *s, size_t *len, char esc[8])
{
	return text_escape((const unsigned char *)s, len, esc);
}

const char *
profconv__text_safe(struct pc_textbuf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len, o = 0, need, k;
	unsigned int i;
	char esc[8];
	char *out;

	for (; *p != '\0'; p += len)
		if (text_escape(p, &len, esc))
			break;
	if (*p == '\0')
		return s;
	/* At most 6 bytes of escape for each byte. */
	need = strlen(s) * 6 + 1;
	i = b->next++ % PC_TEXT_BUFS;
	if (need > b->cap[i]) {
		out = realloc(b->buf[i], need);
		if (out == NULL)
			return "";
		b->buf[i] = out;
		b->cap[i] = need;
	}
	out = b->buf[i];
	o = (size_t)((const char *)p - s);
	memcpy(out, s, o);
	for (; *p != '\0'; p += len) {
		if (text_escape(p, &len, esc)) {
			k = strlen(esc);
			memcpy(out + o, esc, k);
			o += k;
		} else {
			memcpy(out + o, p, len);
			o += len;
		}
	}
	out[o] = '\0';
	return out;
}

void
profconv__textbuf_free(struct pc_textbuf *b)
{
	for (unsigned int i = 0; i < PC_TEXT_BUFS; i++)
		free(b->buf[i]);
	memset(b, 0, sizeof(*b));
}

void
profconv__svg_put_text(FILE *fp, const char *id, double x, double y,
    const char *cls, const char *text)
{
	fprintf(fp, "<text id=\"%s\" x=\"%.1f\" y=\"%.1f\"%s%s%s>", id, x, y,
	    cls != NULL ? " class=\"" : "", cls != NULL ? cls : "",
	    cls != NULL ? "\"" : "");
	profconv__xml_put(fp, text, (size_t)-1);
	fputs("</text>\n", fp);
}
