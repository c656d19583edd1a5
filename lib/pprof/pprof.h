/* SPDX-License-Identifier: MIT */
/*
 * pprof.h - what other layers call of the pprof codec: decoding
 * (decode.c, decode_samples.c), the why-not-pprof diagnosis (reader.c),
 * encoding (encode.c), and the gzip members it writes on threads
 * (gzout.c).  What the codec's files share only among themselves is in
 * wire.h.
 * May include: base/, model/ (seams.h too), read/readers.h, read/input.h.
 */
#ifndef PROFCONV_PPROF_H
#define PROFCONV_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/model.h"

/* --- pprof codec (decode.c, reader.c, encode.c) --------------------------- */

/*
 * Decode pprof protobuf bytes into a new profile, with at most BUDGET bytes
 * (0: no bound) of sample arrays (an empty sample of 2 wire bytes takes
 * 24), decoding samples on up to JOBS threads (the result is the same).
 */
int profconv__pb_decode(struct profconv_profile **out,
    const unsigned char *data, size_t len, uint64_t budget,
    unsigned int jobs);
/*
 * profconv__pb_decode(), which calls RELEASE(ARG, N) as the samples are
 * decoded, N growing: the first N bytes of DATA are read no more, so
 * their owner may give their memory back (the bytes of a large profile
 * are about half its model's).  Nothing it says depends on them after.
 */
int profconv__pb_decode_releasing(struct profconv_profile **out,
    const unsigned char *data, size_t len, uint64_t budget,
    unsigned int jobs, void (*release)(void *arg, size_t n), void *arg);
/* Fail with why DATA is no pprof Profile, as far as its top-level fields
 * tell: one cut off by the end (truncated), a bad field, or neither. */
int profconv__pb_invalid(const unsigned char *data, size_t len);
/* The same, of the top-level fields from offset FROM on (where one
 * starts): those before were read, and may be gone. */
int profconv__pb_invalid_from(const unsigned char *data, size_t len,
    size_t from);

/*
 * Write PROF as pprof at LEVEL (0: uncompressed, -1: the default) on up
 * to JOBS threads with compressor BACKEND; the bytes depend on neither
 * JOBS nor how they are scheduled.  profconv_profile_write() is this
 * with PC_GZ_BEST; tests name a backend.
 */
enum pc_gz_backend { PC_GZ_BEST, PC_GZ_ZLIB, PC_GZ_LIBDEFLATE };
int profconv__pb_write(const struct profconv_profile *prof, FILE *fp,
    int level, unsigned int jobs, enum pc_gz_backend backend);

/*
 * The same written in parts, for samples that come while they are read
 * (convert_stream.c): open; the head (the sample types of PROF) before any
 * samples; the samples of any number of profiles, each holding only
 * samples if need be (profconv__samples_handoff()), in order, packed on
 * up to JOBS threads; close with the rest of PROF (its head too, when
 * none was written; its samples are not read).  The bytes are those of
 * profconv__pb_write() of one profile with all of them.  On failure,
 * free without closing; what was written is of no use.
 */
struct pc_pb_out;
int profconv__pb_out_open(struct pc_pb_out **out, FILE *fp, int level,
    unsigned int jobs, enum pc_gz_backend backend);
int profconv__pb_out_head(struct pc_pb_out *st,
    const struct profconv_profile *prof);
int profconv__pb_out_samples(struct pc_pb_out *st,
    const struct profconv_profile *prof, unsigned int jobs);
int profconv__pb_out_close(struct pc_pb_out *st,
    const struct profconv_profile *prof);
void profconv__pb_out_free(struct pc_pb_out *st);

/* --- gzip output (gzout.c) ------------------------------------------------- */

/* Uncompressed bytes per gzip member. */
#define PC_GZ_BLOCK ((size_t)1 << 20)

/* A piece of a stream to compress. */
struct pc_piece {
	const unsigned char *p;
	size_t len;
};

/* Does this build have BACKEND (PC_GZ_BEST: the fastest it has)? */
bool profconv__gz_has(enum pc_gz_backend backend);
/*
 * Write the N pieces PIECES, one stream in order, to FP gzip-compressed
 * at LEVEL (1..9): one member per PC_GZ_BLOCK bytes of the stream,
 * compressed on up to JOBS threads.  Errors: PROFCONV_EIO,
 * PROFCONV_ENOMEM, PROFCONV_EINVAL (no BACKEND).
 */
int profconv__gz_write(FILE *fp, const struct pc_piece *pieces, size_t n,
    int level, unsigned int jobs, enum pc_gz_backend backend);
/*
 * The same for a stream written in parts: before the LAST part, only
 * the whole PC_GZ_BLOCK blocks at the start of PIECES are compressed
 * and written, and *USED says how many bytes of PIECES that took; the
 * caller gives the rest again at the start of the next part.  The
 * members are those of one profconv__gz_write() of the whole stream,
 * as long as the caller does not end with a last part of no bytes after
 * others (which would add an empty member).
 */
int profconv__gz_write_some(FILE *fp, const struct pc_piece *pieces,
    size_t n, int level, unsigned int jobs, enum pc_gz_backend backend,
    bool last, size_t *used);

#endif /* PROFCONV_PPROF_H */
