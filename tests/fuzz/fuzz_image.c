/* SPDX-License-Identifier: MIT */
/*
 * fuzz_image.c - fuzz the debug-file image (symbolize/debug_inflate.c): the input is an
 * ELF file.  When an image comes back, libelf must read it as the same
 * file: the same ELF header but for where the section headers are, the
 * same program headers and sections, each inflated section equal to
 * libelf's own inflation of the input's (elf_compress), each dropped one
 * SHT_NOBITS of the inflated size, every other one byte for byte.
 * Crashes, sanitizer reports and any difference abort.
 *
 * With FUZZ_IMAGE_EXPECT=1 in the environment, an input that gives no
 * image aborts too: tests/cli/symbolize-image.sh runs the replay driver
 * that way on compressed debug files made at test time, so that a
 * change that stops making images cannot pass for a working one.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <gelf.h>

#include "symbolize/symbolize.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void
check(bool ok)
{
	if (!ok)
		abort();
}

static bool
same_bytes(Elf_Data *a, Elf_Data *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return a->d_size == b->d_size && (a->d_size == 0 ||
	    memcmp(a->d_buf, b->d_buf, a->d_size) == 0);
}

/* Section I of the input, IN, against the image's, OUT. */
static void
check_section(Elf *in_elf, Elf_Scn *in, Elf_Scn *out, size_t shstrndx)
{
	GElf_Shdr a, b;
	GElf_Chdr ch;
	const char *name;
	Elf_Data *d;

	check(gelf_getshdr(in, &a) != NULL && gelf_getshdr(out, &b) != NULL);
	check(a.sh_name == b.sh_name && a.sh_addr == b.sh_addr &&
	    a.sh_link == b.sh_link && a.sh_info == b.sh_info &&
	    a.sh_entsize == b.sh_entsize);
	name = elf_strptr(in_elf, shstrndx, a.sh_name);
	if (a.sh_type == SHT_NOBITS || (a.sh_flags & SHF_COMPRESSED) == 0 ||
	    name == NULL || strncmp(name, ".debug_", 7) != 0 ||
	    gelf_getchdr(in, &ch) == NULL || ch.ch_type != ELFCOMPRESS_ZLIB ||
	    (b.sh_flags & SHF_COMPRESSED) != 0) {
		/* Kept: the same header, the same bytes; a compressed DWARF
		 * section only when libelf would not inflate it either. */
		if ((b.sh_flags & SHF_COMPRESSED) != 0 && name != NULL &&
		    strncmp(name, ".debug_", 7) == 0 &&
		    a.sh_type == SHT_PROGBITS)
			check(elf_compress(in, 0, 0) != 1);
		check(a.sh_type == b.sh_type && a.sh_flags == b.sh_flags &&
		    a.sh_offset == b.sh_offset && a.sh_size == b.sh_size &&
		    a.sh_addralign == b.sh_addralign);
		if (a.sh_type != SHT_NOBITS)
			check(same_bytes(elf_rawdata(in, NULL),
			    elf_rawdata(out, NULL)));
		return;
	}
	check(b.sh_size == ch.ch_size && b.sh_addralign == ch.ch_addralign &&
	    b.sh_flags == (a.sh_flags & ~(GElf_Xword)SHF_COMPRESSED));
	if (b.sh_type == SHT_NOBITS) {
		/* Dropped: one of the sections the symbolizer never reads. */
		check(strcmp(name, ".debug_loc") == 0 ||
		    strcmp(name, ".debug_loclists") == 0 ||
		    strcmp(name, ".debug_macro") == 0 ||
		    strcmp(name, ".debug_macinfo") == 0 ||
		    strcmp(name, ".debug_frame") == 0 ||
		    strstr(name, "pubnames") != NULL ||
		    strstr(name, "pubtypes") != NULL);
		return;
	}
	check(b.sh_type == a.sh_type);
	/* Inflated: what libelf makes of the input's section, as bytes
	 * (elf_getdata would convert them by type, here and in libdw). */
	check(elf_compress(in, 0, 0) == 1);
	d = elf_rawdata(in, NULL);
	check(same_bytes(d, elf_rawdata(out, NULL)));
}

static void
compare(int in_fd, int out_fd)
{
	Elf *a = elf_begin(in_fd, ELF_C_READ_MMAP, NULL);
	Elf *b = elf_begin(out_fd, ELF_C_READ_MMAP, NULL);
	Elf_Scn *sa = NULL, *sb = NULL;
	size_t na, nb, ia, ib, strndx, pa, pb, i;
	GElf_Ehdr ea, eb;
	GElf_Phdr ha, hb;

	/* What libelf cannot read, libdw would not have read either. */
	if (a == NULL || gelf_getehdr(a, &ea) == NULL) {
		elf_end(a);
		elf_end(b);
		return;
	}
	check(b != NULL && gelf_getehdr(b, &eb) != NULL);
	eb.e_shoff = ea.e_shoff;
	check(memcmp(&ea, &eb, sizeof(ea)) == 0);
	check(elf_getshdrnum(a, &na) == 0 && elf_getshdrnum(b, &nb) == 0 &&
	    na == nb);
	check(elf_getshdrstrndx(a, &ia) == 0 && elf_getshdrstrndx(b, &ib) == 0 &&
	    ia == ib);
	strndx = ia;
	/* Program headers libelf refuses in the file, it refuses here. */
	pa = pb = 0;
	check((elf_getphdrnum(a, &pa) == 0) == (elf_getphdrnum(b, &pb) == 0) &&
	    pa == pb);
	for (i = 0; i < pa; i++)
		check(gelf_getphdr(a, (int)i, &ha) != NULL &&
		    gelf_getphdr(b, (int)i, &hb) != NULL &&
		    memcmp(&ha, &hb, sizeof(ha)) == 0);
	while ((sa = elf_nextscn(a, sa)) != NULL) {
		sb = elf_nextscn(b, sb);
		check(sb != NULL);
		check_section(a, sa, sb, strndx);
	}
	elf_end(a);
	elf_end(b);
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	const char *expect = getenv("FUZZ_IMAGE_EXPECT");
	int fd, orig, img;

	profconv__libelf_init();
	fd = memfd_create("fuzz-image", MFD_CLOEXEC);
	check(fd >= 0);
	check(size == 0 || write(fd, data, size) == (ssize_t)size);
	orig = dup(fd);
	check(orig >= 0);
	img = profconv__debug_image(fd, 2);
	if (img == fd) {
		check(expect == NULL || strcmp(expect, "1") != 0);
		close(fd);
	} else {
		check(img >= 0);
		compare(orig, img);
		close(img);
	}
	close(orig);
	return 0;
}
