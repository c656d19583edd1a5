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
