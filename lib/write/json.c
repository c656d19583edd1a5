/* SPDX-License-Identifier: MIT */
/* json.c - the JSON text every JSON writer (diff, trend, speedscope) shares. */

#include "config.h"

#include <string.h>

#include "write/write.h"

void
profconv__json_string(FILE *fp, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	putc('"', fp);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		default:
			/* Control characters, and U+2028/9 for JavaScript. */
			if (c < 0x20) {
				fputs("\\u00", fp);
				putc(hex[c >> 4], fp);
				putc(hex[c & 15], fp);
			} else if (c == 0xe2 && i + 2 < len &&
			    (unsigned char)s[i + 1] == 0x80 &&
			    ((unsigned char)s[i + 2] & 0xfe) == 0xa8) {
				fputs((unsigned char)s[i + 2] == 0xa8 ?
				    "\\u2028" : "\\u2029", fp);
				i += 2;
			} else {
				putc(c, fp);
			}
			break;
		}
	}
	putc('"', fp);
}

void
profconv__json_cstr(FILE *fp, const char *s)
{
	profconv__json_string(fp, s, strlen(s));
}
