/* SPDX-License-Identifier: MIT */
/*
 * fuzz_elffacts.c - fuzz profconv_elf_facts_read() (symbolize/elffacts.c)
 * with arbitrary bytes as a program: the input is written as "prog"
 * under a temporary directory and read.  On success the facts keep the
 * bounds of LIMITS in libprofconv(3) (at most 1024 DT_NEEDED names, each
 * and the program interpreter at most 4096 bytes) and are whole: a path,
 * a build id of hex digits, class 32 or 64, type ET_EXEC or ET_DYN.  On
 * failure *out is NULL and the message is one line, naming a file.  A
 * "#!" input names an interpreter, which is read in its turn: the file
 * itself when it names its own path, so the depth bound is reached too.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <profconv.h>

#include "scratch.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static const char *prog;

static void
check(bool ok)
{
	if (!ok)
		abort();
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct profconv_elf_facts *f = (struct profconv_elf_facts *)1;
	const char *msg;
	FILE *fp;
	size_t i;
	int rc;

	prog = fuzz_scratch_file("fuzz_elffacts", "prog");
	fp = fopen(prog, "wb");
	check(fp != NULL);
	/* "#!@" names the file itself: a script that runs itself. */
	if (size >= 3 && memcmp(data, "#!@", 3) == 0) {
		fprintf(fp, "#!%s", prog);
		check(fwrite(data + 3, 1, size - 3, fp) == size - 3);
	} else {
		check(fwrite(data, 1, size, fp) == size);
	}
	check(fclose(fp) == 0);
	rc = profconv_elf_facts_read(&f, prog);
	if (rc < 0) {
		check(f == NULL);
		check(rc == PROFCONV_ENOTFOUND || rc == PROFCONV_EFORMAT ||
		    rc == PROFCONV_EIO || rc == PROFCONV_ENOMEM);
		msg = profconv_errmsg();
		check(msg[0] != '\0' && strchr(msg, '\n') == NULL);
		check(strchr(msg, '\'') != NULL);
		return 0;
	}
	check(rc == 0 && f != NULL && f->path != NULL && f->build_id != NULL);
	check(f->elf_class == 32 || f->elf_class == 64);
	check(f->elf_type == 2 || f->elf_type == 3);
	check(f->pie == 0 || f->pie == 1);
	check(f->set_id == 0 || f->set_id == 1);
	check(strspn(f->build_id, "0123456789abcdef") == strlen(f->build_id));
	check(f->interpreter == NULL || strlen(f->interpreter) <= 4096);
	check(f->nneeded <= 1024 && (f->nneeded == 0 || f->needed != NULL));
	for (i = 0; i < f->nneeded; i++)
		check(f->needed[i] != NULL && strlen(f->needed[i]) <= 4096);
	profconv_elf_facts_free(f);
	return 0;
}
