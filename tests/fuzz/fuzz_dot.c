/* SPDX-License-Identifier: MIT */
/*
 * fuzz_dot.c - fuzz the call graph writer (view/graph.c, write/dot.c)
 * and its escaping of names for DOT and Graphviz.  The input makes a
 * small profile: up to 16 names (NUL-separated) of functions, then,
 * after an empty name or the 16th, bytes taken two at a time as calls
 * (caller, callee: indexes modulo the names) with a value, the first
 * name as a thread label (nodelets), the second as a comment (legend)
 * and the third as the mapping's file (title).  Its DOT must contain no
 * control byte but line breaks and no byte that is not UTF-8 (names
 * reach a terminal and Graphviz escaped).  With FUZZ_DOT_LAYOUT=1 in
 * the environment the DOT is also laid out as SVG by Graphviz's library
 * (built with libgvc), whose output must hold no control byte either:
 * tests/cli/fuzz-replay.sh replays the corpus that way (libFuzzer runs
 * stay with DOT: a layout is slow, and Graphviz keeps what it loads).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <profconv.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

#define MAX_NAMES 16

static void
check(bool ok)
{
	if (!ok)
		abort();
}

/* No control byte but "\n" (and "\r", "\t" in SVG's own markup when
 * XML), and well-formed UTF-8. */
static void
check_text(const unsigned char *s, size_t n, bool markup)
{
	size_t i = 0, k, j;

	while (i < n) {
		unsigned char c = s[i];

		if (c < 0x80) {
			check(c >= 0x20 || c == '\n' ||
			    (markup && (c == '\r' || c == '\t')));
			check(c != 0x7f);
			i++;
			continue;
		}
		k = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
		check(k != 0 && k <= n - i);
		for (j = 1; j < k; j++)
			check((s[i + j] & 0xc0) == 0x80);
		i += k;
	}
}

static void
write_graph(const struct profconv_view *v, enum profconv_graph_format f)
{
	struct profconv_graph_options go = PROFCONV_GRAPH_OPTIONS_INIT;
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);
	int rc;

	check(fp != NULL);
	go.format = f;
	go.nodefraction = 0;
	go.edgefraction = 0;
	rc = profconv_graph_write(v, NULL, fp, &go);
	check(fclose(fp) == 0);
	if (f == PROFCONV_GRAPH_DOT) {
		check(rc == 0);
		check_text((const unsigned char *)out, len, false);
	} else if (rc == 0) {
		check_text((const unsigned char *)out, len, true);
	}
	free(out);
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct profconv_profile *p = NULL;
	struct profconv_view *v = NULL;
	char *names[MAX_NAMES];
	uint32_t loc[MAX_NAMES], fid, mid, stack[2];
	size_t n = 0, at = 0, e, i;
	const char *layout = getenv("FUZZ_DOT_LAYOUT");

	while (at < size && n < MAX_NAMES) {
		const unsigned char *z = memchr(data + at, 0, size - at);

		e = z != NULL ? (size_t)(z - data) : size;
		if (e == at) {
			at++;
			break;
		}
		names[n] = strndup((const char *)data + at, e - at);
		check(names[n] != NULL);
		n++;
		at = e + 1;
	}
	if (n == 0)
		return 0;
	check(profconv_profile_new(&p) == 0);
	check(profconv_profile_add_sample_type(p, "space", "bytes") == 0);
	if (n > 1)
		check(profconv_profile_add_comment(p, names[1]) == 0);
	check(profconv_profile_add_mapping(p, &(struct profconv_mapping){
	    0x1000, 0x100000, 0, n > 2 ? names[2] : "prog", NULL, 1, 0, 0, 0 },
	    &mid) == 0);
	for (i = 0; i < n; i++) {
		struct profconv_line line = { 0, 0, 0 };

		check(profconv_profile_add_function(p,
		    &(struct profconv_function){ names[i], NULL, NULL, 0 },
		    &fid) == 0);
		line.function_id = fid;
		check(profconv_profile_add_location(p, mid, 0x1000 + 16 * i,
		    &line, 1, 0, &loc[i]) == 0);
	}
	/* Every name once, then the calls. */
	for (i = 0; i < n; i++) {
		struct profconv_label l = { "thread", names[0], 0, NULL };
		int64_t val = 100 + (int64_t)i;

		check(profconv_profile_add_sample(p, &loc[i], 1, &val, &l,
		    i % 2) == 0);
	}
	for (; at + 1 < size; at += 2) {
		int64_t val = 1 + data[at + 1];

		stack[0] = loc[data[at + 1] % n];
		stack[1] = loc[data[at] % n];
		check(profconv_profile_add_sample(p, stack, 2, &val, NULL,
		    0) == 0);
	}
	if (profconv_view_new(&v, p, NULL) == 0) {
		write_graph(v, PROFCONV_GRAPH_DOT);
		if (layout != NULL && strcmp(layout, "1") == 0) {
			struct profconv_graph_options go =
			    PROFCONV_GRAPH_OPTIONS_INIT;

			go.format = PROFCONV_GRAPH_SVG;
			if (profconv_graph_options_check(&go) == 0)
				write_graph(v, PROFCONV_GRAPH_SVG);
		}
	}
	profconv_view_free(v);
	profconv_profile_free(p);
	for (i = 0; i < n; i++)
		free(names[i]);
	return 0;
}
