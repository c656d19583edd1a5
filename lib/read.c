/* SPDX-License-Identifier: MIT */
/* read.c - open any input, recognize its format, and hand it to a reader. */

#include "config.h"

#include <string.h>

#include "input.h"

/* How much of the (decompressed) start of an input detection looks at. */
#define SNIFF_BYTES 4096

static const char *const format_names[] = {
	[PROFCONV_FORMAT_UNKNOWN] = "unknown",
	[PROFCONV_FORMAT_PPROF] = "pprof",
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

static int
read_input(struct profconv_profile **out, struct pc_input *in,
    enum profconv_format *format_out)
{
	enum profconv_format fmt = PROFCONV_FORMAT_PPROF;
	int rc;

	rc = profconv__input_fill(in, SNIFF_BYTES);
	if (rc < 0)
		return rc;
	if (format_out != NULL)
		*format_out = fmt;
	return read_pprof(out, in);
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
	rc = profconv__input_init(&in, fp, NULL, 0,
	    opts != NULL ? opts->max_input : 0);
	if (rc == 0)
		rc = read_input(out, &in, format_out);
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
	rc = profconv__input_init(&in, NULL, data, len,
	    opts != NULL ? opts->max_input : 0);
	if (rc == 0)
		rc = read_input(out, &in, format_out);
	profconv__input_free(&in);
	return rc;
}
