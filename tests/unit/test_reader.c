/* SPDX-License-Identifier: MIT */
/*
 * test_reader.c - pprof as one of the readers (lib/pprof/reader.c): the
 * sniff that takes an input for pprof or turns it away, and
 * profconv__pb_invalid() and profconv__pb_invalid_from(), which say why
 * bytes are no Profile.
 */

#include "config.h"

#include "helpers.h"
#include "pprof/pprof.h"
#include "read/readers.h"

static struct profconv_profile *prof;

static void
drop(void)
{
	profconv_profile_free(prof);
	prof = NULL;
}

TestSuite(reader, .fini = drop);

static void
rejects_garbage(void)
{
	/* Field 8 (keep_frames) is a varint, never a fixed64. */
	static const unsigned char junk[] = { 0x41, 0x41, 0x41, 0x41, 0x41,
		0x41, 0x41, 0x41, 0x41, 0x41 };

	cr_assert(eq(int, profconv_profile_read_mem(&prof, junk, sizeof(junk),
	    NULL, NULL), PROFCONV_EFORMAT));
	cr_assert(zero(ptr, prof));
	cr_assert(eq(str, ERRMSG, "unrecognized profile format (text); "
	    "expected pprof protobuf, gperftools/Go heap or CPU, jemalloc "
	    "heap_v2, contention, Go goroutine/threadcreate, heaptrack or "
	    "massif"));
	drop();
}

static void
says_where_it_is_truncated(void)
{
	/* sample_type claiming 4 GB, then two bytes. */
	static const unsigned char cut[] = { 0x0a, 0xff, 0xff, 0xff, 0x0f, 1, 2 };
	static const unsigned char bad[] = { 0x60, 0x01, 0x0b, 0x01 };

	cr_assert(eq(int, profconv_profile_read_mem(&prof, cut, sizeof(cut),
	    NULL, NULL), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "truncated pprof protobuf: field 1 at offset "
	    "0 runs past the end (7 bytes)"));
	/* period 1, then a group tag: pprof never writes groups. */
	cr_assert(eq(int, profconv_profile_read_mem(&prof, bad, sizeof(bad),
	    NULL, NULL), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "unrecognized profile format (binary data); "
	    "expected pprof protobuf, gperftools/Go heap or CPU, jemalloc "
	    "heap_v2, contention, Go goroutine/threadcreate, heaptrack or "
	    "massif"));
	drop();
}

/* Bytes that are no profile refused, saying what they look like or where
 * they are cut.  Each case frees what it read (drop()). */
Test(reader, rejects_bytes_that_are_no_profile)
{
	rejects_garbage();
	says_where_it_is_truncated();
}


/* The sniff, on bytes a Profile's field numbers and wire types decide:
 * field 1 (sample_type) is a message, field 9 (time_nanos) a varint. */
static bool
sniff(const unsigned char *p, size_t len, bool whole)
{
	return profconv__reader_pprof.sniff(p, len, whole);
}

static void
sniff_takes_profile_fields_only(void)
{
	static const unsigned char ok[] = { 0x0a, 0x00, 0x48, 0x01 };
	static const unsigned char time_as_bytes[] = { 0x4a, 0x00 };
	static const unsigned char field16[] = { 0x80, 0x01, 0x01 };
	static const unsigned char field0_first[] = { 0x00, 0x00 };
	static const unsigned char padded[] = { 0x48, 0x01, 0x00, 0x00 };

	cr_assert(sniff(ok, sizeof(ok), true));
	cr_assert(not(sniff(time_as_bytes, sizeof(time_as_bytes), true)));
	cr_assert(not(sniff(field16, sizeof(field16), true)));
	cr_assert(not(sniff(field0_first, sizeof(field0_first), true)));
	cr_assert(sniff(padded, sizeof(padded), true));
}

/* A field cut off by the end of the head is fine when more follows, and
 * not when the head is the whole input. */
static void
sniff_is_lenient_only_before_the_end(void)
{
	static const unsigned char cut[] = { 0x0a, 0x05, 0x01 };
	static const unsigned char cut_tag[] = { 0x48, 0x01, 0x80 };

	cr_assert(sniff(cut, sizeof(cut), false));
	cr_assert(not(sniff(cut, sizeof(cut), true)));
	cr_assert(sniff(cut_tag, sizeof(cut_tag), false));
	cr_assert(not(sniff(cut_tag, sizeof(cut_tag), true)));
}

/* The sniff: Profile fields only, lenient only before the end. */
Test(reader, sniff_takes_profile_fields)
{
	sniff_takes_profile_fields_only();
	sniff_is_lenient_only_before_the_end();
}

/* The three answers of profconv__pb_invalid(), offsets counted by hand. */
static void
invalid_says_cut_bad_or_neither(void)
{
	static const unsigned char cut[] = { 0x48, 0x01, 0x0a, 0x05, 0x01 };
	static const unsigned char bad[] = { 0x48, 0x01, 0x4a, 0x00 };
	static const unsigned char group[] = { 0x48, 0x01, 0x0b };
	static const unsigned char fine[] = { 0x48, 0x01 };

	cr_assert(eq(int, profconv__pb_invalid(cut, sizeof(cut)),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "truncated pprof protobuf: field 1 at "
	    "offset 2 runs past the end (5 bytes)"));
	cr_assert(eq(int, profconv__pb_invalid(bad, sizeof(bad)),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "not a valid pprof protobuf: bad field at "
	    "offset 2"));
	cr_assert(eq(int, profconv__pb_invalid(group, sizeof(group)),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "not a valid pprof protobuf: bad field at "
	    "offset 2"));
	cr_assert(eq(int, profconv__pb_invalid(fine, sizeof(fine)),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "not a valid pprof protobuf (2 bytes)"));
}

/* A varint of more than 10 bytes is no varint: bad, not cut off. */
static void
invalid_refuses_an_overlong_varint(void)
{
	static const unsigned char v[] = { 0x48, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };

	cr_assert(eq(int, profconv__pb_invalid(v, sizeof(v)),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "not a valid pprof protobuf: bad field at "
	    "offset 0"));
}

/* From an offset where a field starts: what comes before is not read
 * (bytes given back as decoded), offsets stay the input's. */
static void
invalid_from_an_offset(void)
{
	/* 0xff junk, then field 1 (a sample type, 2 bytes), then a
	 * fixed64 field 8, which Profile never has. */
	static const unsigned char v[] = { 0xff, 0xff, 0xff, 0xff, 0x0a,
		0x00, 0x41, 1, 2, 3, 4, 5, 6, 7, 8 };

	cr_assert(eq(int, profconv__pb_invalid_from(v, sizeof(v), 4),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "not a valid pprof protobuf: bad field at "
	    "offset 6"));
	cr_assert(eq(int, profconv__pb_invalid_from(v, 6, 4),
	    PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "not a valid pprof protobuf (6 bytes)"));
}

/* profconv__pb_invalid(): cut off, bad, or neither. */
Test(reader, invalid_says_why)
{
	invalid_says_cut_bad_or_neither();
	invalid_refuses_an_overlong_varint();
	invalid_from_an_offset();
}

/* The explain hook speaks only of a whole input the sniff leniently
 * takes: not of a head, nor of what is plainly no pprof. */
Test(reader, explain_only_for_whole_near_misses)
{
	static const unsigned char cut[] = { 0x0a, 0x05, 0x01 };
	static const unsigned char other[] = { 'h', 'e', 'a', 'p' };

	cr_assert(eq(int, profconv__reader_pprof.explain(cut, sizeof(cut),
	    false), 0));
	cr_assert(eq(int, profconv__reader_pprof.explain(other,
	    sizeof(other), true), 0));
	cr_assert(eq(int, profconv__reader_pprof.explain(cut, sizeof(cut),
	    true), PROFCONV_EFORMAT));
	cr_assert(eq(str, ERRMSG, "truncated pprof protobuf: field 1 at "
	    "offset 0 runs past the end (3 bytes)"));
	cr_assert(eq(int, profconv__reader_pprof.format, PROFCONV_FORMAT_PPROF));
}
