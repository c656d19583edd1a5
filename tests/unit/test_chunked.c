/* SPDX-License-Identifier: MIT */
/*
 * test_chunked.c - large legacy text is read in chunks on several threads
 * (lib/read/chunked.c): whatever the chunk size and the thread count, the
 * profile is the same, byte for byte in pprof, and so is the error of a
 * bad line.  Tiny chunks (the test-only knob profconv__test_chunk_bytes)
 * put a cut at every line, so that every line is in turn the last of a
 * chunk and the first of the next, and every size up to a few lines
 * moves the cuts across each line.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "read/chunked.h"
#include "read/input.h"
#include "read/readers.h"

/*
 * Backtraces that share leading frames (parsed once), one without
 * samples, a bare '@', blank and CRLF lines, named threads, a thread
 * first seen late, the memory map.
 */
static const char je_threads[] =
	"heap_v2/524288\n"
	"  t*: 3: 100 [5: 200]\n"
	"  t0: 2: 50 [3: 120] main thread\n"
	"  t1: 1: 50 [2: 80]\n"
	"  t7: 0: 0 [0: 0] worker\n"
	"@ 0x1010 0x2020 0x3030\n"
	"  t*: 2: 8192 [4: 16384]\n"
	"  t0: 1: 4096 [2: 8192]\n"
	"  t1: 1: 4096 [2: 8192]\n"
	"@ 0x1010 0x2020 0x4040\n"
	"\n"
	"@ 0x1010 0x2020 0x4040 0x5050\n"
	"  t*: 1: 64 [1: 64]\r\n"
	"  t7: 1: 64 [1: 64]\n"
	"@\n"
	"  t*: 1: 32 [1: 32]\n"
	"  t1: 1: 32 [1: 32]\n"
	"@ 0x1010 0x6060 0x3030\n"
	"  t*: 0: 32 [1: 4096]\n"
	"  t1: 0: 32 [1: 4096]\n"
	"  t0: 0: 0 [3: 96]\n"
	"@ 0x1010 0x2020 0x3030\n"
	"  t*: 5: 500 [5: 500]\n"
	"  t9: 5: 500 [5: 500]\n"
	"\n"
	"MAPPED_LIBRARIES:\n"
	"00001000-00004000 r-xp 00000000 08:01 123 /usr/bin/prog\n"
	"00004000-00007000 r-xp 00003000 08:01 123 /usr/bin/prog\n";

/* No prof_accum in the header, then a backtrace that has some: the alloc
 * types arrive in the middle; no trailing newline. */
static const char je_late_alloc[] =
	"heap_v2/0\n"
	"  t*: 3: 100 [0: 0]\n"
	"@ 0x10 0x20\n"
	"  t*: 1: 16 [0: 0]\n"
	"@ 0x30 0x20\n"
	"  t*: 1: 16 [0: 0]\n"
	"@ 0x10 0x20 0x40\n"
	"  t*: 1: 16 [2: 32]\n"
	"@ 0x50\n"
	"  t*: 2: 16 [0: 0]";

static struct profconv_profile *prof;

/*
 * The chunk sizes tried on a text of LEN bytes: every size up to a few
 * lines (with size 1 every line is a chunk of its own; with the others
 * each line falls in turn at the start, the inside and the end of a
 * chunk), then a few larger ones up to past the end.  Returns the next
 * size after SIZE, or 0 when done.
 */
static size_t
next_size(size_t size, size_t len)
{
	if (size < 48)
		return size + 1;
	if (size <= len)
		return size + len / 4 + 1;
	return 0;
}

static void
cleanup(void)
{
	profconv_profile_free(prof);
	prof = NULL;
	profconv__test_chunk_bytes = 0;
}

TestSuite(chunks, .fini = cleanup);

/*
 * TEXT read with chunks of CHUNK bytes (0: the default) on JOBS threads,
 * as uncompressed pprof in *OUT (*N bytes); or the error's message in
 * MSG and a negative code.  The profile read stays in PROF.
 */
static int
read_write(const char *text, size_t len, size_t chunk, unsigned jobs,
    bool threads, char **out, size_t *n, char *msg, size_t msgsize)
{
	struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	FILE *fp;
	int rc;

	ro.jobs = jobs;
	ro.threads = threads;
	wo.level = 0;
	*out = NULL;
	*n = 0;
	profconv__test_chunk_bytes = chunk;
	rc = profconv_profile_read_mem(&prof, text, len, &ro, NULL);
	profconv__test_chunk_bytes = 0;
	if (rc < 0) {
		snprintf(msg, msgsize, "%s", profconv_errmsg());
		return rc;
	}
	fp = open_memstream(out, n);
	cr_assert(fp != NULL);
	cr_assert(eq(int, profconv_profile_write(prof, fp, &wo), 0), "%s",
	    ERRMSG);
	cr_assert(eq(int, fclose(fp), 0));
	return 0;
}

/*
 * TEXT converted as above, and then again by profconv_profile_convert(),
 * which writes samples while it reads them (from a FILE, not memory):
 * the same bytes, or the same error, and the same read warning.
 */
static int
convert(const char *text, size_t len, size_t chunk, unsigned jobs,
    bool threads, char **out, size_t *n, char *msg, size_t msgsize)
{
	struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	struct profconv_profile *left = NULL;
	const char *warning;
	char *got = NULL;
	size_t ngot = 0;
	FILE *in, *fp;
	int rc, crc;

	rc = read_write(text, len, chunk, jobs, threads, out, n, msg,
	    msgsize);
	ro.jobs = jobs;
	ro.threads = threads;
	wo.level = 0;
	in = fmemopen((void *)text, len, "r");
	fp = open_memstream(&got, &ngot);
	cr_assert(in != NULL && fp != NULL);
	profconv__test_chunk_bytes = chunk;
	crc = profconv_profile_convert(in, fp, &ro, &wo, &left, NULL);
	profconv__test_chunk_bytes = 0;
	cr_assert(eq(int, fclose(fp), 0));
	fclose(in);
	if (rc < 0) {
		cr_assert(eq(int, crc, rc), "chunk %zu jobs %u: convert gave "
		    "%d (%s), read %d (%s)", chunk, jobs, crc, ERRMSG, rc,
		    msg);
		cr_assert(eq(str, (char *)profconv_errmsg(), msg),
		    "chunk %zu jobs %u", chunk, jobs);
		cr_assert(left == NULL);
	} else {
		cr_assert(eq(int, crc, 0), "chunk %zu jobs %u: %s", chunk,
		    jobs, ERRMSG);
		cr_assert(ngot == *n && memcmp(got, *out, ngot) == 0,
		    "chunk %zu jobs %u threads %d: convert wrote other bytes",
		    chunk, jobs, threads);
		cr_assert(eq(sz, profconv_profile_sample_count(left), 0));
		warning = profconv_profile_read_warning(prof);
		if (warning == NULL)
			cr_assert(profconv_profile_read_warning(left) == NULL);
		else
			cr_assert(eq(str, (char *)warning,
			    (char *)profconv_profile_read_warning(left)));
	}
	free(got);
	profconv_profile_free(left);
	profconv_profile_free(prof);
	prof = NULL;
	return rc;
}

/* Every chunk size from 1 to past the length, on 1 and 3 threads, gives
 * what one chunk gives. */
static void
expect_same_everywhere(const char *text, bool threads)
{
	static const unsigned jobs[] = { 1, 3 };
	size_t len = strlen(text), nref, n, chunk, k;
	char *ref, *out, msg[512];

	cr_assert(eq(int, convert(text, len, 0, 1, threads, &ref, &nref, msg,
	    sizeof(msg)), 0), "%s", msg);
	cr_assert(nref > 0);
	for (chunk = 1; chunk != 0; chunk = next_size(chunk, len)) {
		for (k = 0; k < PC_ARRAY_LEN(jobs); k++) {
			cr_assert(eq(int, convert(text, len, chunk, jobs[k],
			    threads, &out, &n, msg, sizeof(msg)), 0),
			    "chunk %zu jobs %u: %s", chunk, jobs[k], msg);
			cr_assert(n == nref && memcmp(out, ref, n) == 0,
			    "chunk %zu jobs %u threads %d: different pprof",
			    chunk, jobs[k], threads);
			free(out);
		}
	}
	free(ref);
}

Test(chunks, jemalloc_same_profile_wherever_the_cuts_fall)
{
	expect_same_everywhere(je_threads, false);
	expect_same_everywhere(je_threads, true);
	expect_same_everywhere(je_late_alloc, false);
}

/*
 * Many backtraces, each counted for a few of ten threads met in another
 * order each time: chunks are parsed in slots that later chunks reuse
 * (keeping their arrays), and what one chunk learnt of its threads and
 * addresses must not leak into the next.
 */
Test(chunks, jemalloc_threads_in_any_order_wherever_the_cuts_fall)
{
	char *text = NULL;
	size_t len = 0, i, k, nthr;
	uint64_t r = 0x2545f4914f6cdd1dULL;
	FILE *fp = open_memstream(&text, &len);

	cr_assert(fp != NULL);
	fprintf(fp, "heap_v2/524288\n  t*: 1: 64 [1: 64]\n");
	for (i = 0; i < 80; i++) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		fprintf(fp, "@ 0x%llx 0x%llx 0x%llx\n",
		    (unsigned long long)(0x1000 + 16 * (r % 5)),
		    (unsigned long long)(0x2000 + 16 * ((r >> 8) % 40)),
		    (unsigned long long)(0x3000 + 16 * ((r >> 16) % 3)));
		nthr = 1 + (r >> 24) % 4;
		fprintf(fp, "  t*: %zu: %zu [%zu: %zu]\n", nthr, 64 * nthr,
		    nthr, 64 * nthr);
		for (k = 0; k < nthr; k++)
			fprintf(fp, "  t%llu: 1: 64 [1: 64]%s\n",
			    (unsigned long long)((r >> (28 + 4 * k)) % 10 +
			    10 * k), k == 1 ? " worker" : "");
	}
	fprintf(fp, "\nMAPPED_LIBRARIES:\n"
	    "00001000-00004000 r-xp 00000000 08:01 123 /usr/bin/prog\n");
	cr_assert(eq(int, fclose(fp), 0));
	expect_same_everywhere(text, true);
	expect_same_everywhere(text, false);
	free(text);
}

/* TEXT with line LINE (1-based) replaced by BAD. */
static char *
with_line(const char *text, size_t line, const char *bad)
{
	const char *p = text, *e;
	size_t i;
	char *out;

	for (i = 1; i < line; i++)
		p = strchr(p, '\n') + 1;
	e = strchr(p, '\n');
	if (e == NULL)
		e = p + strlen(p);
	out = malloc(strlen(text) + strlen(bad) + 1);
	cr_assert(out != NULL);
	sprintf(out, "%.*s%s%s", (int)(p - text), text, bad, e);
	return out;
}

/* The error of TEXT is WANT with one chunk and with every chunk size. */
static void
expect_error_everywhere(const char *text, bool threads, const char *want)
{
	size_t len = strlen(text), chunk, n;
	char msg[512], *out;

	cr_assert(lt(int, convert(text, len, 0, 1, threads, &out, &n, msg,
	    sizeof(msg)), 0), "no error for:\n%s", text);
	cr_assert(eq(str, msg, (char *)want));
	for (chunk = 1; chunk != 0; chunk = next_size(chunk, len)) {
		cr_assert(lt(int, convert(text, len, chunk, 3, threads, &out,
		    &n, msg, sizeof(msg)), 0), "chunk %zu: no error", chunk);
		cr_assert(eq(str, msg, (char *)want), "chunk %zu", chunk);
	}
}

Test(chunks, jemalloc_same_error_wherever_the_cuts_fall)
{
	static const struct {
		const char *line, *what;
	} bad[] = {
		{ "@ 0x1010 0xZZ", "bad address '0xZZ'" },
		{ "  t1: 1 [2: 3]", "malformed counts 't1: 1 [2: 3]'" },
		{ "junk", "unexpected line 'junk'" },
		{ "  t*: 1: 18446744073709551615 [0: 0]", "counts too large" },
	};
	size_t nlines = 0, line, k;
	const char *p;
	char want[256], *text;

	for (p = je_threads; *p != '\0'; p++)
		nlines += *p == '\n';
	/* Every line after the first backtrace, up to the map, in turn. */
	for (line = 7; line < nlines - 3; line++) {
		k = line % PC_ARRAY_LEN(bad);
		text = with_line(je_threads, line, bad[k].line);
		snprintf(want, sizeof(want), "line %zu: %s", line, bad[k].what);
		expect_error_everywhere(text, line % 2 == 0, want);
		free(text);
	}
}

Test(chunks, jemalloc_too_long_a_line_wherever_the_cuts_fall)
{
	size_t len = PC_MAX_LINE + 10, head = strlen("heap_v2/1\n@ 0x1\n");
	static const size_t chunks[] = { 0, 1, 7, 4096, PC_MAX_LINE };
	char *text = malloc(head + len + 32), msg[512], *out;
	size_t n, k;

	cr_assert(text != NULL);
	memcpy(text, "heap_v2/1\n@ 0x1\n", head);
	memcpy(text + head, "  t*: 1: 1 [1: 1]\n", 18);
	memset(text + head + 18, ' ', len);
	strcpy(text + head + 18 + len, "\n");
	for (k = 0; k < PC_ARRAY_LEN(chunks); k++) {
		cr_assert(lt(int, convert(text, strlen(text), chunks[k], 2,
		    false, &out, &n, msg, sizeof(msg)), 0));
		cr_assert(eq(str, msg, "line 4: longer than 1048576 bytes"),
		    "chunk %zu", chunks[k]);
	}
	free(text);
}

/* gperftools heap profiler buckets: shared frames, comments, blank and
 * CRLF lines, an empty stack, the memory map. */
static const char gp_heap[] =
	"heap profile:    4:   400 [    6:   600] @ heapprofile\n"
	"     1:   100 [     2:   200] @ 0x1010 0x2020 0x3030\n"
	"# a comment\n"
	"     1:   100 [     2:   200] @ 0x1010 0x2020 0x4040\n"
	"\n"
	"     1:   100 [     1:   100] @\n"
	"     1:   100 [     1:   100] @ 0x5050 0x1010\r\n"
	"     0:     0 [     0:     0] @ 0x6060 0x4040 0x1010\n"
	"\n"
	"MAPPED_LIBRARIES:\n"
	"00001000-00007000 r-xp 00000000 08:01 123 /usr/bin/prog\n";

Test(chunks, heap_same_profile_wherever_the_cuts_fall)
{
	expect_same_everywhere(gp_heap, false);
}

Test(chunks, heap_same_error_wherever_the_cuts_fall)
{
	static const char *const bad[] = {
		"junk",
		"     1:   100 [     2:   200] @ 0x1010 0xzz",
		"     0:     5 [     0:     0] @ 0x1010",
		"     1:     1 [     1:     1] @ 0x11111111111111111",
	};
	size_t line, len, n;
	char want[512], prefix[32], *text, *out;

	for (line = 2; line <= 8; line++) {
		text = with_line(gp_heap, line, bad[line % PC_ARRAY_LEN(bad)]);
		len = strlen(text);
		cr_assert(lt(int, convert(text, len, 0, 1, false, &out, &n,
		    want, sizeof(want)), 0), "line %zu: no error", line);
		snprintf(prefix, sizeof(prefix), "line %zu: ", line);
		cr_assert(strncmp(want, prefix, strlen(prefix)) == 0,
		    "line %zu: '%s'", line, want);
		expect_error_everywhere(text, false, want);
		free(text);
	}
}

/* --- samples handed on while read (profconv_profile_convert()) --- */

/* A drain that keeps what it is handed as text, one line per sample. */
struct rec_drain {
	struct pc_drain d;
	struct profconv_profile *held;
	char *text;
	size_t len, cap;
	size_t takes, runs;
};

/* Sample I of P as a line: location ids, values, labels. */
static void
rec_sample(struct rec_drain *r, const struct profconv_profile *p, size_t i)
{
	const struct pc_sample *sm = pc_sample(p, i);
	struct pc_stack stk = pc_sample_stack(p, sm);
	const struct pc_label *lab = pc_sample_labels(p, sm);
	const int64_t *v = pc_sample_values(p, i);
	char line[4096];
	size_t n = 0, j;

	for (j = 0; j < sm->nlocs; j++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%u ",
		    pc_stack_at(stk, j));
	n += (size_t)snprintf(line + n, sizeof(line) - n, "|");
	for (j = 0; j < p->nsample_types; j++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %lld",
		    (long long)v[j]);
	for (j = 0; j < sm->nlabels; j++)
		n += (size_t)snprintf(line + n, sizeof(line) - n,
		    " %s=%s/%lld", profconv__str(&p->strings, lab[j].key),
		    profconv__str(&p->strings, lab[j].str),
		    (long long)lab[j].num);
	n += (size_t)snprintf(line + n, sizeof(line) - n, "\n");
	cr_assert(n < sizeof(line));
	if (r->len + n + 1 > r->cap) {
		r->cap = (r->len + n + 1) * 2;
		r->text = realloc(r->text, r->cap);
		cr_assert(r->text != NULL);
	}
	memcpy(r->text + r->len, line, n + 1);
	r->len += n;
}

static int
rec_take(struct pc_drain *d, struct profconv_profile *p)
{
	struct rec_drain *r = (struct rec_drain *)d;
	size_t i, n = profconv_profile_sample_count(p);

	/* Each take comes after the run of the one before, and has some. */
	cr_assert(eq(sz, r->runs, r->takes));
	cr_assert(n > 0);
	for (i = 0; i < n; i++)
		rec_sample(r, p, i);
	d->taken += n;
	r->takes++;
	profconv__samples_handoff(p, r->held);
	cr_assert(eq(sz, profconv_profile_sample_count(p), 0));
	cr_assert(eq(sz, profconv_profile_sample_count(r->held), n));
	return 0;
}

static int
rec_run(struct pc_drain *d)
{
	struct rec_drain *r = (struct rec_drain *)d;

	cr_assert(eq(sz, r->runs + 1, r->takes));
	r->runs++;
	return 0;
}

/* TEXT read with a recording drain at CHUNK bytes on JOBS threads: what
 * was handed on then what stayed are the samples of a plain read, in
 * order.  Returns how many samples were handed on. */
static size_t
expect_handed_in_order(const char *text, size_t chunk, unsigned jobs,
    bool threads)
{
	struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
	struct rec_drain r = { { rec_take, rec_run, 0 }, NULL, NULL, 0, 0,
	    0, 0 };
	struct rec_drain plain = r;
	struct profconv_profile *p = NULL;
	size_t i;
	FILE *in;

	ro.jobs = jobs;
	ro.threads = threads;
	cr_assert(eq(int, profconv_profile_new(&r.held), 0));
	in = fmemopen((void *)text, strlen(text), "r");
	cr_assert(in != NULL);
	profconv__test_chunk_bytes = chunk;
	cr_assert(eq(int, profconv__read_draining(&p, in, &ro, NULL, &r.d),
	    0), "%s", ERRMSG);
	profconv__test_chunk_bytes = 0;
	fclose(in);
	cr_assert(eq(sz, r.runs, r.takes), "the last take was not written");
	cr_assert(eq(sz, r.d.taken + profconv_profile_sample_count(p),
	    profconv_profile_sample_count(prof)));
	for (i = 0; i < profconv_profile_sample_count(p); i++)
		rec_sample(&r, p, i);
	for (i = 0; i < profconv_profile_sample_count(prof); i++)
		rec_sample(&plain, prof, i);
	cr_assert(eq(str, r.text != NULL ? r.text : "", plain.text),
	    "chunk %zu jobs %u", chunk, jobs);
	free(r.text);
	free(plain.text);
	profconv_profile_free(r.held);
	profconv_profile_free(p);
	return r.d.taken;
}

Test(chunks, samples_handed_on_in_order)
{
	static const unsigned jobs[] = { 1, 2, 3 };
	static const struct {
		const char *text;
		bool threads, drains;
	} cases[] = {
		{ je_threads, false, true },
		{ je_threads, true, true },
		{ gp_heap, false, true },
		/* Its samples are retyped in the middle: none handed on. */
		{ je_late_alloc, false, false },
	};
	size_t c, k, chunk, taken;

	for (c = 0; c < PC_ARRAY_LEN(cases); c++) {
		struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
		size_t len = strlen(cases[c].text);

		ro.threads = cases[c].threads;
		cr_assert(eq(int, profconv_profile_read_mem(&prof,
		    cases[c].text, len, &ro, NULL), 0), "%s", ERRMSG);
		for (chunk = 1; chunk != 0; chunk = next_size(chunk, len)) {
			for (k = 0; k < PC_ARRAY_LEN(jobs); k++) {
				taken = expect_handed_in_order(cases[c].text,
				    chunk, jobs[k], cases[c].threads);
				/* A line a chunk, four chunks a round on one
				 * thread: several rounds, so some samples
				 * must have been handed on. */
				if (chunk <= 2 && jobs[k] == 1)
					cr_assert(cases[c].drains ? taken > 0 :
					    taken == 0, "case %zu chunk %zu "
					    "jobs %u: %zu handed on", c, chunk,
					    jobs[k], taken);
			}
		}
		profconv_profile_free(prof);
		prof = NULL;
	}
}

/* A jemalloc text of N backtraces (about 60 bytes each), NUL-ended. */
static char *
many_backtraces(size_t n, size_t *len)
{
	size_t i, at, cap = 64 + n * 80;
	char *t = malloc(cap);

	cr_assert(t != NULL);
	at = (size_t)snprintf(t, cap, "heap_v2/1\n  t*: %zu: %zu [0: 0]\n",
	    n, n * 16);
	for (i = 0; i < n; i++)
		at += (size_t)snprintf(t + at, cap - at,
		    "@ 0x%zx 0x2020 0x3030\n  t*: 1: 16 [0: 0]\n",
		    0x1000 + i % 4096);
	*len = at;
	return t;
}

/*
 * A bound on the input met while the next batch is read beside the
 * parsing (more than the first read takes: over a MiB), from a FILE, at
 * several chunk sizes and threads: the same one-line error, and no
 * profile.  Below the bound, the same bytes as from memory.
 */
Test(chunks, input_bound_met_while_reading_ahead)
{
	static const size_t chunks[] = { 4096, 65536, 300000 };
	struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
	size_t len, k, j, n, nref;
	char want[128], msg[512], *text, *ref, *out;
	FILE *in;
	int rc;

	text = many_backtraces(80000, &len);
	cr_assert(len > 3000000);
	ro.max_input = len - 1000;
	snprintf(want, sizeof(want), "input exceeds the limit of %zu bytes",
	    len - 1000);
	for (k = 0; k < PC_ARRAY_LEN(chunks); k++) {
		for (j = 1; j <= 3; j += 2) {
			ro.jobs = (unsigned)j;
			in = fmemopen(text, len, "r");
			cr_assert(in != NULL);
			profconv__test_chunk_bytes = chunks[k];
			rc = profconv_profile_read(&prof, in, &ro, NULL);
			profconv__test_chunk_bytes = 0;
			fclose(in);
			cr_assert(eq(int, rc, PROFCONV_EFORMAT), "chunk %zu",
			    chunks[k]);
			cr_assert(prof == NULL);
			cr_assert(eq(str, (char *)profconv_errmsg(), want),
			    "chunk %zu jobs %zu", chunks[k], j);
		}
	}
	cr_assert(eq(int, read_write(text, len, 0, 1, false, &ref, &nref, msg,
	    sizeof(msg)), 0), "%s", msg);
	profconv_profile_free(prof);
	prof = NULL;
	for (k = 0; k < PC_ARRAY_LEN(chunks); k++) {
		cr_assert(eq(int, convert(text, len, chunks[k], 2, false, &out,
		    &n, msg, sizeof(msg)), 0), "%s", msg);
		cr_assert(n == nref && memcmp(out, ref, n) == 0,
		    "chunk %zu: other bytes", chunks[k]);
		free(out);
	}
	free(ref);
	free(text);
}
