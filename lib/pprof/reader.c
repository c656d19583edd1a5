/* SPDX-License-Identifier: MIT */
/*
 * reader.c - pprof as one of read/'s readers: the sniff that takes an
 * input for pprof, the entry in read.c's table (profconv__reader_pprof),
 * the explain hook, and profconv__pb_invalid(), which says why bytes are
 * no pprof Profile.  Cut from the decoder because none of it builds a
 * model: it walks the top-level fields only, as cheaply as a sniff must,
 * and holds all the codec knows of read/.
 */

#include "config.h"

#include <stdlib.h>

#include "pprof/pprof.h"
#include "pprof/wire.h"
#include "read/readers.h"

/* --- why bytes are no Profile -------------------------------------------- */

/*
 * The wire type a field of Profile has: 2 for messages, strings and
 * packed numbers, 0 for numbers; -1 for a number Profile does not have.
 * comment (13) is a repeated int64, so it may come either way.  Field 0,
 * which pprof skips in any wire type it knows, is what NUL padding after
 * a profile reads as (wire.h's rd_field()).
 */
static int
profile_wire_type(uint64_t field, int got)
{
	if (field == 0)
		return got == WT_VARINT || got == WT_64BIT || got == WT_LEN ||
		    got == WT_32BIT ? got : -1;
	if ((field >= PF_SAMPLE_TYPE && field <= PF_STRING_TABLE) ||
	    field == PF_PERIOD_TYPE)
		return 2;
	if (field == PF_COMMENT && got == WT_LEN)
		return 2;
	if (field >= PF_DROP_FRAMES && field <= PF_DOC_URL)
		return 0;
	return -1;
}

/* A varint at P[*I..LEN): 1, 0 when cut off by LEN, -1 when too long. */
static int
walk_varint(const unsigned char *p, size_t len, size_t *i, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 70; shift += 7) {
		unsigned char b;

		if (*i >= len)
			return 0;
		b = p[(*i)++];
		*v |= shift < 64 ? (uint64_t)(b & 0x7f) << shift : 0;
		if ((b & 0x80) == 0)
			return 1;
	}
	return -1;
}

enum walk { WALK_OK, WALK_CUT, WALK_BAD };

/*
 * Walk the top-level fields of a Profile in P[0..LEN): WALK_OK, WALK_CUT
 * (a field runs past LEN) or WALK_BAD (a tag or type pprof never writes),
 * with the field's offset and number.
 */
static enum walk
walk_profile(const unsigned char *p, size_t len, size_t from, size_t *off,
    uint64_t *field)
{
	size_t i = from;
	uint64_t tag, v;
	int r;

	while (i < len) {
		int wt;

		*off = i;
		r = walk_varint(p, len, &i, &tag);
		if (r <= 0)
			return r == 0 ? WALK_CUT : WALK_BAD;
		*field = tag >> 3;
		wt = (int)(tag & 7);
		if (profile_wire_type(*field, wt) != wt)
			return WALK_BAD;
		switch (wt) {
		case WT_VARINT:
			r = walk_varint(p, len, &i, &v);
			if (r <= 0)
				return r == 0 ? WALK_CUT : WALK_BAD;
			break;
		case WT_64BIT:
		case WT_32BIT:
			v = wt == WT_64BIT ? 8 : 4;
			if (v > len - i)
				return WALK_CUT;
			i += v;
			break;
		case WT_LEN:
			r = walk_varint(p, len, &i, &v);
			if (r <= 0)
				return r == 0 ? WALK_CUT : WALK_BAD;
			if (v > len - i)
				return WALK_CUT;
			i += v;
			break;
		default:
			return WALK_BAD;	/* groups and types 6, 7 */
		}
	}
	return WALK_OK;
}

int
profconv__pb_invalid(const unsigned char *data, size_t len)
{
	return profconv__pb_invalid_from(data, len, 0);
}

int
profconv__pb_invalid_from(const unsigned char *data, size_t len,
    size_t from)
{
	size_t off = from;
	uint64_t field = 0;

	switch (walk_profile(data, len, from, &off, &field)) {
	case WALK_CUT:
		return profconv__fail(PROFCONV_EFORMAT, "truncated pprof "
		    "protobuf: field %llu at offset %zu runs past the end "
		    "(%zu bytes)", (unsigned long long)field, off, len);
	case WALK_BAD:
		return profconv__fail(PROFCONV_EFORMAT, "not a valid pprof "
		    "protobuf: bad field at offset %zu", off);
	default:
		return profconv__fail(PROFCONV_EFORMAT,
		    "not a valid pprof protobuf (%zu bytes)", len);
	}
}

/* --- the reader ---------------------------------------------------------- */

/* A varint at *P before END; false when it is cut off or too long. */
static bool
sniff_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	int shift;

	*v = 0;
	for (shift = 0; *p < end && shift < 64; shift += 7) {
		*v |= (uint64_t)(**p & 0x7f) << shift;
		if ((*(*p)++ & 0x80) == 0)
			return true;
	}
	return false;
}

/*
 * Does HEAD start like a serialized Profile?  Every field seen must carry
 * a number and wire type Profile has (unknown fields are ignored by
 * decoders, but one does not start a profile; field 0, padding, may
 * follow one), and fields must end where the input does when HEAD is all
 * of it.  Cheap, and an input that is not pprof is turned away before it
 * is read whole.
 */
static bool
sniff_pprof(const unsigned char *head, size_t len, bool whole)
{
	const unsigned char *p = head, *end = head + len;
	uint64_t key, v;
	int wt;

	while (p < end) {
		if (p == head && *p < 8)
			return false;	/* field 0 first: no profile */
		if (!sniff_varint(&p, end, &key))
			return !whole && p == end;
		wt = (int)(key & 7);
		if (profile_wire_type(key >> 3, wt) != wt)
			return false;
		if (wt == WT_64BIT || wt == WT_32BIT) {
			v = wt == WT_64BIT ? 8 : 4;
			if (v > (uint64_t)(end - p))
				return !whole;
			p += v;
			continue;
		}
		if (!sniff_varint(&p, end, &v))
			return !whole && p == end;
		if (wt == WT_LEN) {
			if (v > (uint64_t)(end - p))
				return !whole;
			p += v;
		}
	}
	return true;
}

/* The input's bytes before N of them (ARG), decoded: given back. */
static void
release_input(void *arg, size_t n)
{
	struct pc_input *in = arg;

	profconv__input_release(in, in->view + in->pos + n);
}

static int
read_pprof(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	const unsigned char *data;
	size_t len;
	int rc;

	*out = NULL;
	rc = profconv__input_slurp_jobs(in, opts != NULL ? opts->jobs : 0,
	    &data, &len);
	if (rc < 0)
		return rc;
	/* The samples' arrays are bounded as the input is. */
	return profconv__pb_decode_releasing(out, data, len, in->max,
	    opts != NULL ? opts->jobs : 0, release_input, in);
}

/* A whole input that a lenient sniff takes for pprof (a field cut off
 * by the end, say): say where it stops being one. */
static int
explain_pprof(const unsigned char *head, size_t len, bool whole)
{
	if (!whole || !sniff_pprof(head, len, false))
		return 0;
	return profconv__pb_invalid(head, len);
}

const struct pc_reader profconv__reader_pprof = {
	PROFCONV_FORMAT_PPROF, "pprof", sniff_pprof, read_pprof, explain_pprof
};
