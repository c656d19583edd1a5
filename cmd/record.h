/* SPDX-License-Identifier: MIT */
/* record.h - what the two halves of "profconv record" share. */
#ifndef PROFCONV_CMD_RECORD_H
#define PROFCONV_CMD_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum allocator { ALLOC_NONE, ALLOC_JEMALLOC, ALLOC_TCMALLOC };

/* The forked processes whose dumps are reported, at most. */
#define RECORD_MAX_PROCESSES 64

/*
 * What "profconv record --dump DIR" and the helper module preloaded into
 * each recorded process (record_helper.c) say to each other, as files in
 * DIR.  Each process that runs the helper registers in
 * RECORD_PROCESS_FILE.PID, holding its start time (field 22 of
 * /proc/PID/stat) and the helper's path, so that --dump can tell a live
 * process that still runs the helper from a dead one or one that exec'd
 * something else.  --dump writes a request number, one more than the
 * last, into RECORD_REQUEST_FILE; each helper that sees a number it has
 * not answered dumps and writes "NUMBER STATUS" (0: dumped) into
 * RECORD_ACK_FILE.PID.  RECORD_MARK_FILE holds PROG's process id while
 * record runs.
 */
#define RECORD_MARK_FILE ".recording"
#define RECORD_REQUEST_FILE ".dump-request"
#define RECORD_PROCESS_FILE ".process."
#define RECORD_ACK_FILE ".dump-ack."
/* The processes --dump asks at most (more are not waited for). */
#define RECORD_MAX_DUMPERS 1024
/* How long --dump waits for the dumps, in milliseconds. */
#define RECORD_DUMP_WAIT_MS 10000

/*
 * "profconv record --dump DIR": ask every live process recording into
 * DIR for a dump and wait until each has written it, or said it could
 * not.  EXIT_OK, or EXIT_FAIL (said, naming the processes that did not
 * dump).
 */
int record_dump(const char *dir);

/* Remove what record_dump() and the helpers leave in DIR. */
void record_dump_cleanup(const char *dir);

/*
 * After PROG (named PROG on the command line) ran with STATUS: the
 * dumps of process PID in DIR, named from BASE as ALLOC names them;
 * the last one symbolized beside it, DIR/report.html of the series, and
 * on stderr where these are, the last dump's top functions and
 * proftrend's verdicts.  The same for each process PROG forked (each its
 * own series, in DIR/report-ITSPID.html), at most RECORD_MAX_PROCESSES.
 * BY_THREAD: the rows of the page and the verdicts split per thread.
 * Failures are said; the exit status stays PROG's.
 */
void record_after_run(const char *dir, const char *base, enum allocator alloc,
    pid_t pid, const char *prog, int status, bool by_thread);

#endif /* PROFCONV_CMD_RECORD_H */
