/* SPDX-License-Identifier: MIT */
/*
 * read.c - open any input, recognize its format by the registered readers'
 * sniffs (readers.h), and hand it to the first that accepts it.
 */

#include "config.h"

#include <string.h>

#include "read/lex.h"
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

bool
profconv__line_has(const char *line, size_t n, const char *const *prefixes)
{
	for (; *prefixes != NULL; prefixes++)
		if (pc_has_prefix(line, n, *prefixes))
			return true;
	return false;
}

bool
profconv__head_first_line_has(const unsigned char *head, size_t len,
    const char *const *prefixes)
{
	const char *line;
	size_t n;

	profconv__head_first_line(head, len, &line, &n);
	return profconv__line_has(line, n, prefixes);
}

bool
profconv__head_content_line_has(const unsigned char *head, size_t len,
    const char *const *prefixes)
{
	const char *line;
	size_t n;

	return profconv__head_content_line(head, len, &line, &n) &&
	    profconv__line_has(line, n, prefixes);
}

/* Do the first (at most 64) of the LEN bytes at DATA look like text? */
static bool
looks_text(const unsigned char *data, size_t len)
{
	size_t i, n = len < 64 ? len : 64;

	for (i = 0; i < n && (data[i] >= 0x20 || data[i] == '\n' ||
	    data[i] == '\t' || data[i] == '\r'); i++)
		;
	return i == n;
}

static int
unrecognized(const unsigned char *data, size_t len, bool whole)
{
	const char *compression;
	size_t i;
	int rc;

	compression = profconv__input_other_compression(data, len);
	if (compression != NULL)
		return profconv__fail(PROFCONV_EUNSUPPORTED, "%s-compressed "
		    "input: only gzip and zstd are read; decompress it first",
		    compression);
	for (i = 0; i < PC_ARRAY_LEN(readers); i++)
		if (readers[i]->explain != NULL &&
		    (rc = readers[i]->explain(data, len, whole)) < 0)
			return rc;

	return profconv__fail(PROFCONV_EFORMAT,
	    "unrecognized profile format (%s); expected pprof protobuf, "
	    "gperftools/Go heap or CPU, jemalloc heap_v2, contention, "
	    "Go goroutine/threadcreate, heaptrack or massif",
	    looks_text(data, len) ? "text" : "binary data");
}

/* The reader whose sniff accepts HEAD (LEN bytes), or NULL. */
static const struct pc_reader *
sniff(const unsigned char *head, size_t len, bool whole)
{
	size_t i;

	for (i = 0; i < PC_ARRAY_LEN(readers); i++)
		if (readers[i]->sniff(head, len, whole))
			return readers[i];
	return NULL;
}

/*
 * A UTF-8 byte order mark before text no reader takes with it: is the
 * text after it one's?  Then the mark is passed over, as go tool pprof
 * passes over anything before "heap profile:" or "--- threadz" (its
 * header patterns are not anchored).  A goroutine profile's sniff takes
 * the mark as it is, into the sample type's name, as pprof does.
 */
static const struct pc_reader *
sniff_after_bom(struct pc_input *in, const unsigned char *head, size_t len,
    bool whole)
{
	const struct pc_reader *r;

	if (len <= 3 || memcmp(head, "\xef\xbb\xbf", 3) != 0 ||
	    !looks_text(head + 3, len - 3))
		return NULL;
	r = sniff(head + 3, len - 3, whole);
	if (r != NULL)
		profconv__input_skip(in, 3, 0);
	return r;
}

static int
read_input(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts, enum profconv_format *format_out)
{
	const struct pc_reader *r;
	const unsigned char *data;
	size_t len;
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
	r = sniff(data, len, whole);
	if (r == NULL)
		r = sniff_after_bom(in, data, len, whole);
	if (r == NULL)
		return unrecognized(data, len, whole);
	if (format_out != NULL)
		*format_out = r->format;
	return r->read(out, in, opts);
}

/* Read from FP, or from DATA (LEN bytes) when FP is NULL, handing
 * samples to DRAIN where the reader can. */
static int
read_from(struct profconv_profile **out, FILE *fp, const void *data,
    size_t len, const struct profconv_read_options *opts,
    enum profconv_format *format_out, struct pc_drain *drain)
{
	struct profconv_read_options o;
	struct pc_input in;
	int rc;

	*out = NULL;
	if (format_out != NULL)
		*format_out = PROFCONV_FORMAT_UNKNOWN;
	if ((rc = profconv__options_take(&o, opts, &profconv__options_read)) < 0)
		return rc;
	rc = profconv__input_init(&in, fp, data, len, o.max_input);
	if (rc == 0) {
		profconv__input_progress(&in, o.progress, o.progress_payload);
		in.drain = drain;
		rc = read_input(out, &in, &o, format_out);
	}
	profconv__input_free(&in);
	return rc;
}

int
profconv_profile_read(struct profconv_profile **out, FILE *fp,
    const struct profconv_read_options *opts, enum profconv_format *format_out)
{
	return read_from(out, fp, NULL, 0, opts, format_out, NULL);
}

int
profconv_profile_read_mem(struct profconv_profile **out, const void *data,
    size_t len, const struct profconv_read_options *opts,
    enum profconv_format *format_out)
{
	return read_from(out, NULL, data, len, opts, format_out, NULL);
}

int
profconv__read_draining(struct profconv_profile **out, FILE *fp,
    const struct profconv_read_options *opts,
    enum profconv_format *format_out, struct pc_drain *drain)
{
	return read_from(out, fp, NULL, 0, opts, format_out, drain);
}
