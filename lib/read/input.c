/* SPDX-License-Identifier: MIT */
/*
 * input.c - buffered input from a FILE or memory, inflating gzip and zstd
 * on the fly.
 */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include <zstd_errors.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "read/input.h"

#define RAW_CHUNK ((size_t)256 << 10)
#define BUF_MIN ((size_t)256 << 10)

/* Reports come every 1/256 of the size, or every 4 MiB when unknown. */
#define PROGRESS_STEP ((uint64_t)4 << 20)

void
profconv__input_progress(struct pc_input *in, profconv_progress_fn fn,
    void *payload)
{
	struct stat st;

	in->progress = fn;
	in->progress_payload = payload;
	in->src_size = 0;
	if (in->fp == NULL)
		in->src_size = in->memlen;
	else if (fstat(fileno(in->fp), &st) == 0 && S_ISREG(st.st_mode))
		in->src_size = (uint64_t)st.st_size;
	in->src_next = in->src_size != 0 ? in->src_size / 256 : PROGRESS_STEP;
}

static void
count_source(struct pc_input *in, size_t k)
{
	in->src_done += k;
	if (in->progress == NULL || in->src_done < in->src_next)
		return;
	in->progress(in->src_done, in->src_size, in->progress_payload);
	in->src_next = in->src_done + (in->src_size != 0 ?
	    in->src_size / 256 + 1 : PROGRESS_STEP);
}

/* Read up to N raw (possibly compressed) bytes from the source. */
static int
raw_read(struct pc_input *in, unsigned char *dst, size_t n, size_t *got)
{
	size_t k;

	if (in->fp == NULL) {
		k = in->memlen - in->mempos;
		if (k > n)
			k = n;
		memcpy(dst, in->mem + in->mempos, k);
		in->mempos += k;
		*got = k;
		count_source(in, k);
		return 0;
	}
	k = fread(dst, 1, n, in->fp);
	if (k < n && ferror(in->fp))
		return profconv__fail(PROFCONV_EIO, "read error: %s",
		    strerror(errno != 0 ? errno : EIO));
	*got = k;
	count_source(in, k);
	return 0;
}

/* Plain file input: first the bytes read ahead for the magic check. */
static int
raw_read_buffered(struct pc_input *in, unsigned char *dst, size_t n,
    size_t *got)
{
	size_t k = in->rawlen - in->rawpos;

	if (k == 0)
		return raw_read(in, dst, n, got);
	if (k > n)
		k = n;
	memcpy(dst, in->raw + in->rawpos, k);
	in->rawpos += k;
	*got = k;
	return 0;
}

static int
too_big(const struct pc_input *in)
{
	return profconv__fail(PROFCONV_EFORMAT,
	    "input exceeds the limit of %llu bytes",
	    (unsigned long long)in->max);
}

/*
 * Does P start a zstd stream: a frame, or a skippable frame (magic
 * 0x184D2A50 to 0x184D2A5F, little endian), as pzstd writes before every
 * frame?  The decoder passes over skippable frames wherever they are.
 */
static bool
is_zstd_stream(const unsigned char *p, size_t len)
{
	return profconv__is_zstd(p, len) || (len >= 4 &&
	    (p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d &&
	    p[3] == 0x18);
}

/*
 * The largest window a frame may ask for: zstd's default limit, 128 MiB
 * (what zstd -d takes without --long or --memory), or more, up to the
 * most the library decodes (2 GiB on 64-bit), as far as MAX, the bound
 * on the decompressed input, goes: no window needs to be larger than
 * all the data it may hold, and its pages are only touched as data is
 * written.
 */
static int
zst_window_log(uint64_t max)
{
	ZSTD_bounds b = ZSTD_dParam_getBounds(ZSTD_d_windowLogMax);
	int log = 27;

	if (ZSTD_isError(b.error))
		return 0;	/* the library's default */
	while (log < b.upperBound && ((uint64_t)1 << log) < max)
		log++;
	return log;
}

/* The window the frame header at P (LEN bytes) asks for, 0 when P does
 * not hold it (RFC 8878, 3.1.1.1). */
static uint64_t
zst_frame_window(const unsigned char *p, size_t len)
{
	static const unsigned char dict_bytes[4] = { 0, 1, 2, 4 };
	static const unsigned char fcs_bytes[4] = { 0, 2, 4, 8 };
	uint64_t w = 0;
	unsigned char fhd;
	size_t at, i, n;

	if (len < 6 || !profconv__is_zstd(p, len))
		return 0;
	fhd = p[4];
	if ((fhd & 0x20) == 0) {		/* a window descriptor */
		w = (uint64_t)1 << (10 + (p[5] >> 3));
		return w + w / 8 * (p[5] & 7);
	}
	/* Single segment: the window is the content size. */
	at = 5 + dict_bytes[fhd & 3];
	n = fcs_bytes[fhd >> 6] != 0 ? fcs_bytes[fhd >> 6] : 1;
	if (len < at + n)
		return 0;
	for (i = n; i > 0; i--)
		w = w << 8 | p[at + i - 1];
	return n == 2 ? w + 256 : w;
}

/* A frame asks for a window over the limit zst_window_log() set: say
 * how large, and why it is refused. */
static int
zst_window_fail(const struct pc_input *in)
{
	const unsigned char *p = (const unsigned char *)in->zin.src;
	uint64_t w = 0;

	if (in->zst_frame >= in->zst_at &&
	    in->zst_frame - in->zst_at < in->zin.size)
		w = zst_frame_window(p + (in->zst_frame - in->zst_at),
		    in->zin.size - (size_t)(in->zst_frame - in->zst_at));
	if (w == 0)
		return profconv__fail(PROFCONV_EFORMAT, "zstd frame at offset "
		    "%llu needs a window over %llu MiB, more than the input "
		    "limit of %llu bytes allows",
		    (unsigned long long)in->zst_frame,
		    (unsigned long long)(((uint64_t)1 <<
		    zst_window_log(in->max)) >> 20),
		    (unsigned long long)in->max);
	return profconv__fail(PROFCONV_EFORMAT, "zstd frame at offset %llu "
	    "needs a window of %llu MiB, more than the input limit of %llu "
	    "bytes allows", (unsigned long long)in->zst_frame,
	    (unsigned long long)((w + (1 << 20) - 1) >> 20),
	    (unsigned long long)in->max);
}

/* zstd: decode from the bytes read ahead (or the memory block). */
static int
zst_init(struct pc_input *in)
{
	int log = zst_window_log(in->max);

	in->zst_hint = 1;	/* no complete frame yet */
	in->zd = ZSTD_createDStream();
	if (in->zd == NULL || ZSTD_isError(ZSTD_initDStream(in->zd)))
		return profconv__nomem();
	if (log != 0 && ZSTD_isError(ZSTD_DCtx_setParameter(in->zd,
	    ZSTD_d_windowLogMax, log)))
		return profconv__nomem();
	if (in->fp == NULL) {
		in->zin.src = in->mem;
		in->zin.size = in->memlen;
		in->mempos = in->memlen;
		in->zst_eof = true;
	} else {
		/* A whole chunk now, so that the first frame's header is in
		 * it when zst_window_fail() looks. */
		size_t got;
		int rc = raw_read(in, in->raw + in->rawlen,
		    RAW_CHUNK - in->rawlen, &got);

		if (rc < 0)
			return rc;
		in->rawlen += got;
		in->zin.src = in->raw;
		in->zin.size = in->rawlen;
	}
	return 0;
}

int
profconv__input_init(struct pc_input *in, FILE *fp, const void *mem,
    size_t len, uint64_t max)
{
	unsigned char magic[4];
	size_t got;
	int rc;

	memset(in, 0, sizeof(*in));
	in->fp = fp;
	in->mem = mem;
	in->memlen = len;
	in->max = max != 0 ? max : PROFCONV_DEFAULT_MAX_INPUT;
	if (fp == NULL) {
		in->gz = profconv__is_gzip(mem, len);
		in->zst = is_zstd_stream(mem, len);
		if (!in->gz && !in->zst) {
			/* Plain memory: read it in place, no copy. */
			if (len > in->max)
				return too_big(in);
			in->view = mem;
			in->end = len;
			in->eof = true;
			in->total = len;
			return 0;
		}
	} else {
		rc = raw_read(in, magic, sizeof(magic), &got);
		if (rc < 0)
			return rc;
		in->gz = profconv__is_gzip(magic, got);
		in->zst = is_zstd_stream(magic, got);
		in->raw = malloc(RAW_CHUNK);
		if (in->raw == NULL)
			return profconv__nomem();
		memcpy(in->raw, magic, got);
		in->rawlen = got;
	}
	if (in->zst)
		return zst_init(in);
	if (in->gz) {
		if (fp == NULL) {
			in->z.next_in = (unsigned char *)mem;
			in->z.avail_in = len > UINT32_MAX ? UINT32_MAX : len;
			in->mempos = in->z.avail_in;
		} else {
			in->z.next_in = in->raw;
			in->z.avail_in = (uInt)in->rawlen;
		}
		in->zfed = in->z.avail_in;
		/* 16 + MAX_WBITS: a gzip wrapper, not zlib. */
		if (inflateInit2(&in->z, 16 + MAX_WBITS) != Z_OK)
			return profconv__nomem();
		in->zinit = true;
	}
	return 0;
}

void
profconv__input_free(struct pc_input *in)
{
	if (in->zinit)
		inflateEnd(&in->z);
	ZSTD_freeDStream(in->zd);
	free(in->owned);
	free(in->raw);
	free(in->buf);
	free(in->ahead);
	memset(in, 0, sizeof(*in));
}

/* Refill compressed input for zlib.  Returns 0 with avail_in 0 at EOF. */
static int
gz_refill(struct pc_input *in)
{
	size_t got, n;
	int rc;

	if (in->fp == NULL || in->mempos < in->memlen) {
		n = in->memlen - in->mempos;
		if (n > UINT32_MAX)
			n = UINT32_MAX;
		in->z.next_in = (unsigned char *)in->mem + in->mempos;
		in->z.avail_in = (uInt)n;
		in->mempos += n;
		in->zfed += n;
		return 0;
	}
	rc = raw_read(in, in->raw, RAW_CHUNK, &got);
	if (rc < 0)
		return rc;
	in->z.next_in = in->raw;
	in->z.avail_in = (uInt)got;
	in->zfed += got;
	return 0;
}

/* Where zlib is in the compressed input. */
static unsigned long long
gz_offset(const struct pc_input *in)
{
	return (unsigned long long)(in->zfed - in->z.avail_in);
}

/* Produce up to N decompressed bytes at DST. */
static int
gz_read(struct pc_input *in, unsigned char *dst, size_t n, size_t *got)
{
	int zr, rc;

	in->z.next_out = dst;
	in->z.avail_out = n > UINT32_MAX ? UINT32_MAX : (uInt)n;
	while (in->z.avail_out != 0 && !in->zend) {
		if (in->z.avail_in == 0) {
			rc = gz_refill(in);
			if (rc < 0)
				return rc;
			if (in->z.avail_in == 0) {
				if (in->member_done)
					in->zend = true;
				else
					return profconv__fail(PROFCONV_EFORMAT,
					    "truncated gzip data at offset %llu",
					    gz_offset(in));
				break;
			}
		}
		in->member_done = false;
		zr = inflate(&in->z, Z_NO_FLUSH);
		if (zr == Z_STREAM_END) {
			/* Another gzip member may follow, as gzip(1) allows. */
			in->member_done = true;
			if (inflateReset(&in->z) != Z_OK)
				return profconv__nomem();
			if (in->member_stop)
				break;
			continue;
		}
		if (zr == Z_MEM_ERROR)
			return profconv__nomem();
		if (zr != Z_OK && zr != Z_BUF_ERROR)
			return profconv__fail(PROFCONV_EFORMAT,
			    "corrupt gzip data at offset %llu: %s", gz_offset(in),
			    in->z.msg != NULL ? in->z.msg : "inflate failed");
	}
	*got = (size_t)(in->z.next_out - dst);
	return 0;
}

/*
 * Produce up to N bytes of zstd frames at DST.  Frames may follow one
 * another; input that ends inside a frame is an error.
 */
static int
zst_read(struct pc_input *in, unsigned char *dst, size_t n, size_t *got)
{
	ZSTD_outBuffer out = { dst, n, 0 };
	size_t r, before, pos;
	int rc;

	while (out.pos < out.size && !in->zend) {
		if (in->zin.pos == in->zin.size && !in->zst_eof) {
			in->zst_at = in->zst_in;
			rc = raw_read(in, in->raw, RAW_CHUNK, &in->zin.size);
			if (rc < 0)
				return rc;
			in->zin.src = in->raw;
			in->zin.pos = 0;
			in->zst_eof = in->zin.size == 0;
		}
		before = out.pos;
		pos = in->zin.pos;
		r = ZSTD_decompressStream(in->zd, &out, &in->zin);
		in->zst_in += in->zin.pos - pos;
		if (ZSTD_getErrorCode(r) ==
		    ZSTD_error_frameParameter_windowTooLarge)
			return zst_window_fail(in);
		if (ZSTD_isError(r))
			return profconv__fail(PROFCONV_EFORMAT,
			    "corrupt zstd data at offset %llu: %s",
			    (unsigned long long)in->zst_in,
			    ZSTD_getErrorName(r));
		/* 0: the frame just decoded is complete, and flushed. */
		if (out.pos != before || in->zin.pos != pos)
			in->zst_hint = r;
		if (r == 0)		/* the next frame starts here */
			in->zst_frame = in->zst_in;
		if (in->zst_eof && in->zin.pos == in->zin.size &&
		    out.pos == before) {
			/* No input left and nothing more comes out. */
			if (in->zst_hint != 0)
				return profconv__fail(PROFCONV_EFORMAT,
				    "truncated zstd data at offset %llu",
				    (unsigned long long)in->zst_in);
			in->zend = true;
		}
	}
	*got = out.pos;
	return 0;
}

int
profconv__input_fill(struct pc_input *in, size_t want)
{
	size_t have, room, got;
	int rc;

	while (!in->eof && in->end - in->pos < want) {
		/* Slide what is unread to the front, then grow if needed. */
		if (in->pos != 0) {
			memmove(in->buf, in->buf + in->pos, in->end - in->pos);
			in->end -= in->pos;
			in->pos = 0;
			in->released = NULL;
		}
		have = in->end;
		if (in->cap - have < BUF_MIN / 2 || in->cap < want) {
			size_t ncap = in->cap != 0 ? in->cap : BUF_MIN;

			while (ncap - have < BUF_MIN / 2 || ncap < want)
				ncap *= 2;
			/* No more than the bound needs: a whole input of
			 * max_input bytes may not cost twice that. */
			if (ncap > in->max + BUF_MIN && in->max + BUF_MIN >= want &&
			    in->max + BUF_MIN - have >= BUF_MIN / 2)
				ncap = (size_t)(in->max + BUF_MIN);
			rc = PC_GROW(in->buf, in->cap, 0, ncap);
			if (rc < 0)
				return rc;
			in->view = in->buf;
			in->released = NULL;
		}
		/* No more than asked for (in reads of at least BUF_MIN):
		 * what is read beyond it is slid to the front again at the
		 * next fill. */
		room = in->cap - have;
		if (room > want - have && want - have >= BUF_MIN)
			room = want - have;
		else if (room > BUF_MIN && want - have < BUF_MIN)
			room = BUF_MIN;
		if (in->zst)
			rc = zst_read(in, in->buf + have, room, &got);
		else if (in->gz)
			rc = gz_read(in, in->buf + have, room, &got);
		else
			rc = raw_read_buffered(in, in->buf + have, room, &got);
		if (rc < 0)
			return rc;
		if (got == 0)
			in->eof = true;
		in->end += got;
		in->total += got;
		if (in->total > in->max)
			return too_big(in);
	}
	return 0;
}

int
profconv__input_ahead_begin(struct pc_input *in, size_t keep, size_t want)
{
	size_t need;

	in->ahead_on = false;
	if (in->fp == NULL || in->gz || in->zst || in->eof || want == 0 ||
	    in->rawpos != in->rawlen)
		return 0;
	need = keep + want;
	if (need < keep)
		return 0;
	if (in->ahead_cap < need && PC_GROW(in->ahead, in->ahead_cap, 0,
	    need) < 0)
		return 0;	/* no room: read as usual */
	in->ahead_at = keep;
	in->ahead_want = want;
	in->ahead_got = 0;
	in->ahead_errno = 0;
	in->ahead_on = true;
	return 1;
}

void
profconv__input_ahead_run(struct pc_input *in)
{
	size_t k;

	if (!in->ahead_on)
		return;
	/* No progress report here: it comes from the reading thread. */
	errno = 0;
	k = fread(in->ahead + in->ahead_at, 1, in->ahead_want, in->fp);
	if (k < in->ahead_want && ferror(in->fp))
		in->ahead_errno = errno != 0 ? errno : EIO;
	in->ahead_got = k;
}

int
profconv__input_ahead_end(struct pc_input *in)
{
	size_t left = in->end - in->pos, got = in->ahead_got;
	unsigned char *t;
	size_t tcap;

	if (!in->ahead_on)
		return 0;
	in->ahead_on = false;
	if (in->ahead_errno != 0)
		return profconv__fail(PROFCONV_EIO, "read error: %s",
		    strerror(in->ahead_errno));
	/* What was left goes before what was read: where planned, or
	 * (more left than planned) with the bytes read moved up. */
	if (left != in->ahead_at) {
		if (in->ahead_cap < left + got && PC_GROW(in->ahead,
		    in->ahead_cap, 0, left + got) < 0)
			return profconv__nomem();
		memmove(in->ahead + left, in->ahead + in->ahead_at, got);
	}
	if (left != 0)
		memcpy(in->ahead, in->buf + in->pos, left);
	t = in->buf;
	tcap = in->cap;
	in->buf = in->ahead;
	in->view = in->buf;
	in->released = NULL;
	in->cap = in->ahead_cap;
	in->ahead = t;
	in->ahead_cap = tcap;
	in->pos = 0;
	in->end = left + got;
	if (got < in->ahead_want)
		in->eof = true;
	in->total += got;
	count_source(in, got);
	if (in->total > in->max)
		return too_big(in);
	return 0;
}

int
profconv__input_getline(struct pc_input *in, const char **line, size_t *len)
{
	const unsigned char *nl;
	size_t scanned = 0;
	int rc;

	for (;;) {
		/* memchr() must not see a NULL buffer, even for 0 bytes. */
		nl = in->end - in->pos > scanned ? memchr(in->view + in->pos +
		    scanned, '\n', in->end - in->pos - scanned) : NULL;
		if (nl != NULL)
			break;
		scanned = in->end - in->pos;
		if (scanned > PC_MAX_LINE)
			return profconv__fail(PROFCONV_EFORMAT,
			    "line %llu: longer than %zu bytes",
			    (unsigned long long)in->lineno + 1, PC_MAX_LINE);
		if (in->eof)
			break;
		rc = profconv__input_fill(in, scanned + 1);
		if (rc < 0)
			return rc;
	}
	if (nl == NULL && scanned == 0)
		return 0;
	*line = (const char *)in->view + in->pos;
	/* The last line may lack its newline. */
	*len = nl != NULL ? (size_t)(nl - (in->view + in->pos)) : scanned;
	if (*len > PC_MAX_LINE)
		return profconv__fail(PROFCONV_EFORMAT,
		    "line %llu: longer than %zu bytes",
		    (unsigned long long)in->lineno + 1, PC_MAX_LINE);
	in->pos += nl != NULL ? *len + 1 : *len;
	in->lineno++;
	in->unterminated = nl == NULL;
	/* As bufio.ScanLines: a CR before the newline, or at the end, goes. */
	if (*len != 0 && (*line)[*len - 1] == '\r')
		(*len)--;
	return 1;
}

void
profconv__input_skip(struct pc_input *in, size_t n, uint64_t lines)
{
	in->pos += n;
	in->lineno += lines;
}

int
profconv__input_slurp(struct pc_input *in, const unsigned char **data,
    size_t *len)
{
	int rc;

	/* Read everything: fill until EOF, growing the buffer. */
	while (!in->eof) {
		rc = profconv__input_fill(in, in->end - in->pos + BUF_MIN);
		if (rc < 0)
			return rc;
	}
	*data = in->view + in->pos;
	*len = in->end - in->pos;
	return 0;
}

void
profconv__input_release(struct pc_input *in, const unsigned char *upto)
{
	unsigned char *from;

	/* Only the input's own buffer; from where the last call ended. */
	if (in->view == NULL || in->view != in->buf ||
	    upto <= in->view || upto > in->view + in->end)
		return;
	from = in->released != NULL ? in->released : in->buf;
	if (upto > from)
		in->released = profconv__pages_give_back(from,
		    (size_t)(upto - from));
}
const char *
profconv__input_other_compression(const unsigned char *p, size_t len)
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

/* --- gzip members inflated on threads ------------------------------------ */

/*
 * A gzip file of several members (RFC 1952, 2.2), as profconv's own
 * writer makes (lib/pprof/gzout.c: one member per MiB of the stream), is
 * inflated member by member on threads.  Members carry no length, so
 * where they start is guessed: every header as writers of such files
 * write one (no name, comment or extra field, a known XFL and OS byte)
 * is taken for a member's start, the trailer before it for the size of
 * the member before.  The guesses are then proven: a member is taken
 * only when it inflates to exactly the size its trailer gives, with the
 * right CRC-32, using exactly the bytes up to the next guess.  From the
 * first member that is not, zlib inflates the rest in order, as without
 * threads, so that bytes, errors and their offsets are the same.
 */
#ifdef HAVE_LIBDEFLATE

/* Members are first found, then inflated in rounds of this many bytes
 * of compressed input. */
struct gz_members {
	const unsigned char *src;
	size_t *start;		/* each member's offset in SRC; then the end */
	size_t *out;		/* each member's offset in DST; then the end */
	unsigned char *dst;
	bool *ok;
};

/* Does P (at least 10 bytes) look like the header of one more member? */
static bool
member_head(const unsigned char *p)
{
	return p[0] == 0x1f && p[1] == 0x8b && p[2] == 8 && p[3] == 0 &&
	    (p[8] == 0 || p[8] == 2 || p[8] == 4) &&
	    (p[9] <= 13 || p[9] == 255);
}

static int
member_task(void *arg, size_t i)
{
	struct gz_members *m = arg;
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	size_t n = m->start[i + 1] - m->start[i];
	size_t want = m->out[i + 1] - m->out[i], used = 0, made = 0;

	m->ok[i] = false;
	if (d == NULL)
		return 0;	/* zlib does it, and says why it cannot */
	m->ok[i] = libdeflate_gzip_decompress_ex(d, m->src + m->start[i], n,
	    m->dst + m->out[i], want, &used, &made) == LIBDEFLATE_SUCCESS &&
	    used == n && made == want;
	libdeflate_free_decompressor(d);
	return 0;
}

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/*
 * Inflate the members in SRC[0..LEN) (at a member's start) on threads
 * onto the end of IN's buffer, as far as they are proven; the last one
 * only when LAST (SRC ends where the input does), else it may be cut
 * off.  *DONE is how many bytes of SRC that took; *STUCK says that
 * a guess failed or the bound was reached there: zlib goes on from
 * *DONE.
 */
static int
gz_members_run(struct pc_input *in, const unsigned char *src, size_t len,
    bool last, unsigned int jobs, size_t *done, bool *stuck)
{
	struct gz_members m = { src, NULL, NULL, NULL, NULL };
	size_t n = 0, cap = 0, i, k;
	uint64_t total = 0;
	const unsigned char *p;
	int rc = 0;

	*done = 0;
	*stuck = true;
	if (len < 18 || !member_head(src))
		return 0;
	/* The guessed starts, and the sizes their trailers give. */
	for (size_t at = 0; at + 10 <= len; at++) {
		p = memchr(src + at, 0x1f, len - 9 - at);
		if (p == NULL)
			break;
		at = (size_t)(p - src);
		if (!member_head(p))
			continue;
		if ((rc = PC_GROW(m.start, cap, n, 2)) < 0)
			goto out;
		m.start[n++] = at;
	}
	m.start[n] = len;
	if (!last && --n == 0) {
		*stuck = false;		/* the caller reads more */
		goto out;
	}
	m.out = malloc((n + 1) * sizeof(*m.out));
	m.ok = malloc(n * sizeof(*m.ok));
	if (m.out == NULL || m.ok == NULL) {
		rc = profconv__nomem();
		goto out;
	}
	/* As far as each member is long enough to have a trailer, and the
	 * input stays within its bound. */
	m.out[0] = 0;
	for (k = 0; k < n; k++) {
		size_t end = m.start[k + 1];

		if (end - m.start[k] < 18 ||
		    in->total + total + le32(src + end - 4) > in->max)
			break;
		total += le32(src + end - 4);
		m.out[k + 1] = (size_t)total;
	}
	if (k == 0)
		goto out;
	/* Room at the end of the buffer, which needs no sliding. */
	if (in->cap - in->end < total + BUF_MIN) {
		if ((rc = PC_GROW(in->buf, in->cap, in->end,
		    (size_t)total + BUF_MIN)) < 0)
			goto out;
		in->view = in->buf;
		in->released = NULL;
	}
	m.dst = in->buf + in->end;
	rc = profconv__jobs_run(jobs, k, member_task, &m);
	if (rc < 0)
		goto out;
	for (i = 0; i < k && m.ok[i]; i++)
		;
	in->end += m.out[i];
	in->total += m.out[i];
	in->gz_members += i;
	*done = m.start[i];
	*stuck = i < n;
out:
	free(m.start);
	free(m.out);
	free(m.ok);
	return rc;
}

/* Compressed bytes read per round from a FILE, and how many times that
 * a round may grow to for one long member before zlib takes over. */
#define MEMBER_ROUND ((size_t)16 << 20)
#define ROUND_GROWTH 4

size_t profconv__test_gz_round;

/*
 * Finish the member zlib is in, then hand what follows to
 * gz_members_run(), a round at a time, and what it leaves to zlib.
 */
static int
gz_slurp_members(struct pc_input *in, unsigned int jobs)
{
	unsigned char *own = NULL;
	size_t len, done = 0, got, cap;
	uint64_t at;		/* offset of OWN[0] in the compressed input */
	bool eof = false, stuck = false;
	int rc;

	in->member_stop = true;
	while (!in->zend && !in->member_done) {
		if (in->cap - in->end < BUF_MIN / 2) {
			if ((rc = PC_GROW(in->buf, in->cap, in->end, BUF_MIN)) < 0)
				goto out;
			in->view = in->buf;
			in->released = NULL;
		}
		rc = gz_read(in, in->buf + in->end, in->cap - in->end, &got);
		if (rc < 0)
			goto out;
		in->end += got;
		in->total += got;
		if (in->total > in->max) {
			rc = too_big(in);
			goto out;
		}
	}
	in->member_stop = false;
	if (in->zend)
		return 0;
	at = in->zfed - in->z.avail_in;
	if (in->fp == NULL) {
		/* All of it is in memory already. */
		const unsigned char *src = in->z.next_in;

		len = (size_t)(in->mem + in->memlen - src);
		rc = gz_members_run(in, src, len, true, jobs, &done, &stuck);
		if (rc < 0)
			return rc;
		in->mempos = (size_t)(src + done - in->mem);
	} else {
		size_t round = profconv__test_gz_round != 0 ?
		    profconv__test_gz_round : MEMBER_ROUND;

		len = in->z.avail_in;
		cap = len > round ? len : round;
		own = malloc(cap);
		if (own == NULL)
			return profconv__nomem();
		memcpy(own, in->z.next_in, len);
		for (;;) {
			while (!eof && len < cap) {
				rc = raw_read(in, own + len, cap - len, &got);
				if (rc < 0)
					goto out;
				eof = got == 0;
				len += got;
			}
			rc = gz_members_run(in, own, len, eof, jobs, &done,
			    &stuck);
			if (rc < 0)
				goto out;
			if (stuck || eof)
				break;
			if (done == 0) {
				/* One member longer than a round. */
				if (cap >= ROUND_GROWTH * round)
					break;
				if ((rc = PC_GROW(own, cap, len, cap)) < 0)
					goto out;
				continue;
			}
			memmove(own, own + done, len - done);
			len -= done;
			at += done;
		}
		if (done < len) {
			/* What zlib reads next. */
			in->owned = own;
			in->mem = own;
			in->memlen = len;
			in->mempos = done;
			own = NULL;
		}
		free(own);
		own = NULL;
	}
	/* zlib goes on where the proven members end. */
	in->zfed = at + done;
	in->z.avail_in = 0;
	in->member_done = true;
	return 0;
out:
	in->member_stop = false;
	free(own);
	return rc;
}
#endif

int
profconv__input_slurp_jobs(struct pc_input *in, unsigned int jobs,
    const unsigned char **data, size_t *len)
{
#ifdef HAVE_LIBDEFLATE
	if (in->gz && !in->eof) {
		int rc = gz_slurp_members(in, jobs);

		if (rc < 0)
			return rc;
	}
#else
	(void)jobs;
#endif
	return profconv__input_slurp(in, data, len);
}

size_t
profconv__input_samples(const struct pc_input *in,
    const struct profconv_profile *prof)
{
	return profconv_profile_sample_count(prof) +
	    (in->drain != NULL ? in->drain->taken : 0);
}
