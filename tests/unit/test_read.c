/* SPDX-License-Identifier: MIT */
/*
 * test_read.c - format detection: every registered reader is chosen for
 * its own inputs only, and format_out names the reader that read them.
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "helpers.h"

#define PC_LEN(a) (sizeof(a) / sizeof((a)[0]))

static struct profconv_profile *prof;

static void
drop_profile(void)
{
	profconv_profile_free(prof);
	prof = NULL;
}

TestSuite(read, .fini = drop_profile);

struct text_case {
	const char *text;
	enum profconv_format format;
	const char *name;
};

static const struct text_case texts[] = {
	{ "heap profile:    1:   128 [     1:   128] @ heapprofile\n"
	  "     1:   128 [     1:   128] @ 0x1000 0x2000\n",
	  PROFCONV_FORMAT_HEAP, "heap" },
	{ "heap_v2/524288\n"
	  "  t*: 1: 32 [0: 0]\n"
	  "@ 0x1000 0x2000\n"
	  "  t*: 1: 32 [0: 0]\n",
	  PROFCONV_FORMAT_JEMALLOC, "jemalloc" },
	{ "--- contentionz 1 ---\n"
	  "cycles/second = 1000\n"
	  "  100       2 @ 0x1000 0x2000\n",
	  PROFCONV_FORMAT_CONTENTION, "contention" },
	{ "--- mutex:\n"
	  "cycles/second=1000\n"
	  "sampling period=1\n"
	  "100 2 @ 0x1000 0x2000\n",
	  PROFCONV_FORMAT_CONTENTION, "contention" },
	{ "goroutine profile: total 1\n"
	  "1 @ 0x1000 0x2000\n",
	  PROFCONV_FORMAT_GOCOUNT, "gocount" },
	/* pprof reads this as a count profile of type "heap": so do we,
	 * and format_out says so (it used to say "heap"). */
	{ "heap profile: total 1\n"
	  "1 @ 0x1000 0x2000\n",
	  PROFCONV_FORMAT_GOCOUNT, "gocount" },
	{ "\n# a comment first\n"
	  "threadcreate profile: total 1\n"
	  "1 @ 0x1000\n",
	  PROFCONV_FORMAT_GOCOUNT, "gocount" },
	{ "--- threadz 1 ---\n"
	  "\n"
	  "--- Thread 1 (name: main/1) stack: ---\n"
	  "  PC: 0x1000 0x2000\n"
	  "--- Memory map: ---\n"
	  "  00001000-00004000: /bin/prog\n",
	  PROFCONV_FORMAT_THREAD, "thread" },
};

static void
expect_read(const void *data, size_t len, enum profconv_format want,
    const char *name, size_t i)
{
	enum profconv_format fmt = PROFCONV_FORMAT_UNKNOWN;

	cr_assert(eq(int, profconv_profile_read_mem(&prof, data, len, NULL,
	    &fmt), 0), "case %zu: %s", i, ERRMSG);
	cr_expect(eq(int, fmt, want), "case %zu", i);
	cr_expect(eq(str, (char *)profconv_format_name(fmt), (char *)name),
	    "case %zu", i);
	cr_expect(gt(sz, profconv_profile_sample_count(prof), 0), "case %zu",
	    i);
	drop_profile();
}

static void
each_text_format_names_its_reader(void)
{
	size_t i;

	for (i = 0; i < PC_LEN(texts); i++)
		expect_read(texts[i].text, strlen(texts[i].text),
		    texts[i].format, texts[i].name, i);
	drop_profile();
}

/*
 * A UTF-8 byte order mark before a text profile: go tool pprof reads heap
 * and thread profiles after one, and a goroutine profile with the mark in
 * its type's name; every text format reads so here.
 */
static void
text_formats_read_after_a_byte_order_mark(void)
{
	struct profconv_value_type vt;
	char buf[512];
	size_t i, n;

	for (i = 0; i < PC_LEN(texts); i++) {
		n = (size_t)snprintf(buf, sizeof(buf), "\xef\xbb\xbf%s",
		    texts[i].text);
		expect_read(buf, n, texts[i].format, texts[i].name, i);
	}
	n = (size_t)snprintf(buf, sizeof(buf), "\xef\xbb\xbf%s",
	    texts[4].text);	/* goroutine */
	cr_assert(eq(int, profconv_profile_read_mem(&prof, buf, n, NULL, NULL),
	    0));
	cr_assert(eq(int, profconv_profile_sample_type(prof, 0, &vt), 0));
	cr_assert(eq(str, (char *)vt.type, "\xef\xbb\xbfgoroutine"));
	drop_profile();
}

/* Compressed input is sniffed after decompression. */
static void
gzip_input_names_the_inner_format(void)
{
	unsigned char gz[1024];
	z_stream z = { 0 };
	size_t i;

	for (i = 0; i < PC_LEN(texts); i++) {
		memset(&z, 0, sizeof(z));
		cr_assert(eq(int, deflateInit2(&z, 6, Z_DEFLATED, 16 + 15, 8,
		    Z_DEFAULT_STRATEGY), Z_OK));
		z.next_in = (unsigned char *)texts[i].text;
		z.avail_in = (uInt)strlen(texts[i].text);
		z.next_out = gz;
		z.avail_out = sizeof(gz);
		cr_assert(eq(int, deflate(&z, Z_FINISH), Z_STREAM_END));
		expect_read(gz, sizeof(gz) - z.avail_out, texts[i].format,
		    texts[i].name, i);
		deflateEnd(&z);
	}
	drop_profile();
}

/* A 64-bit little-endian CPU profile: header, one record, end marker. */
static void
cpu_profile_names_its_reader(void)
{
	static const uint64_t words[] = {
		0, 3, 0, 10000, 0,
		1, 2, 0x1000, 0x2000,
		0, 1, 0,
	};
	unsigned char buf[sizeof(words)];
	size_t i, k;

	for (i = 0; i < PC_LEN(words); i++)
		for (k = 0; k < 8; k++)
			buf[i * 8 + k] = (unsigned char)(words[i] >> (8 * k));
	expect_read(buf, sizeof(buf), PROFCONV_FORMAT_CPU, "cpu", 0);
	drop_profile();
}

/* What the library writes it reads back as pprof, compressed or not. */
static void
pprof_names_its_reader(void)
{
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	static const char text[] = "heap profile: 1: 128 [ 1: 128] @ "
	    "heapprofile\n1: 128 [ 1: 128] @ 0x1000\n";
	char *mem = NULL;
	size_t len = 0;
	FILE *fp;
	int gz;

	for (gz = 0; gz < 2; gz++) {
		cr_assert(eq(int, profconv_profile_read_mem(&prof, text,
		    strlen(text), NULL, NULL), 0), "%s", ERRMSG);
		fp = open_memstream(&mem, &len);
		cr_assert(not(zero(ptr, fp)));
		wo.level = gz ? -1 : 0;
		cr_assert(eq(int, profconv_profile_write(prof, fp, &wo), 0),
		    "%s", ERRMSG);
		cr_assert(eq(int, fclose(fp), 0));
		drop_profile();
		expect_read(mem, len, PROFCONV_FORMAT_PPROF, "pprof", (size_t)gz);
		free(mem);
		mem = NULL;
	}
	drop_profile();
}

Test(read, each_format_names_its_reader)
{
	each_text_format_names_its_reader();
	text_formats_read_after_a_byte_order_mark();
	gzip_input_names_the_inner_format();
	cpu_profile_names_its_reader();
	pprof_names_its_reader();
}

/* No reader takes it: UNKNOWN, and the message says what was expected. */
static void
unrecognized_input_is_unknown(void)
{
	static const char *const junk[] = {
		"hello world\n",
		"%warn heap sampling is off\n",
		"\x00\x00\x00\x00\x00\x00\x00\x00",
		"\x0a\xff\xff\xff\x0f\x01\x02",	/* a field longer than the input */
	};
	static const size_t lens[] = { 12, 27, 8, 7 };
	enum profconv_format fmt;
	size_t i;

	for (i = 0; i < PC_LEN(junk); i++) {
		fmt = PROFCONV_FORMAT_HEAP;
		cr_assert(eq(int, profconv_profile_read_mem(&prof, junk[i],
		    lens[i], NULL, &fmt), PROFCONV_EFORMAT), "case %zu", i);
		cr_expect(eq(int, fmt, PROFCONV_FORMAT_UNKNOWN), "case %zu", i);
		cr_expect(zero(ptr, prof));
	}
	cr_expect(eq(str, (char *)profconv_format_name(PROFCONV_FORMAT_UNKNOWN),
	    "unknown"));
	cr_expect(eq(str, (char *)profconv_format_name((enum profconv_format)99),
	    "unknown"));
	drop_profile();
}

/*
 * Input near a format that no reader takes is explained by the reader
 * that knows that format (its explain hook), first words of the message
 * saying what it is; the rest gets the generic message.
 */
static void
readers_explain_what_they_refuse(void)
{
	static const struct {
		const char *text;
		size_t len;
		int rc;
		const char *msg;
	} cases[] = {
		{ "%warn heap sampling is off\n", 27, PROFCONV_EFORMAT,
		    "not a profile: tcmalloc's heap sample was taken" },
		{ "--- heapz 1 ---\n", 16, PROFCONV_EUNSUPPORTED,
		    "Java heapz profiles are not supported" },
		{ "goroutine 1 [running]:\nmain.main()\n", 35,
		    PROFCONV_EUNSUPPORTED, "unsupported Go goroutine stack dump" },
		/* 32-bit little-endian header words 0, 3, 0, period 0, 0. */
		{ "\0\0\0\0\3\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 20,
		    PROFCONV_EFORMAT, "gperftools CPU profile with a sampling "
		    "period of 0" },
		{ "BZh91AY&SY", 10, PROFCONV_EUNSUPPORTED,
		    "bzip2-compressed input" },
		{ "\x0a\xff\xff\xff\x0f\x01\x02", 7, PROFCONV_EFORMAT,
		    "" },
		{ "hello world\n", 12, PROFCONV_EFORMAT,
		    "unrecognized profile format (text)" },
	};
	size_t i;

	for (i = 0; i < PC_LEN(cases); i++) {
		cr_assert(eq(int, profconv_profile_read_mem(&prof, cases[i].text,
		    cases[i].len, NULL, NULL), cases[i].rc), "case %zu: %s", i,
		    ERRMSG);
		cr_expect(eq(int, strncmp(ERRMSG, cases[i].msg,
		    strlen(cases[i].msg)), 0), "case %zu: %s", i, ERRMSG);
		/* pprof's own explanation is not the generic message. */
		if (cases[i].msg[0] == '\0')
			cr_expect(zero(ptr, strstr(ERRMSG, "unrecognized")),
			    "case %zu: %s", i, ERRMSG);
	}
	drop_profile();
}

/* A reader that fails still says which format it was: detection and
 * reading are separate steps. */
static void
a_failing_reader_keeps_its_format(void)
{
	static const char text[] = "heap profile: 1: 2 [ 1: 2] @ heapprofile\n"
	    "1: x [1: 2] @ 0x1000\n";
	enum profconv_format fmt = PROFCONV_FORMAT_UNKNOWN;

	cr_assert(lt(int, profconv_profile_read_mem(&prof, text, strlen(text),
	    NULL, &fmt), 0));
	cr_expect(eq(int, fmt, PROFCONV_FORMAT_HEAP));
	drop_profile();
}

Test(read, refused_input_is_explained)
{
	unrecognized_input_is_unknown();
	readers_explain_what_they_refuse();
	a_failing_reader_keeps_its_format();
}

/* An options struct of a layout this library does not know is refused
 * before anything is read or written. */
static void
unknown_options_versions_are_refused(void)
{
	struct profconv_read_options ro = PROFCONV_READ_OPTIONS_INIT;
	struct profconv_write_options wo = PROFCONV_WRITE_OPTIONS_INIT;
	struct profconv_symbolize_options so = PROFCONV_SYMBOLIZE_OPTIONS_INIT;
	static const char text[] = "goroutine profile: total 1\n1 @ 0x1000\n";
	static const unsigned int bad[] = { 0, 99, 0xffffffffu };
	char msg[128];
	size_t i;
	FILE *fp;

	cr_assert(eq(int, profconv_profile_read_mem(&prof, text, strlen(text),
	    &ro, NULL), 0), "%s", ERRMSG);
	fp = fopen("/dev/null", "w");
	cr_assert(not(zero(ptr, fp)));
	for (i = 0; i < PC_LEN(bad); i++) {
		struct profconv_profile *p2 = NULL;

		ro.version = wo.version = so.version = bad[i];
		cr_expect(eq(int, profconv_profile_read_mem(&p2, text,
		    strlen(text), &ro, NULL), PROFCONV_EINVAL));
		cr_expect(zero(ptr, p2));
		snprintf(msg, sizeof(msg), "read options version %u is not "
		    "one this library reads (1 to %u)", bad[i],
		    PROFCONV_READ_OPTIONS_VERSION);
		cr_expect(eq(str, ERRMSG, msg));
		cr_expect(eq(int, profconv_profile_read(&p2, fp, &ro, NULL),
		    PROFCONV_EINVAL));
		cr_expect(eq(int, profconv_profile_write(prof, fp, &wo),
		    PROFCONV_EINVAL));
		snprintf(msg, sizeof(msg), "write options version %u is not "
		    "one this library reads (1 to %u)", bad[i],
		    PROFCONV_WRITE_OPTIONS_VERSION);
		cr_expect(eq(str, ERRMSG, msg));
		cr_expect(eq(int, profconv_symbolize(prof, &so, NULL),
		    PROFCONV_EINVAL));
		snprintf(msg, sizeof(msg), "symbolize options version %u is "
		    "not one this library reads (1 to %u)", bad[i],
		    PROFCONV_SYMBOLIZE_OPTIONS_VERSION);
		cr_expect(eq(str, ERRMSG, msg));
	}
	fclose(fp);
	drop_profile();
}

/* The same for the options of the view, diff, flame and print writers. */
static void
every_writer_checks_its_options_version(void)
{
	struct profconv_view_options vo = PROFCONV_VIEW_OPTIONS_INIT;
	struct profconv_diff_options dop = PROFCONV_DIFF_OPTIONS_INIT;
	struct profconv_diff_print_options dpo =
	    PROFCONV_DIFF_PRINT_OPTIONS_INIT;
	struct profconv_flame_options fo = PROFCONV_FLAME_OPTIONS_INIT;
	struct profconv_print_options po = PROFCONV_PRINT_OPTIONS_INIT;
	static const char text[] = "goroutine profile: total 1\n1 @ 0x1000\n";
	struct profconv_view *view = NULL, *v2 = NULL;
	struct profconv_diff *diff = NULL, *d2 = NULL;
	FILE *fp;

	cr_assert(eq(int, profconv_profile_read_mem(&prof, text, strlen(text),
	    NULL, NULL), 0), "%s", ERRMSG);
	cr_assert(eq(int, profconv_view_new(&view, prof, &vo), 0), "%s",
	    ERRMSG);
	cr_assert(eq(int, profconv_diff_new(&diff, prof, prof, &dop), 0), "%s",
	    ERRMSG);
	fp = fopen("/dev/null", "w");
	cr_assert(not(zero(ptr, fp)));
	vo.version = dop.version = dpo.version = fo.version = po.version = 99;
	cr_expect(eq(int, profconv_view_new(&v2, prof, &vo), PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "view options version 99 is not one this library "
	    "reads (1 to 6)"));
	cr_expect(eq(int, profconv_diff_new(&d2, prof, prof, &dop),
	    PROFCONV_EINVAL));
	cr_expect(eq(int, profconv_diff_print(diff, fp, &dpo),
	    PROFCONV_EINVAL));
	cr_expect(eq(int, profconv_diff_write_json(diff, fp, &dpo),
	    PROFCONV_EINVAL));
	cr_expect(eq(int, profconv_flame_write(view, NULL, fp, &fo),
	    PROFCONV_EINVAL));
	cr_expect(eq(int, profconv_profile_print(prof, fp, &po),
	    PROFCONV_EINVAL));
	cr_expect(zero(ptr, v2));
	cr_expect(zero(ptr, d2));
	fclose(fp);
	profconv_diff_free(diff);
	profconv_view_free(view);
	drop_profile();
}

Test(read, options_versions_are_checked)
{
	unknown_options_versions_are_refused();
	every_writer_checks_its_options_version();
}
