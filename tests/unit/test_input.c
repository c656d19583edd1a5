/* SPDX-License-Identifier: MIT */
/* test_input.c - tests for buffered, gzip-transparent input. */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "helpers.h"
#include "read/input.h"

/* Gzip DATA into a malloc'd buffer. */
static unsigned char *
gz(const char *data, size_t len, size_t *out_len)
{
	z_stream z = { 0 };
	unsigned char *out = malloc(len + 128);

	cr_assert(eq(int, deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
	    Z_DEFAULT_STRATEGY), Z_OK));
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)(len + 128);
	cr_assert(eq(int, deflate(&z, Z_FINISH), Z_STREAM_END));
	*out_len = z.total_out;
	deflateEnd(&z);
	return out;
}

static void
expect_lines(struct pc_input *in, const char *const *want, size_t n)
{
	const char *line;
	size_t len, i;

	for (i = 0; i < n; i++) {
		cr_assert(eq(int, profconv__input_getline(in, &line, &len), 1),
		    "line %zu: %s", i + 1, profconv_errmsg());
		cr_assert(eq(sz, len, strlen(want[i])));
		cr_assert(memcmp(line, want[i], len) == 0);
	}
	cr_assert(eq(int, profconv__input_getline(in, &line, &len), 0));
}

/* Reading the N bytes at MEM from memory gives the NWANT lines WANT. */
static void
expect_mem_lines(const void *mem, size_t n, const char *const *want,
    size_t nwant)
{
	struct pc_input in;

	cr_assert(eq(int, profconv__input_init(&in, NULL, mem, n, 0), 0));
	expect_lines(&in, want, nwant);
	profconv__input_free(&in);
}

/* As expect_mem_lines, but reading them from a stream. */
static void
expect_stream_lines(void *mem, size_t n, const char *const *want,
    size_t nwant)
{
	FILE *fp = fmemopen(mem, n, "rb");
	struct pc_input in;

	cr_assert(eq(int, profconv__input_init(&in, fp, NULL, 0, 0), 0));
	expect_lines(&in, want, nwant);
	profconv__input_free(&in);
	fclose(fp);
}

/* A then B (NA and NB bytes) in one new buffer; frees A and B. */
static unsigned char *
joined(unsigned char *a, size_t na, unsigned char *b, size_t nb)
{
	unsigned char *both = malloc(na + nb);

	memcpy(both, a, na);
	memcpy(both + na, b, nb);
	free(a);
	free(b);
	return both;
}

static void
splits_plain_memory_into_lines(void)
{
	static const char text[] = "a\r\nbb\n\nlast";
	static const char *const want[] = { "a", "bb", "", "last" };
	struct pc_input in;

	cr_assert(eq(int, profconv__input_init(&in, NULL, text, strlen(text), 0), 0));
	expect_lines(&in, want, 4);
	cr_assert(eq(u64, in.lineno, 4));
	profconv__input_free(&in);
}

/* Like Go's bufio.ScanLines: a CR ending the last line goes too. */
static void
drops_cr_ending_the_last_line(void)
{
	static const char text[] = "a\r\nb\r";
	static const char *const want[] = { "a", "b" };
	size_t n;
	unsigned char *z = gz(text, strlen(text), &n);

	expect_mem_lines(text, strlen(text), want, 2);
	expect_stream_lines(z, n, want, 2);
	expect_mem_lines("\r", 1, (const char *const[]){ "" }, 1);
	free(z);
}

static void
inflates_gzip_from_a_file(void)
{
	static const char *const want[] = { "heap profile: 1: 2", "x" };
	const char text[] = "heap profile: 1: 2\nx\n";
	size_t n;
	unsigned char *z = gz(text, strlen(text), &n);

	expect_stream_lines(z, n, want, 2);
	free(z);
}

static void
reads_concatenated_gzip_members(void)
{
	size_t n1, n2;
	unsigned char *a = gz("one\n", 4, &n1), *b = gz("two\n", 4, &n2);
	unsigned char *both = joined(a, n1, b, n2);
	static const char *const want[] = { "one", "two" };

	expect_mem_lines(both, n1 + n2, want, 2);
	free(both);
}

static void
reports_truncated_gzip(void)
{
	static char text[100000];
	const unsigned char *data;
	size_t n, len;
	unsigned char *z;
	struct pc_input in;
	int rc;

	memset(text, 'x', sizeof(text));
	z = gz(text, sizeof(text), &n);
	cr_assert(eq(int, profconv__input_init(&in, NULL, z, n - 10, 0), 0));
	rc = profconv__input_slurp(&in, &data, &len);
	cr_assert(eq(int, rc, PROFCONV_EFORMAT));
	cr_assert(strncmp(profconv_errmsg(), "truncated gzip data at offset ", 30) == 0,
	    "%s", profconv_errmsg());
	profconv__input_free(&in);
	free(z);
}

/*
 * Z, the N bytes of a compressed text larger than LIMIT, is refused
 * with the message WANT when read under that limit.  Frees Z.
 */
static void
expect_over_limit(unsigned char *z, size_t n, uint64_t limit,
    const char *want)
{
	const unsigned char *data;
	struct pc_input in;
	size_t len;

	cr_assert(eq(int, profconv__input_init(&in, NULL, z, n, limit), 0));
	cr_assert(eq(int, profconv__input_slurp(&in, &data, &len),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, (char *)want));
	profconv__input_free(&in);
	free(z);
}

static void
bounds_decompressed_size(void)
{
	static char text[1 << 20];
	unsigned char *z;
	size_t n;

	memset(text, 'a', sizeof(text));
	z = gz(text, sizeof(text), &n);
	expect_over_limit(z, n, 4096, "input exceeds the limit of 4096 bytes");
}

static void
rejects_overlong_line(void)
{
	size_t n = PC_MAX_LINE + 10;
	char *text = malloc(n);
	const char *line;
	size_t len;
	FILE *fp;
	struct pc_input in;

	memset(text, 'x', n);
	fp = fmemopen(text, n, "rb");
	cr_assert(eq(int, profconv__input_init(&in, fp, NULL, 0, 0), 0));
	cr_assert(eq(int, profconv__input_getline(&in, &line, &len), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "line 1: longer than 1048576 bytes"));
	profconv__input_free(&in);
	fclose(fp);
	free(text);
}

static void
long_lines_across_buffer_refills(void)
{
	size_t n = 3 * 300000;
	char *text = malloc(n);
	const char *line;
	size_t len, i;
	FILE *fp;
	struct pc_input in;

	memset(text, 'y', n);
	text[299999] = '\n';
	text[599999] = '\n';
	text[n - 1] = '\n';
	fp = fmemopen(text, n, "rb");
	cr_assert(eq(int, profconv__input_init(&in, fp, NULL, 0, 0), 0));
	for (i = 0; i < 3; i++) {
		cr_assert(eq(int, profconv__input_getline(&in, &line, &len), 1));
		cr_assert(eq(sz, len, 299999));
	}
	cr_assert(eq(int, profconv__input_getline(&in, &line, &len), 0));
	profconv__input_free(&in);
	fclose(fp);
	free(text);
}

/* --- progress ---------------------------------------------------------------- */

struct progress_log {
	size_t calls;
	uint64_t last, total;
	bool monotonic;
};

static void
log_progress(uint64_t done, uint64_t total, void *payload)
{
	struct progress_log *log = payload;

	log->monotonic = log->monotonic && done >= log->last;
	log->calls++;
	log->last = done;
	log->total = total;
}

/* Reading a file reports its bytes, of the file's size, in order. */
Test(input, read_reports_progress_in_bytes_of_the_size)
{
	struct profconv_read_options opts = PROFCONV_READ_OPTIONS_INIT;
	struct progress_log log = { 0, 0, 0, true };
	struct profconv_profile *prof;
	FILE *fp = tmpfile();
	long size;
	int i;

	fputs("heap profile: 1: 2 [ 1: 2] @ heapprofile\n", fp);
	for (i = 0; i < 20000; i++)
		fprintf(fp, "1: 16 [1: 16] @ 0x%x 0x402000\n", 0x401000 + i * 16);
	size = ftell(fp);
	rewind(fp);
	opts.progress = log_progress;
	opts.progress_payload = &log;
	cr_assert(eq(int, profconv_profile_read(&prof, fp, &opts, NULL), 0),
	    "%s", profconv_errmsg());
	cr_assert(ge(sz, log.calls, 2));	/* read in 256 KiB chunks */
	cr_assert(log.monotonic);
	cr_assert(eq(u64, log.total, (uint64_t)size));
	cr_assert(le(u64, log.last, (uint64_t)size));
	profconv_profile_free(prof);
	fclose(fp);
}

static void
read_refuses_unknown_options_versions(void)
{
	struct profconv_read_options opts = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_profile *prof;

	opts.version = 5;
	cr_assert(eq(int, profconv_profile_read_mem(&prof, "x", 1, &opts, NULL),
	    PROFCONV_EINVAL));
	cr_assert(eq(str, (char *)profconv_errmsg(),
	    "read options version 5 is not one this library reads (1 to 4)"));
	opts.version = 0;	/* never initialised */
	cr_assert(eq(int, profconv_profile_read_mem(&prof, "x", 1, &opts, NULL),
	    PROFCONV_EINVAL));
}

/*
 * A caller built against an older profconv.h passes the older, shorter
 * layout: the library reads its fields and no further (here the bytes
 * after it are 0xff, which as a progress callback would crash and as a
 * snapshot number would name no snapshot).
 */
struct read_options_v1 {
	unsigned int version;
	uint64_t max_input;
	int threads;
};

static void
read_takes_older_options_layouts(void)
{
	static const char text[] = "goroutine profile: total 1\n1 @ 0x1000\n";
	struct {
		struct read_options_v1 v1;
		unsigned char after[64];
	} caller;
	struct profconv_profile *prof = NULL;

	memset(&caller, 0xff, sizeof(caller));
	caller.v1.version = 1;
	caller.v1.max_input = 0;
	caller.v1.threads = 0;
	cr_assert(eq(int, profconv_profile_read_mem(&prof, text, strlen(text),
	    (const struct profconv_read_options *)&caller.v1, NULL), 0), "%s",
	    profconv_errmsg());
	profconv_profile_free(prof);
	/* Its fields are used: a bound below the input's size refuses it. */
	caller.v1.max_input = 8;
	cr_assert(eq(int, profconv_profile_read_mem(&prof, text, strlen(text),
	    (const struct profconv_read_options *)&caller.v1, NULL),
	    PROFCONV_EFORMAT), "%s", profconv_errmsg());
}

/* LEN bytes of TEXT as one zstd frame (malloc'd), its size in *N. */
static unsigned char *
zst(const char *text, size_t len, size_t *n)
{
	size_t cap = ZSTD_compressBound(len);
	unsigned char *out = malloc(cap);

	cr_assert(not(eq(ptr, out, NULL)));
	*n = ZSTD_compress(out, cap, text, len, 3);
	cr_assert(eq(uint, ZSTD_isError(*n), 0));
	return out;
}

static void
decodes_zstd_from_memory_and_file(void)
{
	static const char *const want[] = { "v 10400 3", "X ./prog" };
	const char text[] = "v 10400 3\nX ./prog\n";
	size_t n;
	unsigned char *z = zst(text, strlen(text), &n);

	expect_mem_lines(z, n, want, 2);
	expect_stream_lines(z, n, want, 2);
	free(z);
}

static void
reads_concatenated_zstd_frames(void)
{
	size_t n1, n2;
	unsigned char *a = zst("one\n", 4, &n1), *b = zst("two\n", 4, &n2);
	unsigned char *both = joined(a, n1, b, n2);
	static const char *const want[] = { "one", "two" };

	expect_mem_lines(both, n1 + n2, want, 2);
	expect_stream_lines(both, n1 + n2, want, 2);
	free(both);
}

/* Input that ends inside a frame is an error, at any cut. */
static void
reports_truncated_zstd(void)
{
	static char text[300000];
	const unsigned char *data;
	size_t n, len, cut;
	unsigned char *z;
	struct pc_input in;
	unsigned i;

	for (i = 0; i < sizeof(text); i++)
		text[i] = (char)('a' + (i * 7919u) % 23);
	z = zst(text, sizeof(text), &n);
	for (cut = 4; cut < n; cut += n / 7) {
		cr_assert(eq(int, profconv__input_init(&in, NULL, z, cut, 0), 0));
		cr_assert(eq(int, profconv__input_slurp(&in, &data, &len),
		    PROFCONV_EFORMAT), "cut %zu", cut);
		cr_assert(strncmp(profconv_errmsg(), "truncated zstd data at "
		    "offset ", 29) == 0, "%s", profconv_errmsg());
		profconv__input_free(&in);
	}
	/* Whole, it decodes to the text. */
	cr_assert(eq(int, profconv__input_init(&in, NULL, z, n, 0), 0));
	cr_assert(eq(int, profconv__input_slurp(&in, &data, &len), 0));
	cr_assert(eq(sz, len, sizeof(text)));
	cr_assert(memcmp(data, text, len) == 0);
	profconv__input_free(&in);
	free(z);
}

static void
bounds_decompressed_zstd_size(void)
{
	static char text[1 << 20];
	unsigned char *z;
	size_t n;

	memset(text, 'x', sizeof(text));
	z = zst(text, sizeof(text), &n);
	expect_over_limit(z, n, 1000, "input exceeds the limit of 1000 bytes");
}

/* A skippable frame (magic 0x184D2A50 + K, little endian) of N bytes. */
static size_t
skippable(unsigned char *p, unsigned k, uint32_t n)
{
	static const unsigned char magic[4] = { 0x50, 0x2a, 0x4d, 0x18 };

	memcpy(p, magic, 4);
	p[0] |= (unsigned char)k;
	for (int i = 0; i < 4; i++)
		p[4 + i] = (unsigned char)(n >> (8 * i));
	memset(p + 8, 'S', n);
	return 8 + n;
}

/* As zstd -d: skippable frames first (pzstd's files), between frames and
 * last are passed over; alone they are no data. */
static void
skips_skippable_zstd_frames(void)
{
	static const char *const want[] = { "one", "two" };
	size_t n1, n2, n = 0;
	unsigned char *a = zst("one\n", 4, &n1), *b = zst("two\n", 4, &n2);
	unsigned char *all = malloc(n1 + n2 + 3 * 8 + 12 + 300);
	const unsigned char *data;
	size_t len;
	FILE *fp;
	struct pc_input in;

	n += skippable(all + n, 0, 4);		/* as pzstd writes */
	memcpy(all + n, a, n1);
	n += n1;
	n += skippable(all + n, 15, 300);
	memcpy(all + n, b, n2);
	n += n2;
	n += skippable(all + n, 7, 0);
	cr_assert(eq(int, profconv__input_init(&in, NULL, all, n, 0), 0));
	expect_lines(&in, want, 2);
	profconv__input_free(&in);
	fp = fmemopen(all, n, "rb");
	cr_assert(eq(int, profconv__input_init(&in, fp, NULL, 0, 0), 0));
	expect_lines(&in, want, 2);
	profconv__input_free(&in);
	fclose(fp);
	/* Only a skippable frame: nothing. */
	cr_assert(eq(int, profconv__input_init(&in, NULL, all, 12, 0), 0));
	cr_assert(eq(int, profconv__input_slurp(&in, &data, &len), 0));
	cr_assert(eq(sz, len, 0));
	profconv__input_free(&in);
	/* Cut inside one: truncated, as zstd -d says. */
	cr_assert(eq(int, profconv__input_init(&in, NULL, all, 10, 0), 0));
	cr_assert(eq(int, profconv__input_slurp(&in, &data, &len),
	    PROFCONV_EFORMAT));
	cr_assert(strncmp(profconv_errmsg(), "truncated zstd data", 19) == 0,
	    "%s", profconv_errmsg());
	profconv__input_free(&in);
	free(a);
	free(b);
	free(all);
}

/* TEXT as one frame with a window of 2^LOG and no content size, as
 * zstd --long writes from a pipe (malloc'd), its size in *N. */
static unsigned char *
zst_window(const char *text, size_t len, int log, size_t *n)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(len) + 64;
	unsigned char *out = malloc(cap);
	ZSTD_inBuffer src = { text, len, 0 };
	ZSTD_outBuffer dst = { out, cap, 0 };

	cr_assert(not(eq(ptr, out, NULL)));
	cr_assert(eq(uint, ZSTD_isError(ZSTD_CCtx_setParameter(c,
	    ZSTD_c_windowLog, log)), 0));
	/* Fed before it is ended: the size stays unknown. */
	cr_assert(eq(uint, ZSTD_isError(ZSTD_compressStream2(c, &dst, &src,
	    ZSTD_e_continue)), 0));
	src = (ZSTD_inBuffer){ NULL, 0, 0 };
	cr_assert(eq(sz, ZSTD_compressStream2(c, &dst, &src, ZSTD_e_end), 0));
	ZSTD_freeCCtx(c);
	*n = dst.pos;
	return out;
}

/* A window over zstd's default 128 MiB reads when the input bound
 * allows that much data; else the message says how large it is. */
static void
takes_zstd_windows_the_input_bound_allows(void)
{
	static const char *const want[] = { "v 10400 3", "X ./prog" };
	const char text[] = "v 10400 3\nX ./prog\n";
	const unsigned char *data;
	size_t n, len;
	unsigned char *z = zst_window(text, strlen(text), 30, &n);
	FILE *fp;
	struct pc_input in;

	cr_assert(eq(int, profconv__input_init(&in, NULL, z, n, 0), 0));
	expect_lines(&in, want, 2);
	profconv__input_free(&in);
	cr_assert(eq(int, profconv__input_init(&in, NULL, z, n, 1 << 30), 0));
	expect_lines(&in, want, 2);
	profconv__input_free(&in);
	fp = fmemopen(z, n, "rb");
	cr_assert(eq(int, profconv__input_init(&in, fp, NULL, 0, 100 << 20),
	    0));
	cr_assert(eq(int, profconv__input_slurp(&in, &data, &len),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "zstd frame at offset 0 needs a window of "
	    "1024 MiB, more than the input limit of 104857600 bytes allows"));
	profconv__input_free(&in);
	fclose(fp);
	free(z);
}

/* --- gzip members inflated on threads ------------------------------------ */

/* Text of LEN bytes, line after line, that compresses some. */
static char *
member_text(size_t len, unsigned int seed)
{
	char *t = malloc(len);
	size_t i;

	for (i = 0; i < len; i++)
		t[i] = i % 61 == 60 ? '\n' : (char)('a' + (i * 7 + seed +
		    (i >> 9) * seed) % 26);
	return t;
}

/* TEXT (LEN bytes) as gzip members of BLOCK bytes each, into *OUT_LEN. */
static unsigned char *
gz_members(const char *text, size_t len, size_t block, size_t *out_len)
{
	unsigned char *all = malloc(len + len / 2 + 4096), *one;
	size_t at, n, k, w = 0;

	for (at = 0; at < len; at += n) {
		n = len - at < block ? len - at : block;
		one = gz(text + at, n, &k);
		memcpy(all + w, one, k);
		w += k;
		free(one);
	}
	*out_len = w;
	return all;
}

/*
 * Slurp Z (LEN bytes) both ways, from memory and from a FILE, after a
 * sniff's worth of input (as read.c reads before a reader slurps):
 * profconv__input_slurp_jobs() on JOBS threads gives the same bytes, or
 * the same error, as profconv__input_slurp().  Returns the members
 * the threads inflated from the FILE.
 */
static size_t
slurp_both_ways(const unsigned char *z, size_t len, uint64_t max,
    unsigned int jobs)
{
	const unsigned char *d1, *d2;
	size_t l1 = 0, l2 = 0, members = 0;
	char msg1[512];
	struct pc_input a, b;
	int rc1, rc2, from;

	for (from = 0; from < 2; from++) {
		FILE *fa = from ? fmemopen((void *)z, len, "rb") : NULL;
		FILE *fb = from ? fmemopen((void *)z, len, "rb") : NULL;

		cr_assert(eq(int, profconv__input_init(&a, fa, from ? NULL : z,
		    from ? 0 : len, max), 0));
		cr_assert(eq(int, profconv__input_init(&b, fb, from ? NULL : z,
		    from ? 0 : len, max), 0));
		rc1 = profconv__input_fill(&a, 4096);
		if (rc1 == 0)
			rc1 = profconv__input_slurp(&a, &d1, &l1);
		snprintf(msg1, sizeof(msg1), "%s", rc1 < 0 ? profconv_errmsg() : "");
		rc2 = profconv__input_fill(&b, 4096);
		if (rc2 == 0)
			rc2 = profconv__input_slurp_jobs(&b, jobs, &d2, &l2);
		cr_assert(eq(int, rc2, rc1));
		if (rc1 < 0) {
			cr_assert(eq(str, (char *)profconv_errmsg(), msg1));
		} else {
			cr_assert(eq(sz, l2, l1));
			cr_assert(memcmp(d1, d2, l1) == 0);
		}
		if (from)
			members = b.gz_members;
		profconv__input_free(&a);
		profconv__input_free(&b);
		if (from) {
			fclose(fa);
			fclose(fb);
		}
	}
	return members;
}

/* Members of 64 KiB: the threads inflate those after what the first
 * fill inflated (a buffer's worth: 4 of 16), where the build has
 * libdeflate, and the bytes are zlib's. */
static void
inflates_gzip_members_on_threads(void)
{
	size_t len = 1 << 20, n, members;
	char *text = member_text(len, 3);
	unsigned char *z = gz_members(text, len, 65536, &n);
	unsigned int jobs;

	for (jobs = 1; jobs <= 4; jobs++) {
		members = slurp_both_ways(z, n, 0, jobs);
#ifdef HAVE_LIBDEFLATE
		cr_assert(ge(sz, members, 8));
#else
		cr_assert(eq(sz, members, 0));
#endif
	}
	/* Rounds of compressed input that end inside a member. */
	profconv__test_gz_round = 20000;
	members = slurp_both_ways(z, n, 0, 2);
	profconv__test_gz_round = 0;
#ifdef HAVE_LIBDEFLATE
	cr_assert(ge(sz, members, 8));
#endif
	/* One member: nothing left for threads, the same bytes. */
	free(z);
	z = gz(text, len, &n);
	cr_assert(eq(sz, slurp_both_ways(z, n, 0, 2), 0));
	free(z);
	free(text);
}

/* A member's data that holds what looks like another member's header:
 * a guess that fails, and the same bytes. */
static void
gzip_member_guesses_are_proven(void)
{
	size_t len = 300000, n, k, i;
	char *text = member_text(len, 5);
	unsigned char *z, *stored, *all;
	z_stream s = { 0 };
	static const unsigned char head[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0,
		0, 3 };

	/* Headers inside the text, which a stored member keeps as they are. */
	for (i = 70000; i + sizeof(head) < len; i += 50000)
		memcpy(text + i, head, sizeof(head));
	z = gz_members(text, len, 100000, &n);
	stored = malloc(len + 4096);
	cr_assert(eq(int, deflateInit2(&s, 0, Z_DEFLATED, 16 + MAX_WBITS, 8,
	    Z_DEFAULT_STRATEGY), Z_OK));
	s.next_in = (unsigned char *)text;
	s.avail_in = (uInt)len;
	s.next_out = stored;
	s.avail_out = (uInt)(len + 4096);
	cr_assert(eq(int, deflate(&s, Z_FINISH), Z_STREAM_END));
	k = s.total_out;
	deflateEnd(&s);
	all = malloc(n + k + n);
	memcpy(all, z, n);
	memcpy(all + n, stored, k);
	memcpy(all + n + k, z, n);
	slurp_both_ways(all, n + k + n, 0, 2);
	free(all);
	free(stored);
	free(z);
	free(text);
}

/* A corrupt member, a truncated last one, a bound passed in a member the
 * threads would take: the errors zlib reports, at the same offsets. */
static void
gzip_member_errors_are_zlibs(void)
{
	size_t len = 1 << 20, n;
	char *text = member_text(len, 7);
	unsigned char *z = gz_members(text, len, 65536, &n);
	unsigned char *bad = malloc(n);

	memcpy(bad, z, n);
	bad[n / 2] ^= 0x55;
	slurp_both_ways(bad, n, 0, 2);
	slurp_both_ways(z, n - 5, 0, 2);
	slurp_both_ways(z, n, len / 2 + 1000, 2);
	slurp_both_ways(z, n, len, 2);
	/* Garbage after the last member. */
	memcpy(bad, z, n);
	memset(bad + n - 20, 0x1f, 20);
	slurp_both_ways(bad, n, 0, 2);
	/* Rounds smaller than a member: zlib goes on. */
	profconv__test_gz_round = 1000;
	slurp_both_ways(z, n, 0, 2);
	profconv__test_gz_round = 0;
	free(bad);
	free(z);
	free(text);
}

/* --- the cases above, one test per behaviour ------------------------------ */

/* Lines, their endings and their length bound. */
Test(input, splits_lines)
{
	splits_plain_memory_into_lines();
	drops_cr_ending_the_last_line();
	long_lines_across_buffer_refills();
	rejects_overlong_line();
}

/* gzip input: from a file, in members, cut short or too large. */
Test(input, inflates_gzip)
{
	inflates_gzip_from_a_file();
	reads_concatenated_gzip_members();
	reports_truncated_gzip();
	bounds_decompressed_size();
}

/* Which read options layouts are taken. */
Test(input, read_options_versions)
{
	read_refuses_unknown_options_versions();
	read_takes_older_options_layouts();
}

/* zstd input: frames, skippable frames, cuts, bounds and windows. */
Test(input, decodes_zstd)
{
	decodes_zstd_from_memory_and_file();
	reads_concatenated_zstd_frames();
	reports_truncated_zstd();
	bounds_decompressed_zstd_size();
	skips_skippable_zstd_frames();
	takes_zstd_windows_the_input_bound_allows();
}

/* gzip members on threads: the same bytes and errors as zlib. */
Test(input, threads_inflate_gzip_members_as_zlib)
{
	inflates_gzip_members_on_threads();
	gzip_member_guesses_are_proven();
	gzip_member_errors_are_zlibs();
}

/* What a reader has decoded is given back, in whole huge pages of the
 * input's own buffer only, from where the last call ended; a caller's
 * memory read in place is never touched. */
Test(input, release_gives_back_own_pages_only)
{
	size_t u = (size_t)2 << 20, n = 24 * u, len, i;
	unsigned char *text = malloc(n);
	const unsigned char *data;
	struct pc_input in;
	size_t zeros = 0;
	FILE *fp;

	cr_assert(not(zero(ptr, text)));
	memset(text, 'x', n);
	fp = fmemopen(text, n, "rb");
	cr_assert(not(zero(ptr, fp)));
	cr_assert(eq(int, profconv__input_init(&in, fp, NULL, 0, 0), 0));
	cr_assert(eq(int, profconv__input_slurp(&in, &data, &len), 0));
	cr_assert(eq(sz, len, n));
	profconv__input_release(&in, data + 10 * u + 7);
	profconv__input_release(&in, data + 20 * u + 7);
	for (i = 0; i < n; i++)
		zeros += data[i] == 0;
	/* Of the 20 steps before, the one the buffer starts in and the one
	 * the second call ends in may not be whole; nothing after. */
	cr_expect(ge(sz, zeros, 18 * u), "%zu", zeros);
	cr_expect(le(sz, zeros, 20 * u + 7), "%zu", zeros);
	for (i = 20 * u + 7; i < n; i++)
		if (data[i] != 'x')
			break;
	cr_expect(eq(sz, i, n));
	profconv__input_free(&in);
	fclose(fp);
	/* Memory read in place is the caller's. */
	cr_assert(eq(int, profconv__input_init(&in, NULL, text, n, 0), 0));
	cr_assert(eq(int, profconv__input_slurp(&in, &data, &len), 0));
	profconv__input_release(&in, data + n);
	for (i = 0; i < n && text[i] == 'x'; i++)
		;
	cr_expect(eq(sz, i, n));
	profconv__input_free(&in);
	free(text);
}
