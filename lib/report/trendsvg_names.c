/* SPDX-License-Identifier: MIT */
/*
 * trendsvg_names.c - names cut to the room the picture of a series has
 * (lib/report/trendsvg.c): at their start or end with ".." where cut,
 * or keeping visible the frame that tells two of them apart.  Counts
 * are of UTF-8 characters; what is cut is raw, escaped when written.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "write/write.h"
#include "report/trendsvg.h"


/* S as XML text, at most MAX characters: its start, or with TAIL its
 * end, and ".." where it is cut. */
void
profconv__trend_put_cut(FILE *fp, const char *s, size_t max, bool tail)
{
	size_t n = profconv__utf8_chars(s), skip;

	if (n <= max) {
		profconv__xml_put(fp, s, (size_t)-1);
		return;
	}
	if (!tail) {
		profconv__xml_put(fp, s, max - 2);
		fputs("..", fp);
		return;
	}
	/* Skip N - MAX + 2 characters: a byte and what continues it. */
	for (skip = n - max + 2; skip > 0 && *s != '\0'; skip--) {
		s++;
		while (((unsigned char)*s & 0xc0) == 0x80)
			s++;
	}
	fputs("..", fp);
	profconv__xml_put(fp, s, (size_t)-1);
}

/* Append the N bytes at S to *OUT (LEN bytes, CAP). */
static int
append(char **out, size_t *cap, size_t *len, const char *s, size_t n)
{
	if (PC_GROW(*out, *cap, *len, n + 1) < 0)
		return PROFCONV_ENOMEM;
	memcpy(*out + *len, s, n);
	*len += n;
	(*out)[*len] = '\0';
	return 0;
}

/*
 * S (N characters, more than MAX) cut to MAX characters so that its
 * character D stays visible: the frame (between ';') that holds it, at
 * most half the room, between ".." marks, and with TAIL the end of S after
 * it ("..frame..end"), else its start before it ("start..frame..").
 * Into *OUT, raw (escaped when written).
 */
int
profconv__trend_cut_keeping(char **out, const char *s, size_t n, size_t max, bool tail,
    size_t d)
{
	size_t cap = 0, len = 0, room = max - 4, fa, fb, w, ws, keep, db;
	int rc = 0;

	db = profconv__utf8_prefix(s, strlen(s), d);
	for (fa = db; fa > 0 && s[fa - 1] != ';'; fa--)
		;
	for (fb = db; s[fb] != '\0' && s[fb] != ';'; fb++)
		;
	fa = profconv__utf8_count(s, fa);
	fb = profconv__utf8_count(s, fb);
	w = fb - fa < room / 2 ? fb - fa : room / 2;
	ws = d + 1 > fa + w ? d + 1 - w : fa;
	keep = room - w;
	*out = NULL;
	if (n <= max) {
		rc |= append(out, &cap, &len, s, strlen(s));
	} else if (tail && ws + w < n - keep) {
		rc |= append(out, &cap, &len, "..", 2);
		rc |= append(out, &cap, &len, s + profconv__utf8_prefix(s, strlen(s), ws),
		    profconv__utf8_prefix(s, strlen(s), ws + w) - profconv__utf8_prefix(s, strlen(s), ws));
		rc |= append(out, &cap, &len, "..", 2);
		rc |= append(out, &cap, &len, s + profconv__utf8_prefix(s, strlen(s), n - keep),
		    strlen(s) - profconv__utf8_prefix(s, strlen(s), n - keep));
	} else if (!tail && ws > keep) {
		rc |= append(out, &cap, &len, s, profconv__utf8_prefix(s, strlen(s), keep));
		rc |= append(out, &cap, &len, "..", 2);
		rc |= append(out, &cap, &len, s + profconv__utf8_prefix(s, strlen(s), ws),
		    profconv__utf8_prefix(s, strlen(s), ws + w) - profconv__utf8_prefix(s, strlen(s), ws));
		rc |= append(out, &cap, &len, "..", 2);
	} else {			/* near the kept end: the whole name */
		rc |= append(out, &cap, &len, s, strlen(s));
	}
	return rc < 0 ? profconv__nomem() : 0;
}

/* S cut as profconv__trend_put_cut() cuts it, into *OUT, raw. */
int
profconv__trend_cut_plain(char **out, const char *s, size_t max, bool tail)
{
	size_t n = profconv__utf8_chars(s), cap = 0, len = 0, b;
	int rc = 0;

	*out = NULL;
	if (n <= max) {
		rc |= append(out, &cap, &len, s, strlen(s));
	} else if (!tail) {
		rc |= append(out, &cap, &len, s, profconv__utf8_prefix(s, strlen(s), max - 2));
		rc |= append(out, &cap, &len, "..", 2);
	} else {
		b = profconv__utf8_prefix(s, strlen(s), n - max + 2);
		rc |= append(out, &cap, &len, "..", 2);
		rc |= append(out, &cap, &len, s + b, strlen(s) - b);
	}
	return rc < 0 ? profconv__nomem() : 0;
}

/* Characters A and B have in common at their ends (TAIL) or starts. */
size_t
profconv__trend_common_chars(const char *a, const char *b, bool tail)
{
	size_t la = strlen(a), lb = strlen(b), i = 0;

	if (!tail) {
		while (a[i] != '\0' && a[i] == b[i])
			i++;
		return profconv__utf8_count(a, i);
	}
	while (i < la && i < lb && a[la - 1 - i] == b[lb - 1 - i])
		i++;
	return profconv__utf8_count(a + la - i, i);
}

/*
 * The last resort for N names NAMES shown as SHOWN (malloc'd, replaced
 * in place): every one longer than MAX characters or the same as
 * another is cut to fit with "#K" after it, K its place (from 1),
 * keeping visible the frame where it differs from the others when that
 * fits.  The digits after the last '#' are K, so two numbered names
 * never read the same; a name not numbered that reads as a numbered one
 * is numbered too, until none do (each round numbers one at least, so
 * at most N rounds).  MAX is 12 or more.  0 or PROFCONV_ENOMEM; on
 * failure every SHOWN is still a name to free.
 */
int
profconv__trend_number_names(char **shown, const char *const *names,
    size_t n, size_t max, bool tail)
{
	size_t i, j, len, room, c, best, lt, lk;
	bool again = true, same, *num;
	char k[24], *t, *u;
	int rc = 0;

	if ((num = calloc(n + 1, sizeof(*num))) == NULL)
		return profconv__nomem();
	while (again && rc == 0) {
		again = false;
		for (i = 0; i < n && rc == 0; i++) {
			if (num[i])
				continue;
			best = 0;
			same = false;
			for (j = 0; j < n; j++) {
				if (j == i)
					continue;
				c = profconv__trend_common_chars(names[i],
				    names[j], tail);
				best = c > best ? c : best;
				same = same || strcmp(shown[i], shown[j]) == 0;
			}
			if (!same && profconv__utf8_chars(shown[i]) <= max)
				continue;
			len = profconv__utf8_chars(names[i]);
			snprintf(k, sizeof(k), "#%zu", i + 1);
			lk = strlen(k);
			room = max > lk + 8 ? max - lk : 8;
			t = NULL;
			if (best < len && len > room)
				rc = profconv__trend_cut_keeping(&t, names[i],
				    len, room, tail, tail ? len - 1 - best : best);
			if (rc == 0 && (t == NULL ||
			    profconv__utf8_chars(t) > room)) {
				free(t);
				t = NULL;
				rc = profconv__trend_cut_plain(&t, names[i], room,
				    tail);
			}
			if (rc < 0)
				break;
			lt = strlen(t);
			if ((u = realloc(t, lt + lk + 1)) == NULL) {
				free(t);
				rc = profconv__nomem();
				break;
			}
			memcpy(u + lt, k, lk + 1);
			free(shown[i]);
			shown[i] = u;
			num[i] = true;
			again = true;
		}
	}
	free(num);
	return rc;
}
