/* SPDX-License-Identifier: MIT */
/*
 * read.c - open any input, recognize its format by the registered readers'
 * sniffs (readers.h), and hand it to the first that accepts it.
 */

#include "config.h"

#include <string.h>

#include "read/lex.h"
#include "pprof/pprof.h"
#include "read/readers.h"

/* In the order their sniffs are tried: binary formats, then text. */
static const struct pc_reader *const readers[] = {
	&profconv__reader_cpu,
	&profconv__reader_heap,
	&profconv__reader_jemalloc,
	&profconv__reader_contention,
	&profconv__reader_thread,
	&profconv__reader_gocount,
	&profconv__reader_heaptrack,
	&profconv__reader_massif,
	&profconv__reader_pprof,
};

const char *
profconv_format_name(enum profconv_format format)
{
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(readers); i++)
		if (readers[i]->format == format)
			return readers[i]->name;
	return "unknown";
}

void
profconv__head_first_line(const unsigned char *head, size_t len,
    const char **line, size_t *n)
{
	const char *p = (const char *)head, *nl = memchr(p, '\n', len);

	*line = p;
	*n = nl != NULL ? (size_t)(nl - p) : len;
	if (*n != 0 && p[*n - 1] == '\r')
		(*n)--;
}

bool
profconv__head_content_line(const unsigned char *head, size_t len,
    const char **line, size_t *n)
{
	const unsigned char *end = head + len, *nl;

	while (head < end) {
		profconv__head_first_line(head, (size_t)(end - head), line, n);
		if (!profconv__is_space_or_comment(*line, *n))
			return true;
		nl = memchr(head, '\n', (size_t)(end - head));
		if (nl == NULL)
			break;
		head = nl + 1;
	}
	return false;
}

/* "goroutine 1 [running]:": a debug=2 goroutine dump or runtime.Stack. */
static bool
is_goroutine_dump(const unsigned char *data, size_t len)
{
	const char *p = (const char *)data, *end = p + len;

	if (!pc_has_prefix(p, len, "goroutine "))
		return false;
	p += strlen("goroutine ");
	if (p == end || *p < '0' || *p > '9')
		return false;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return end - p >= 2 && p[0] == ' ' && p[1] == '[';
}

/* A compression format other than gzip, by its magic number, or NULL. */
static const char *
other_compression(const unsigned char *p, size_t len)
{
	static const struct { const char *name, *magic; size_t n; } kinds[] = {
		{ "xz", "\xfd" "7zXZ\0", 6 },
		{ "lzma", "\x5d\0\0", 3 },
		{ "lz4", "\x04\x22\x4d\x18", 4 },
	};

	for (size_t i = 0; i < PC_ARRAY_LEN(kinds); i++)
		if (len >= kinds[i].n && memcmp(p, kinds[i].magic,
		    kinds[i].n) == 0)
			return kinds[i].name;
	/* "BZh", the block size digit, a block or end-of-stream magic. */
	if (len >= 5 && memcmp(p, "BZh", 3) == 0 && p[3] >= '1' &&
	    p[3] <= '9' && (p[4] == 0x31 || p[4] == 0x17))
		return "bzip2";
	return NULL;
}

/* Word I of WIDTH bytes at P, little or BIG endian. */
static uint64_t
word_at(const unsigned char *p, size_t i, int width, bool big)
{
	uint64_t v = 0;

	p += i * (size_t)width;
	for (int k = 0; k < width; k++)
		v |= (uint64_t)p[big ? width - 1 - k : k] << (8 * k);
	return v;
}

/* A gperftools CPU header (words 0, 3, 0 or 1, period, 0) whose period is
 * 0, which no profiler writes and cpu.c's sniff does not accept. */
static bool
cpu_period_zero(const unsigned char *p, size_t len)
{
	for (int w = 4; w <= 8; w += 4)
		for (int big = 0; big <= 1; big++)
			if (len >= 5 * (size_t)w && word_at(p, 0, w, big) == 0 &&
			    word_at(p, 1, w, big) == 3 &&
			    word_at(p, 2, w, big) <= 1 &&
			    word_at(p, 3, w, big) == 0 &&
			    word_at(p, 4, w, big) == 0)
				return true;
	return false;
}

static int
unrecognized(const unsigned char *data, size_t len, bool whole)
{
	const char *what = "binary data";
	size_t i, n = len < 64 ? len : 64;

	if (other_compression(data, len) != NULL)
		return profconv__fail(PROFCONV_EUNSUPPORTED, "%s-compressed "
		    "input: only gzip and zstd are read; decompress it first",
		    other_compression(data, len));
	if (cpu_period_zero(data, len))
		return profconv__fail(PROFCONV_EFORMAT, "gperftools CPU "
		    "profile with a sampling period of 0");
	/* A pprof whose last field runs past the end: say where. */
	if (whole && profconv__reader_pprof.sniff(data, len, false))
		return profconv__pb_invalid(data, len);

	for (i = 0; i < n && (data[i] >= 0x20 || data[i] == '\n' ||
	    data[i] == '\t' || data[i] == '\r'); i++)
		;
	if (i == n)
		what = "text";
	return profconv__fail(PROFCONV_EFORMAT,
	    "unrecognized profile format (%s); expected pprof protobuf, "
	    "gperftools/Go heap or CPU, jemalloc heap_v2, contention, "
	    "Go goroutine/threadcreate, heaptrack or massif", what);
}

static int
read_input(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts, enum profconv_format *format_out)
{
	const unsigned char *data;
	size_t len, i;
	bool whole;
	int rc;

	rc = profconv__input_fill(in, PC_SNIFF_BYTES);
	if (rc < 0)
		return rc;
	data = profconv__input_data(in);
	len = profconv__input_avail(in);
	if (len == 0)
		return profconv__fail(PROFCONV_EFORMAT, "empty input");
	whole = in->eof && len <= PC_SNIFF_BYTES;
	if (len > PC_SNIFF_BYTES)
		len = PC_SNIFF_BYTES;
	for (i = 0; i < PC_ARRAY_LEN(readers); i++) {
		if (!readers[i]->sniff(data, len, whole))
			continue;
		if (format_out != NULL)
			*format_out = readers[i]->format;
		return readers[i]->read(out, in, opts);
	}
	/* GetHeapSample() without sampling writes a note, not a profile. */
	if (pc_has_prefix((const char *)data, len, "%warn"))
		return profconv__fail(PROFCONV_EFORMAT,
		    "not a profile: tcmalloc's heap sample was taken with "
		    "sampling off (set TCMALLOC_SAMPLE_PARAMETER)");
	if (is_goroutine_dump(data, len))
		return profconv__fail(PROFCONV_EUNSUPPORTED,
		    "unsupported Go goroutine stack dump (debug=2 or "
		    "runtime.Stack): only the debug=1 count profile "
		    "('goroutine profile: total N') is read");
	if (pc_has_prefix((const char *)data, len, "--- heapz "))
		return profconv__fail(PROFCONV_EUNSUPPORTED,
		    "Java heapz profiles are not supported");
	return unrecognized(data, len, whole);
}

int
profconv_profile_read(struct profconv_profile **out, FILE *fp,
    const struct profconv_read_options *opts, enum profconv_format *format_out)
{
	struct profconv_read_options o;
	struct pc_input in;
	int rc;

	*out = NULL;
	if (format_out != NULL)
		*format_out = PROFCONV_FORMAT_UNKNOWN;
	if ((rc = profconv__options_take(&o, opts, &profconv__options_read)) < 0)
		return rc;
	opts = &o;
	rc = profconv__input_init(&in, fp, NULL, 0,
	    opts != NULL ? opts->max_input : 0);
	if (rc == 0 && opts != NULL)
		profconv__input_progress(&in, opts->progress,
		    opts->progress_payload);
	if (rc == 0)
		rc = read_input(out, &in, opts, format_out);
	profconv__input_free(&in);
	return rc;
}

int
profconv_profile_read_mem(struct profconv_profile **out, const void *data,
    size_t len, const struct profconv_read_options *opts,
    enum profconv_format *format_out)
{
	struct profconv_read_options o;
	struct pc_input in;
	int rc;

	*out = NULL;
	if (format_out != NULL)
		*format_out = PROFCONV_FORMAT_UNKNOWN;
	if ((rc = profconv__options_take(&o, opts, &profconv__options_read)) < 0)
		return rc;
	opts = &o;
	rc = profconv__input_init(&in, NULL, data, len,
	    opts != NULL ? opts->max_input : 0);
	if (rc == 0 && opts != NULL)
		profconv__input_progress(&in, opts->progress,
		    opts->progress_payload);
	if (rc == 0)
		rc = read_input(out, &in, opts, format_out);
	profconv__input_free(&in);
	return rc;
}
