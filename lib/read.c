/* SPDX-License-Identifier: MIT */
/* read.c - open any input, recognize its format, and hand it to a reader. */

#include "config.h"

#include <string.h>

#include "legacy.h"

/* How much of the (decompressed) start of an input detection looks at. */
#define SNIFF_BYTES 4096

static const char *const format_names[] = {
	[PROFCONV_FORMAT_UNKNOWN] = "unknown",
	[PROFCONV_FORMAT_PPROF] = "pprof",
	[PROFCONV_FORMAT_HEAP] = "heap",
	[PROFCONV_FORMAT_JEMALLOC] = "jemalloc",
	[PROFCONV_FORMAT_CPU] = "cpu",
	[PROFCONV_FORMAT_CONTENTION] = "contention",
	[PROFCONV_FORMAT_GOCOUNT] = "gocount",
	[PROFCONV_FORMAT_THREAD] = "thread",
};

const char *
profconv_format_name(enum profconv_format format)
{
	if ((size_t)format >= PC_ARRAY_LEN(format_names) ||
	    format_names[format] == NULL)
		return "unknown";
	return format_names[format];
}

static int
read_pprof(struct profconv_profile **out, struct pc_input *in)
{
	const unsigned char *data;
	size_t len;
	int rc;

	rc = profconv__input_slurp(in, &data, &len);
	if (rc < 0)
		return rc;
	if (len == 0)
		return profconv__fail(PROFCONV_EFORMAT, "empty input");
	return profconv__pb_decode(out, data, len);
}

/* Word I of a legacy CPU header: 32 or 64 bits, little or big endian. */
static uint64_t
cpu_word(const unsigned char *p, size_t i, int width, bool big)
{
	uint64_t v = 0;
	int k;

	p += i * (size_t)width;
	for (k = 0; k < width; k++)
		v |= (uint64_t)p[big ? width - 1 - k : k] << (8 * k);
	return v;
}

/* The gperftools CPU header: words 0, 3, 0 (C++) or 1 (Java), period, 0. */
static bool
is_cpu_binary(const unsigned char *p, size_t len)
{
	static const struct { int width; bool big; } kinds[] = {
		{ 4, false }, { 4, true }, { 8, false }, { 8, true },
	};
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(kinds); i++) {
		int w = kinds[i].width;
		bool big = kinds[i].big;

		if (len < (size_t)w * 5)
			continue;
		if (cpu_word(p, 0, w, big) == 0 && cpu_word(p, 1, w, big) == 3 &&
		    cpu_word(p, 2, w, big) <= 1 && cpu_word(p, 3, w, big) > 0 &&
		    cpu_word(p, 4, w, big) == 0)
			return true;
	}
	return false;
}

/* "<word> profile: total <digits>" with nothing after. */
static bool
is_count_header(const char *p, size_t len)
{
	const char *end = p + len, *q = p;

	while (q < end && *q != ' ' && *q != '\t')
		q++;
	if (q == p || !pc_has_prefix(q, (size_t)(end - q), " profile: total "))
		return false;
	q += strlen(" profile: total ");
	if (q == end)
		return false;
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	return q == end;
}

/* Recognize a text format by its first meaningful line. */
static enum profconv_format
sniff_text(const unsigned char *data, size_t len)
{
	const char *p = (const char *)data, *end = p + len, *nl;
	size_t n;
	bool first = true;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = (size_t)((nl != NULL ? nl : end) - p);
		if (n != 0 && p[n - 1] == '\r')
			n--;
		if (first && pc_has_prefix(p, n, "heap profile:"))
			return PROFCONV_FORMAT_HEAP;
		if (first && pc_has_prefix(p, n, "heap_v2/"))
			return PROFCONV_FORMAT_JEMALLOC;
		if (first && (pc_has_prefix(p, n, "--- contentionz ") ||
		    pc_has_prefix(p, n, "--- mutex:") ||
		    pc_has_prefix(p, n, "--- contention:")))
			return PROFCONV_FORMAT_CONTENTION;
		if (pc_has_prefix(p, n, "--- threadz ") ||
		    pc_has_prefix(p, n, "--- Thread "))
			return PROFCONV_FORMAT_THREAD;
		if (is_count_header(p, n))
			return PROFCONV_FORMAT_GOCOUNT;
		/* Blank and '#' lines may precede the Go and thread headers. */
		if (!profconv__is_space_or_comment(p, n))
			break;
		first = false;
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	return PROFCONV_FORMAT_UNKNOWN;
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

static int
unrecognized(const unsigned char *data, size_t len)
{
	const char *what = "binary data";
	size_t i, n = len < 64 ? len : 64;

	for (i = 0; i < n && (data[i] >= 0x20 || data[i] == '\n' ||
	    data[i] == '\t' || data[i] == '\r'); i++)
		;
	if (i == n)
		what = "text";
	return profconv__fail(PROFCONV_EFORMAT,
	    "unrecognized profile format (%s); expected pprof protobuf, "
	    "gperftools/Go heap or CPU, jemalloc heap_v2, contention, "
	    "or Go goroutine/threadcreate", what);
}

static int
read_input(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts, enum profconv_format *format_out)
{
	const unsigned char *data;
	unsigned char head[64];
	enum profconv_format fmt;
	size_t len;
	int rc;

	rc = profconv__input_fill(in, SNIFF_BYTES);
	if (rc < 0)
		return rc;
	data = profconv__input_data(in);
	len = profconv__input_avail(in);
	if (len == 0)
		return profconv__fail(PROFCONV_EFORMAT, "empty input");
	fmt = is_cpu_binary(data, len) ? PROFCONV_FORMAT_CPU :
	    sniff_text(data, len);
	if (format_out != NULL)
		*format_out = fmt;
	switch (fmt) {
	case PROFCONV_FORMAT_HEAP:
		return profconv__read_heap(out, in, opts);
	case PROFCONV_FORMAT_JEMALLOC:
		return profconv__read_jemalloc(out, in, opts);
	case PROFCONV_FORMAT_CPU:
		return profconv__read_cpu(out, in, opts);
	case PROFCONV_FORMAT_CONTENTION:
		return profconv__read_contention(out, in, opts);
	case PROFCONV_FORMAT_GOCOUNT:
		return profconv__read_gocount(out, in, opts);
	case PROFCONV_FORMAT_THREAD:
		return profconv__read_thread(out, in, opts);
	default:
		break;
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
	/* Reading moves the buffer: keep the head for the message. */
	memcpy(head, data, len < sizeof(head) ? len : sizeof(head));
	len = len < sizeof(head) ? len : sizeof(head);
	rc = read_pprof(out, in);
	if (rc == PROFCONV_EFORMAT && strncmp(profconv_errmsg(),
	    "not a valid pprof protobuf", 26) == 0) {
		if (format_out != NULL)
			*format_out = PROFCONV_FORMAT_UNKNOWN;
		return unrecognized(head, len);
	}
	if (format_out != NULL)
		*format_out = PROFCONV_FORMAT_PPROF;
	return rc;
}

/* Version 1 is version 2 without the progress callback. */
static int
check_options(const struct profconv_read_options *opts)
{
	if (opts != NULL && (opts->version < 1 ||
	    opts->version > PROFCONV_READ_OPTIONS_VERSION))
		return profconv__fail(PROFCONV_EINVAL,
		    "unknown read options version %u", opts->version);
	return 0;
}

int
profconv_profile_read(struct profconv_profile **out, FILE *fp,
    const struct profconv_read_options *opts, enum profconv_format *format_out)
{
	struct pc_input in;
	int rc;

	*out = NULL;
	if (format_out != NULL)
		*format_out = PROFCONV_FORMAT_UNKNOWN;
	rc = check_options(opts);
	if (rc < 0)
		return rc;
	rc = profconv__input_init(&in, fp, NULL, 0,
	    opts != NULL ? opts->max_input : 0);
	if (rc == 0 && opts != NULL && opts->version >= 2)
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
	struct pc_input in;
	int rc;

	*out = NULL;
	if (format_out != NULL)
		*format_out = PROFCONV_FORMAT_UNKNOWN;
	rc = check_options(opts);
	if (rc < 0)
		return rc;
	rc = profconv__input_init(&in, NULL, data, len,
	    opts != NULL ? opts->max_input : 0);
	if (rc == 0 && opts != NULL && opts->version >= 2)
		profconv__input_progress(&in, opts->progress,
		    opts->progress_payload);
	if (rc == 0)
		rc = read_input(out, &in, opts, format_out);
	profconv__input_free(&in);
	return rc;
}
