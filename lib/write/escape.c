/* SPDX-License-Identifier: MIT */
/* svgtext.c - names as XML and JSON text, numbers for people. */

#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "model/model.h"
#include "write/write.h"

/* Length of the well-formed UTF-8 sequence at P, 0 when it is not one. */
static size_t
sequence(const unsigned char *p)
{
	size_t n = *p < 0x80 ? 1 : *p >= 0xf8 ? 0 : *p >= 0xf0 ? 4 :
	    *p >= 0xe0 ? 3 : *p >= 0xc2 ? 2 : 0;

	if (n > 1 && (strnlen((const char *)p, n) < n ||
	    !profconv__utf8_valid((const char *)p, n)))
		return 0;
	return n;
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
		default: break;
		}
		/* XML 1.0 has no place for most C0 controls, U+FFFE, U+FFFF. */
		if (k == 0 || (k == 1 && *p < 0x20 && *p != '\t' &&
		    *p != '\n' && *p != '\r') ||
		    (k == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe))
			fputs("\xef\xbf\xbd", fp);
		else
			fwrite(p, 1, k, fp);
	}
}

void
profconv__json_put(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k;

	putc('"', fp);
	for (; *p != '\0'; p += k != 0 ? k : 1) {
		k = sequence(p);
		if (k == 0)
			fputs("\\ufffd", fp);
		else if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(fp, "\\u%04x", *p);
		else
			fwrite(p, 1, k, fp);
	}
	putc('"', fp);
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
