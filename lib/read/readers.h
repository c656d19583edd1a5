/* SPDX-License-Identifier: MIT */
/*
 * readers.h - the input formats libprofconv reads, one registration each.
 *
 * Each reader is described by one struct pc_reader defined beside its
 * parser (heapprofile.c defines profconv__reader_heap, pprof/reader.c
 * profconv__reader_pprof ...), as libarchive registers its formats.
 * read.c lists them in the order their sniffs are tried and hands an
 * input to the first reader whose sniff accepts its first bytes.
 * Detection happens there and only there: a reader never looks for
 * another format, and nothing is decided from an error message; what an
 * input near a format but refused is, the reader of that format's
 * explain hook says.
 *
 * To add a format: write its sniff and reader in a new file, define its
 * entry there, declare it below and add it to the table in read.c.
 */
#ifndef PROFCONV_READERS_H
#define PROFCONV_READERS_H

#include <stdbool.h>
#include <stddef.h>

#include "read/input.h"
#include "model/seams.h"

/* How much of the (decompressed) start of an input a sniff is shown. */
#define PC_SNIFF_BYTES 4096

struct pc_reader {
	enum profconv_format format;
	const char *name;		/* what profconv_format_name() says */
	/*
	 * Does an input starting with HEAD (LEN bytes, 1 to PC_SNIFF_BYTES)
	 * look like this format?  WHOLE: HEAD is the entire input.  Only
	 * looks: no allocation, no message.
	 */
	bool (*sniff)(const unsigned char *head, size_t len, bool whole);
	/*
	 * Read IN from its beginning (nothing consumed yet, the first bytes
	 * visible through profconv__input_data()) into a new profile.
	 * Messages name the line ("line 12: ...") or byte offset.
	 */
	int (*read)(struct profconv_profile **out, struct pc_input *in,
	    const struct profconv_read_options *opts);
	/*
	 * May be NULL.  HEAD (as for sniff) was accepted by no reader: when
	 * it is near this format (a header with an impossible field, a
	 * producer's output that is no profile, a related format this
	 * reader does not read), fail saying why; else return 0.  Asked in
	 * the table's order, so that what is said about an input comes
	 * from the reader that knows its kind, not from read.c.
	 */
	int (*explain)(const unsigned char *head, size_t len, bool whole);
};

extern const struct pc_reader profconv__reader_pprof;		/* pprof/reader.c */
extern const struct pc_reader profconv__reader_heap;		/* heapprofile.c */
extern const struct pc_reader profconv__reader_jemalloc;	/* jemalloc.c */
extern const struct pc_reader profconv__reader_cpu;		/* cpuprofile.c */
extern const struct pc_reader profconv__reader_contention;	/* contention.c */
extern const struct pc_reader profconv__reader_gocount;	/* gocount.c */
extern const struct pc_reader profconv__reader_thread;		/* threadz.c */
extern const struct pc_reader profconv__reader_heaptrack;	/* heaptrack.c */
extern const struct pc_reader profconv__reader_massif;		/* massif.c */

/*
 * profconv_profile_read() with DRAIN given to the reader (input.h's
 * struct pc_drain; NULL: none), which may hand it samples as they are
 * read instead of keeping them.
 */
struct pc_drain;
int profconv__read_draining(struct profconv_profile **out, FILE *fp,
    const struct profconv_read_options *opts,
    enum profconv_format *format_out, struct pc_drain *drain);

/* --- what sniffs share (read.c) ------------------------------------------- */

/* The first line of HEAD, without its newline or a CR ending it. */
void profconv__head_first_line(const unsigned char *head, size_t len,
    const char **line, size_t *n);

/*
 * The first line of HEAD that is not blank or a '#' comment (pprof's
 * isSpaceOrComment), as above; false when HEAD has none.
 */
bool profconv__head_content_line(const unsigned char *head, size_t len,
    const char **line, size_t *n);

/* Do those lines start with one of PREFIXES (a NULL-terminated list)?
 * Most text formats are known by their header's first words. */
bool profconv__line_has(const char *line, size_t n,
    const char *const *prefixes);
bool profconv__head_first_line_has(const unsigned char *head, size_t len,
    const char *const *prefixes);
bool profconv__head_content_line_has(const unsigned char *head, size_t len,
    const char *const *prefixes);

/* Go's countStartRE, "\A\S+ profile: total \d+\z" (gocount.c). */
bool profconv__is_count_header(const char *line, size_t len);

#endif /* PROFCONV_READERS_H */
