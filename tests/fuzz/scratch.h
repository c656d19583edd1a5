/* SPDX-License-Identifier: MIT */
/*
 * scratch.h - a fuzz harness's one scratch file: a path in a temporary
 * directory made on first use (under $TMPDIR when short enough, else
 * /tmp) and removed, with the file, when the process exits.
 */

#ifndef PROFCONV_FUZZ_SCRATCH_H
#define PROFCONV_FUZZ_SCRATCH_H

/*
 * The path of FILE (a bare name) in the scratch directory of HARNESS
 * (its name, in the directory's name); the same for every call.
 * Aborts when the directory cannot be made.
 */
const char *fuzz_scratch_file(const char *harness, const char *file);

/* The scratch directory of the file above. */
const char *fuzz_scratch_dir(void);

#endif
