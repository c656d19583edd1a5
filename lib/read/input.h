/* SPDX-License-Identifier: MIT */
/* input.h - buffered input shared by every reader; gzip and zstd inflated. */
#ifndef PROFCONV_INPUT_H
#define PROFCONV_INPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <zlib.h>
#include <zstd.h>

#include "base/base.h"

struct profconv_profile;

/*
 * Samples handed on while a profile is read, so that they need not all
 * be held at once (pprof/convert_stream.c writes them as they come).  A reader
 * whose samples, once added, never change again passes IN->drain to its
 * chunked reads (chunked.h); the others leave it alone and keep every
 * sample.  Samples not taken stay in the profile read.
 */
struct pc_drain {
	/* On the reading thread, between rounds: take the samples of PROF
	 * so far (profconv__samples_handoff()), leaving it none. */
	int (*take)(struct pc_drain *d, struct profconv_profile *prof);
	/* On one thread, beside the reading of the next round: write what
	 * TAKE took last. */
	int (*run)(struct pc_drain *d);
	size_t taken;			/* samples taken so far */
};

/*
 * An input: a FILE or a memory block, gzip- or zstd-compressed or not.
 * Data is seen through VIEW[POS..END); for plain memory VIEW is the caller's block
 * (no copy), otherwise the malloc'd BUF.
 */
struct pc_input {
	FILE *fp;
	const unsigned char *mem;
	size_t memlen, mempos;
	unsigned char *raw;		/* compressed bytes read ahead */
	size_t rawlen, rawpos;
	bool gz, zinit, zend, member_done, eof;
	bool member_stop;		/* gz_read stops at a member's end */
	unsigned char *owned;		/* MEM, when the input made it */
	size_t gz_members;		/* members inflated on threads */
	z_stream z;
	bool zst, zst_eof;		/* zstd frames; no more raw bytes */
	ZSTD_DStream *zd;
	ZSTD_inBuffer zin;
	uint64_t zst_in;		/* compressed bytes consumed */
	uint64_t zst_at;		/* offset of ZIN's first byte */
	uint64_t zst_frame;		/* offset of the frame being decoded */
	size_t zst_hint;		/* the decoder's last answer */
	uint64_t zfed;			/* compressed bytes given to zlib */
	const unsigned char *view;
	unsigned char *buf;
	unsigned char *released;	/* BUF given back before it
					 * (profconv__input_release()) */
	size_t cap, pos, end;
	uint64_t total;			/* decompressed bytes so far */
	uint64_t max;
	uint64_t lineno;		/* lines returned so far */
	bool unterminated;		/* the last line returned ended
					 * without a newline */
	profconv_progress_fn progress;	/* source bytes read, of size */
	void *progress_payload;
	uint64_t src_done, src_size, src_next;
	struct pc_drain *drain;		/* NULL: keep every sample */
	/* Reading ahead (profconv__input_ahead_begin()): the bytes after
	 * the visible ones go to AHEAD at AHEAD_AT, AHEAD_GOT of them. */
	unsigned char *ahead;
	size_t ahead_cap, ahead_at, ahead_want, ahead_got;
	int ahead_errno;		/* the read's failure, or 0 */
	bool ahead_on;
};

/* Start reading FP (or MEM/LEN when FP is NULL); MAX 0 is the default. */
int profconv__input_init(struct pc_input *in, FILE *fp, const void *mem,
    size_t len, uint64_t max);
void profconv__input_free(struct pc_input *in);
/* The samples read into PROF from IN: those it holds, and those handed
 * on (IN's drain). */
size_t profconv__input_samples(const struct pc_input *in,
    const struct profconv_profile *prof);
/* Report the source bytes read to FN now and then (FN may be NULL). */
void profconv__input_progress(struct pc_input *in, profconv_progress_fn fn,
    void *payload);
/* Make WANT bytes visible from POS, or as many as there are. */
int profconv__input_fill(struct pc_input *in, size_t want);
/*
 * Reading the next bytes on another thread while the visible ones are
 * parsed (plain, uncompressed files only).  Begin, on the reading
 * thread: plan a read of WANT bytes to follow the visible ones, of which
 * the first KEEP are expected to be left unconsumed; 1 when planned, 0
 * when this input cannot (then nothing changes).  Run, on any one thread,
 * while others read the visible bytes (it changes none of them).  End,
 * on the reading thread, once what was consumed is skipped: the bytes
 * read become visible after those left (the buffer changes: pointers
 * into it are stale), with read errors and the input's bound checked as
 * profconv__input_fill() checks them.
 */
int profconv__input_ahead_begin(struct pc_input *in, size_t keep,
    size_t want);
void profconv__input_ahead_run(struct pc_input *in);
int profconv__input_ahead_end(struct pc_input *in);
/* Next line without its newline (nor a CR ending it), not NUL-terminated.
 * Returns 1, 0 at end of input, or a negative error. */
int profconv__input_getline(struct pc_input *in, const char **line,
    size_t *len);
/* Consume N bytes holding LINES lines (the caller has parsed them). */
void profconv__input_skip(struct pc_input *in, size_t n, uint64_t lines);
/* All remaining data in one block, borrowed from IN. */
int profconv__input_slurp(struct pc_input *in, const unsigned char **data,
    size_t *len);
/* The same, with the gzip members that remain inflated on up to JOBS
 * threads (profconv__jobs_count()) when they can be told apart; the
 * same bytes and errors as profconv__input_slurp(). */
int profconv__input_slurp_jobs(struct pc_input *in, unsigned int jobs,
    const unsigned char **data, size_t *len);
/*
 * The whole pages of IN's own buffer before UPTO (in the block
 * profconv__input_slurp() gave), which its reader has decoded and reads
 * no more, given back to the system; a caller's memory read in place is
 * left alone.  The bytes there read as zeros after.
 */
void profconv__input_release(struct pc_input *in, const unsigned char *upto);
/* Tests only: compressed bytes per round of members (0: 16 MiB). */
extern size_t profconv__test_gz_round;

static inline size_t
profconv__input_avail(const struct pc_input *in)
{
	return in->end - in->pos;
}

static inline const unsigned char *
profconv__input_data(const struct pc_input *in)
{
	return in->view + in->pos;
}

/* The name of the compression other than gzip and zstd whose magic
 * number P (LEN bytes) starts with ("xz", "bzip2"...), or NULL. */
const char *profconv__input_other_compression(const unsigned char *p,
    size_t len);

#endif /* PROFCONV_INPUT_H */
