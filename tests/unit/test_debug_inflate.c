/* SPDX-License-Identifier: MIT */
/*
 * test_debug_inflate.c - a binary built with -gz made readable without
 * inflating: its compressed DWARF sections stored plain, byte for byte
 * what libelf inflates them to (lib/symbolize/debug_inflate.c).
 */

#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>

#include "symbolize/symbolize.h"
#include "tmpdir_fixture.h"

static void
make_dir(void)
{
	make_tmp_dir("/tmp/test_debug_inflate.XXXXXX");
}

TestSuite(debug_inflate, .init = make_dir, .fini = remove_dir);

/* A program compiled with FLAGS into DIR/prog, opened; skips without gcc. */
static int
compiled(const char *flags)
{
	char cmd[512], path[128];
	int fd;

	snprintf(cmd, sizeof(cmd), "cd %s && printf 'static int f(int x) "
	    "{ return x * 2; }\\nint main(int c, char **v) { (void)v; "
	    "return f(c); }\\n' >p.c && gcc %s p.c -o prog 2>/dev/null", dir,
	    flags);
	if (system(cmd) != 0)
		cr_skip_test("gcc %s does not build", flags);
	snprintf(path, sizeof(path), "%s/prog", dir);
	fd = open(path, O_RDONLY);
	cr_assert(ge(int, fd, 0));
	return fd;
}

/* Section NAME of ELF, or NULL. */
static Elf_Scn *
section(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx;
	const char *s;

	cr_assert(eq(int, elf_getshdrstrndx(elf, &shstrndx), 0));
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		cr_assert(not(zero(ptr, gelf_getshdr(scn, &sh))));
		s = elf_strptr(elf, shstrndx, sh.sh_name);
		if (s != NULL && strcmp(s, name) == 0)
			return scn;
	}
	return NULL;
}

Test(debug_inflate, stores_compressed_sections_plain)
{
	int fd = compiled("-g -gz=zlib"), ref = dup(fd), img;
	Elf *a, *b;
	Elf_Scn *sa, *sb;
	Elf_Data *da, *db;
	GElf_Shdr ha, hb;
	GElf_Ehdr ea, eb;

	cr_assert(ge(int, ref, 0));
	img = profconv__debug_image(fd, 2);
	cr_assert(ne(int, img, fd), "a -gz program is rewritten");
	elf_version(EV_CURRENT);
	a = elf_begin(ref, ELF_C_READ, NULL);
	b = elf_begin(img, ELF_C_READ, NULL);
	cr_assert(not(zero(ptr, a)));
	cr_assert(not(zero(ptr, b)));
	sa = section(a, ".debug_info");
	sb = section(b, ".debug_info");
	cr_assert(not(zero(ptr, sa)));
	cr_assert(not(zero(ptr, sb)));
	cr_assert(not(zero(ptr, gelf_getshdr(sa, &ha))));
	cr_assert(not(zero(ptr, gelf_getshdr(sb, &hb))));
	cr_assert(ne(u64, ha.sh_flags & SHF_COMPRESSED, 0));
	cr_assert(eq(u64, hb.sh_flags & SHF_COMPRESSED, 0));
	/* libelf's own inflation is the reference. */
	cr_assert(eq(int, elf_compress(sa, 0, 0), 1));
	da = elf_getdata(sa, NULL);
	db = elf_getdata(sb, NULL);
	cr_assert(eq(sz, db->d_size, da->d_size));
	cr_assert(eq(int, memcmp(db->d_buf, da->d_buf, da->d_size), 0));
	/* What is found through offsets stays: header and segments. */
	cr_assert(not(zero(ptr, gelf_getehdr(a, &ea))));
	cr_assert(not(zero(ptr, gelf_getehdr(b, &eb))));
	cr_assert(eq(u64, eb.e_entry, ea.e_entry));
	cr_assert(eq(u32, eb.e_phnum, ea.e_phnum));
	cr_assert(eq(u64, eb.e_phoff, ea.e_phoff));
	elf_end(a);
	elf_end(b);
	close(ref);
	close(img);
}

/* Nothing compressed, nothing to do: the same descriptor comes back. */
Test(debug_inflate, keeps_a_file_without_compressed_sections)
{
	int fd = compiled("-g");

	cr_assert(eq(int, profconv__debug_image(fd, 1), fd));
	close(fd);
}

/* Whatever is no ELF file, or no regular file, is read as it is. */
Test(debug_inflate, keeps_what_it_cannot_rewrite)
{
	char path[128];
	int fd, p[2];

	snprintf(path, sizeof(path), "%s/text", dir);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	cr_assert(ge(int, fd, 0));
	cr_assert(eq(sz, (size_t)write(fd, "\177ELF but not", 12), 12));
	cr_assert(eq(int, profconv__debug_image(fd, 1), fd));
	close(fd);
	cr_assert(eq(int, pipe(p), 0));
	cr_assert(eq(int, profconv__debug_image(p[0], 1), p[0]));
	close(p[0]);
	close(p[1]);
}
