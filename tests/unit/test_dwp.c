/* SPDX-License-Identifier: MIT */
/*
 * test_dwp.c - ELF images made in memory, and split units taken out of a
 * DWARF 5 package built by hand (lib/symbolize/dwp.c).
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <dwarf.h>
#include <elfutils/libdw.h>

#include "helpers.h"
#include "symbolize/symbolize.h"

#define DWO_ID UINT64_C(0x1122334455667788)

static const unsigned char ident[EI_NIDENT] = {
	ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	ELFDATA2LSB,
#else
	ELFDATA2MSB,
#endif
	EV_CURRENT,
};

/* The image of SECS read back with libelf: each section's name, type
 * and bytes as given. */
Test(dwp, makes_an_elf_image_libelf_reads)
{
	static const struct pc_elf_section secs[] = {
		{ ".debug_info", "abc", 3 },
		{ ".debug_str", "x\0y", 4 },
	};
	size_t size, shstrndx, i = 0;
	void *img;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	Elf *elf;

	cr_assert(eq(int, profconv__elf_image(secs, 2, ident, EM_X86_64, &img,
	    &size), 0));
	elf_version(EV_CURRENT);
	elf = elf_memory(img, size);
	cr_assert(not(zero(ptr, elf)));
	cr_assert(eq(int, elf_kind(elf), ELF_K_ELF));
	cr_assert(not(zero(ptr, gelf_getehdr(elf, &eh))));
	cr_assert(eq(int, eh.e_type, ET_REL));
	cr_assert(eq(int, eh.e_machine, EM_X86_64));
	cr_assert(eq(int, gelf_getclass(elf), ELFCLASS64));
	cr_assert(eq(int, elf_getshdrstrndx(elf, &shstrndx), 0));
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		cr_assert(not(zero(ptr, gelf_getshdr(scn, &sh))));
		if (elf_ndxscn(scn) == shstrndx) {
			cr_assert(eq(str, elf_strptr(elf, shstrndx, sh.sh_name),
			    ".shstrtab"));
			continue;
		}
		cr_assert(lt(sz, i, 2));
		cr_assert(eq(str, elf_strptr(elf, shstrndx, sh.sh_name),
		    (char *)secs[i].name));
		cr_assert(eq(u32, sh.sh_type, SHT_PROGBITS));
		d = elf_getdata(scn, NULL);
		cr_assert(not(zero(ptr, d)));
		cr_assert(eq(sz, d->d_size, secs[i].size));
		cr_assert(eq(int, memcmp(d->d_buf, secs[i].data, d->d_size), 0));
		i++;
	}
	cr_assert(eq(sz, i, 2));
	elf_end(elf);
	free(img);
}

/*
 * A package of one split unit, by DWARF 5 (7.3.5): .debug_info.dwo holds
 * a split compile unit with DWO_ID and one childless DIE,
 * .debug_abbrev.dwo its abbreviation, .debug_cu_index the unit's row.
 */
static const unsigned char info[] = {
	17, 0, 0, 0,			/* unit_length */
	5, 0,				/* version */
	5,				/* DW_UT_split_compile */
	8,				/* address_size */
	0, 0, 0, 0,			/* debug_abbrev_offset */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* dwo_id */
	1,				/* abbrev 1 */
};
static const unsigned char abbrev[] = {
	1, 0x11, 0,			/* 1: DW_TAG_compile_unit, no children */
	0, 0,				/* no attributes */
	0,
};

static char pkg_path[64];

/* Write the package, with index version VERSION, to pkg_path. */
static void
write_package(unsigned char version)
{
	unsigned char index[16 + 2 * 8 + 2 * 4 + 2 * 4 + 2 * 4 + 2 * 4];
	struct pc_elf_section secs[3];
	uint32_t u32;
	uint64_t id = DWO_ID;
	size_t size;
	void *img;
	FILE *fp;
	int fd;

	memset(index, 0, sizeof(index));
	index[0] = version;
	u32 = 2; memcpy(index + 4, &u32, 4);	/* columns */
	u32 = 1; memcpy(index + 8, &u32, 4);	/* units */
	u32 = 2; memcpy(index + 12, &u32, 4);	/* slots */
	/* Slot ID & (slots - 1) = 0 holds the id, row 1. */
	memcpy(index + 16, &id, 8);
	u32 = 1; memcpy(index + 32, &u32, 4);
	u32 = 1; memcpy(index + 40, &u32, 4);	/* DW_SECT_INFO */
	u32 = 3; memcpy(index + 44, &u32, 4);	/* DW_SECT_ABBREV */
	/* Offsets 0 and 0, then sizes. */
	u32 = sizeof(info); memcpy(index + 56, &u32, 4);
	u32 = sizeof(abbrev); memcpy(index + 60, &u32, 4);
	secs[0] = (struct pc_elf_section){ ".debug_info.dwo", info,
		sizeof(info) };
	secs[1] = (struct pc_elf_section){ ".debug_abbrev.dwo", abbrev,
		sizeof(abbrev) };
	secs[2] = (struct pc_elf_section){ ".debug_cu_index", index,
		sizeof(index) };
	cr_assert(eq(int, profconv__elf_image(secs, 3, ident, EM_X86_64, &img,
	    &size), 0));
	snprintf(pkg_path, sizeof(pkg_path), "/tmp/test_dwp.XXXXXX");
	fd = mkstemp(pkg_path);
	cr_assert(ge(int, fd, 0));
	fp = fdopen(fd, "w");
	cr_assert(eq(sz, fwrite(img, 1, size, fp), size));
	cr_assert(eq(int, fclose(fp), 0));
	free(img);
}

static void
remove_package(void)
{
	if (pkg_path[0] != '\0')
		unlink(pkg_path);
	pkg_path[0] = '\0';
}

static void
gives_libdw_the_unit_of_a_dwo_id(void)
{
	struct pc_dwp *p;
	Dwarf_Die die;
	Dwarf_Half version;
	uint64_t id;
	uint8_t type;

	write_package(5);
	cr_assert(eq(int, profconv__dwp_open(&p, pkg_path), 0));
	cr_assert(eq(int, profconv__dwp_unit(p, DWO_ID, NULL, 0, &die), 0));
	cr_assert(eq(int, dwarf_tag(&die), DW_TAG_compile_unit));
	cr_assert(eq(int, dwarf_cu_info(die.cu, &version, &type, NULL, NULL,
	    &id, NULL, NULL), 0));
	cr_assert(eq(u32, version, 5));
	cr_assert(eq(u32, type, DW_UT_split_compile));
	cr_assert(eq(u64, id, DWO_ID));
	/* An id the index does not hold. */
	cr_assert(eq(int, profconv__dwp_unit(p, DWO_ID + 1, NULL, 0, &die),
	    PROFCONV_ENOTFOUND));
	profconv__dwp_free(p);
}

/* GNU's version 2 index is DWARF 4's, and no package of this kind. */
static void
refuses_what_is_no_dwarf5_package(void)
{
	struct pc_dwp *p = (struct pc_dwp *)&p;

	write_package(2);
	cr_assert(eq(int, profconv__dwp_open(&p, pkg_path), PROFCONV_EFORMAT));
	cr_assert(zero(ptr, p));
	cr_assert(eq(int, profconv__dwp_open(&p, "/proc/self/exe"),
	    PROFCONV_EFORMAT));
	cr_assert(eq(int, profconv__dwp_open(&p, "/nonexistent.dwp"),
	    PROFCONV_ENOTFOUND));
	cr_assert(zero(ptr, p));
}

/* A package's unit given to libdw, or no package of this kind refused;
 * each case removes its file before the next. */
Test(dwp, opens_a_package, .fini = remove_package)
{
	gives_libdw_the_unit_of_a_dwo_id();
	remove_package();
	refuses_what_is_no_dwarf5_package();
}
