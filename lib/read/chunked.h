/* SPDX-License-Identifier: MIT */
/*
 * chunked.h - large legacy text read in pieces on several threads.
 *
 * The text after a reader's header is cut at newlines into chunks.  Each
 * chunk is parsed on its own, on any thread, into local terms: locations
 * numbered by their first use in the chunk, stacks as lists of those
 * numbers, and whatever else the reader keeps.  The chunks are then
 * merged into the model one after the other in file order, so that ids,
 * strings, samples and errors come out as one pass over the whole text
 * makes them, whatever the number of threads or where the cuts fall.
 */
#ifndef PROFCONV_CHUNK_H
#define PROFCONV_CHUNK_H

#include <stdbool.h>
#include <stdint.h>

#include "read/builder.h"

struct pc_chunk_stack {
	size_t off;			/* into ids */
	uint32_t n;
};

/* An address and its local location + 1 (0: an empty slot). */
struct pc_chunk_seen {
	uint64_t addr;
	uint32_t id1;
};

struct pc_chunk {
	const char *text, *end;
	uint64_t lines_read;		/* lines parsed, the current one too */
	size_t used;			/* bytes parsed (up to a sentinel) */
	bool sentinel;			/* a memory map starts after USED */
	int rc;				/* < 0: failed, with MSG */
	uint64_t err_line;		/* at this line of the chunk (0: none) */
	char msg[512];
	struct pc_chunk_seen *seen;	/* address -> local location: open
					 * addressing, SEEN_MASK + 1 slots */
	size_t seen_mask;
	uint64_t seed;			/* of the hash of its slots */
	uint64_t *loc_addr;		/* local location -> address */
	size_t nloc, loc_cap;
	uint32_t *ids;			/* the stacks' local locations */
	size_t nids, ids_cap;
	struct pc_chunk_stack *stacks;
	size_t nstacks, stacks_cap;
	void *data;			/* the reader's own, zeroed at first */
};

/* Fail chunk C with CODE and a message; AT_LINE: "line N: " goes first,
 * N the input's line (the chunk's current line once merged). */
int profconv__chunk_fail(struct pc_chunk *c, int code, bool at_line,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Fail chunk C with the error a helper just set (no memory...). */
int profconv__chunk_failed(struct pc_chunk *c, int rc);
/* The same for a helper told the chunk's line number (c->lines_read),
 * whose message reads "line N: ...". */
int profconv__chunk_failed_at_line(struct pc_chunk *c, int rc);

/*
 * A new local stack of the N addresses ADDRS; its first REUSE entries
 * are those of local stack FROM (when REUSE is not 0), the others are
 * looked up.  Its index goes to *OUT.
 */
int profconv__chunk_add_stack(struct pc_chunk *c, const uint64_t *addrs,
    size_t n, uint32_t from, size_t reuse, uint32_t *out);

/* Global location ids for C's local ones, made in C's first-use order,
 * into *MAP (grown as needed). */
int profconv__chunk_locations(struct pc_legacy *b, const struct pc_chunk *c,
    uint32_t **map, size_t *cap);

struct pc_chunked {
	struct pc_input *in;		/* at the first line of the chunks */
	unsigned int jobs;		/* threads, already resolved */
	size_t data_size;		/* bytes of each chunk's DATA */
	void *arg;
	/* Called once per chunk before its lines. */
	void (*start)(void *arg, struct pc_chunk *c);
	/*
	 * One line [LINE, END) of chunk C, its newline (and a CR before
	 * it) cut off.  Returns 0, 1 when it is a memory-map sentinel
	 * (the chunks end after it), or a negative error from
	 * profconv__chunk_fail().  Runs on any thread: reads ARG only.
	 */
	int (*line)(void *arg, struct pc_chunk *c, const char *line,
	    const char *end);
	/* Merge chunk C, parsed without error, into the model. */
	int (*merge)(void *arg, struct pc_chunk *c);
	/* A chunk's DATA (DATA_SIZE bytes, zeroed at first) made new for
	 * the next chunk its slot holds: as zeroed, but keeping the arrays
	 * it grew.  Required when DATA_SIZE is not 0. */
	void (*renew_data)(void *data);
	void (*free_data)(void *data);
	/* May be NULL.  Where merged samples are handed on from PROF, the
	 * model MERGE adds to: each round's merged samples are written
	 * while the next round is parsed.  The last round's stay in
	 * PROF. */
	struct pc_drain *drain;
	struct profconv_profile *prof;
	bool sentinel;			/* out: stopped after a sentinel */
};

/*
 * Read every line left in R->in in chunks, up to a memory-map sentinel
 * (then R->sentinel is set and the input is at the line after it) or the
 * end.  Errors are those of the first failing line in file order.
 */
int profconv__chunked_read(struct pc_chunked *r);

/*
 * The size of the pieces large text inputs are cut into to be parsed on
 * several threads; 0 is the default.  Only tests set it (tiny pieces put
 * a cut at every line).
 */
extern size_t profconv__test_chunk_bytes;

#endif /* PROFCONV_CHUNK_H */
