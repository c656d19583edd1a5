/* SPDX-License-Identifier: MIT */
/*
 * dwp.c - split DWARF units from a DWARF 5 package (.dwp), for libdw
 * 0.188, which reads .dwo files but not packages.
 *
 * A package holds many split units; its .debug_cu_index says, for each
 * unit's DWO id, where the unit's share ("contribution") of each section
 * starts and how long it is.  Offsets inside a unit are relative to its
 * contributions, so each unit is given to libdw as a small ELF image of
 * its own, made in memory: the contributions under the plain section
 * names, the whole string section, and the skeleton's address table from
 * the unit's address base, which is where index 0 of the unit's
 * DW_FORM_addrx values points.  libdw then reads the unit like any other.
 */

#include "config.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>

#include "symbolize/symbolize.h"

/* The package sections a unit can have a contribution in. */
enum {
	S_INFO, S_ABBREV, S_LINE, S_LOCLISTS, S_STR_OFFSETS, S_RNGLISTS,
	S_STR, S_INDEX, S_COUNT
};

static const char *const dwo_names[S_COUNT] = {
	".debug_info.dwo", ".debug_abbrev.dwo", ".debug_line.dwo",
	".debug_loclists.dwo", ".debug_str_offsets.dwo",
	".debug_rnglists.dwo", ".debug_str.dwo", ".debug_cu_index",
};

/* The names they get in a unit's own image. */
static const char *const plain_names[S_COUNT] = {
	".debug_info", ".debug_abbrev", ".debug_line", ".debug_loclists",
	".debug_str_offsets", ".debug_rnglists", ".debug_str", NULL,
};

/* One unit made readable: its image, and libelf's and libdw's views. */
struct dwp_unit {
	void *image;
	Elf *elf;
	Dwarf *dw;
};

struct pc_dwp {
	int fd;
	Elf *elf;
	const unsigned char *sec[S_COUNT];
	size_t size[S_COUNT];
	unsigned char ident[EI_NIDENT];
	uint16_t machine;
	/* .debug_cu_index */
	uint32_t ncols, nunits, nslots;
	const unsigned char *sigs, *rows, *cols, *offs, *sizes;
	struct dwp_unit *units;
	size_t nunits_open, units_cap;
};

static uint32_t
rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t
rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static int
read_sections(struct pc_dwp *p)
{
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	GElf_Shdr sh;
	size_t shstrndx, i;
	const char *name;

	if (elf_getshdrstrndx(p->elf, &shstrndx) != 0)
		return -1;
	while ((scn = elf_nextscn(p->elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(p->elf, shstrndx, sh.sh_name);
		for (i = 0; name != NULL && i < S_COUNT; i++)
			if (strcmp(name, dwo_names[i]) == 0)
				break;
		if (name == NULL || i == S_COUNT)
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) != 0 &&
		    elf_compress(scn, 0, 0) < 0)
			return -1;
		data = elf_getdata(scn, NULL);
		if (data == NULL || data->d_buf == NULL)
			continue;
		p->sec[i] = data->d_buf;
		p->size[i] = data->d_size;
	}
	return 0;
}

/* Check and take apart the DWARF 5 .debug_cu_index. */
static int
read_index(struct pc_dwp *p)
{
	const unsigned char *x = p->sec[S_INDEX];
	size_t size = p->size[S_INDEX], need;

	if (x == NULL || size < 16 || x[0] != 5 || x[1] != 0)
		return -1;	/* none, or the GNU version 2 of DWARF 4 */
	p->ncols = rd32(x + 4);
	p->nunits = rd32(x + 8);
	p->nslots = rd32(x + 12);
	if (p->ncols == 0 || p->ncols > 16 || p->nslots > (1u << 24) ||
	    p->nunits > p->nslots)
		return -1;
	need = 16 + (size_t)p->nslots * 12 + (size_t)p->ncols * 4 +
	    (size_t)p->nunits * p->ncols * 8;
	if (need > size)
		return -1;
	p->sigs = x + 16;
	p->rows = p->sigs + (size_t)p->nslots * 8;
	p->cols = p->rows + (size_t)p->nslots * 4;
	p->offs = p->cols + (size_t)p->ncols * 4;
	p->sizes = p->offs + (size_t)p->nunits * p->ncols * 4;
	return 0;
}

int
profconv__dwp_open(struct pc_dwp **out, const char *path)
{
	struct pc_dwp *p;
	GElf_Ehdr eh;
	int fd;

	*out = NULL;
	if (access(path, R_OK) != 0 || profconv__open_regular(path, &fd) < 0)
		return PROFCONV_ENOTFOUND;
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		close(fd);
		return profconv__nomem();
	}
	p->fd = fd;
	profconv__libelf_init();
	p->elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (p->elf == NULL || gelf_getehdr(p->elf, &eh) == NULL ||
	    read_sections(p) < 0 || read_index(p) < 0 ||
	    p->sec[S_INFO] == NULL || p->sec[S_ABBREV] == NULL) {
		profconv__dwp_free(p);
		return PROFCONV_EFORMAT;
	}
	{
		const uint16_t one = 1;
		unsigned char host = *(const unsigned char *)&one == 1 ?
		    ELFDATA2LSB : ELFDATA2MSB;

		/* The image's header is written in this host's order. */
		if (eh.e_ident[EI_DATA] != host) {
			profconv__dwp_free(p);
			return PROFCONV_EFORMAT;
		}
	}
	memcpy(p->ident, eh.e_ident, EI_NIDENT);
	p->machine = eh.e_machine;
	*out = p;
	return 0;
}

void
profconv__dwp_free(struct pc_dwp *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nunits_open; i++) {
		dwarf_end(p->units[i].dw);
		elf_end(p->units[i].elf);
		free(p->units[i].image);
	}
	free(p->units);
	if (p->elf != NULL)
		elf_end(p->elf);
	close(p->fd);
	free(p);
}

/* DW_SECT_* of DWARF 5's unit index, as our section numbers. */
static int
sect_slot(uint32_t id)
{
	switch (id) {
	case 1: return S_INFO;
	case 3: return S_ABBREV;
	case 4: return S_LINE;
	case 5: return S_LOCLISTS;
	case 6: return S_STR_OFFSETS;
	case 8: return S_RNGLISTS;
	default: return -1;	/* macros: not needed */
	}
}

/* The row of DWO_ID in the index, or -1. */
static long
find_row(const struct pc_dwp *p, uint64_t dwo_id)
{
	uint32_t i, row;

	for (i = 0; i < p->nslots; i++) {
		if (rd64(p->sigs + (size_t)i * 8) != dwo_id)
			continue;
		row = rd32(p->rows + (size_t)i * 4);
		if (row == 0 || row > p->nunits)
			return -1;
		return (long)row - 1;
	}
	return -1;
}

int
profconv__dwp_unit(struct pc_dwp *p, uint64_t dwo_id, const void *addr,
    size_t addr_len, void *die_out)
{
	struct pc_elf_section secs[S_COUNT + 1];
	const unsigned char *base;
	struct dwp_unit u = { NULL, NULL, NULL };
	Dwarf_Die cudie, subdie;
	Dwarf_CU *cu = NULL;
	Dwarf_Half version;
	uint8_t unit_type;
	uint64_t unit_id = 0;
	uint32_t c, off, len;
	size_t n = 0, image_size;
	long row = find_row(p, dwo_id);
	int slot;

	if (row < 0)
		return PROFCONV_ENOTFOUND;
	for (c = 0; c < p->ncols; c++) {
		slot = sect_slot(rd32(p->cols + (size_t)c * 4));
		off = rd32(p->offs + ((size_t)row * p->ncols + c) * 4);
		len = rd32(p->sizes + ((size_t)row * p->ncols + c) * 4);
		if (slot < 0 || p->sec[slot] == NULL)
			continue;
		if (off > p->size[slot] || len > p->size[slot] - off)
			return PROFCONV_EFORMAT;
		secs[n].name = plain_names[slot];
		secs[n].data = p->sec[slot] + off;
		secs[n++].size = len;
	}
	if (p->sec[S_STR] != NULL) {
		secs[n].name = plain_names[S_STR];
		secs[n].data = p->sec[S_STR];
		secs[n++].size = p->size[S_STR];
	}
	if (addr != NULL) {
		secs[n].name = ".debug_addr";
		secs[n].data = addr;
		secs[n++].size = addr_len;
	}
	if (PC_GROW(p->units, p->units_cap, p->nunits_open, 1) < 0 ||
	    profconv__elf_image(secs, n, p->ident, p->machine, &u.image,
	    &image_size) < 0)
		return profconv__nomem();
	base = u.image;
	u.elf = elf_memory((char *)base, image_size);
	u.dw = u.elf != NULL ? dwarf_begin_elf(u.elf, DWARF_C_READ, NULL) :
	    NULL;
	if (u.dw == NULL || dwarf_get_units(u.dw, NULL, &cu, &version,
	    &unit_type, &cudie, &subdie) != 0 ||
	    dwarf_cu_info(cu, NULL, NULL, NULL, NULL, &unit_id, NULL,
	    NULL) != 0 || unit_id != dwo_id) {
		dwarf_end(u.dw);
		if (u.elf != NULL)
			elf_end(u.elf);
		free(u.image);
		return PROFCONV_EFORMAT;
	}
	p->units[p->nunits_open++] = u;
	memcpy(die_out, &cudie, sizeof(cudie));
	return 0;
}

/* --- ELF images in memory ------------------------------------------------- */

int
profconv__elf_image(const struct pc_elf_section *secs, size_t n,
    const unsigned char *ident, uint16_t machine, void **image_out,
    size_t *size_out)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	size_t i, off, names = 1, size, shoff;
	unsigned char *img;

	*image_out = NULL;
	/* Section names: "\0" then each name, then ".shstrtab". */
	for (i = 0; i < n; i++)
		names += strlen(secs[i].name) + 1;
	names += sizeof(".shstrtab");
	size = sizeof(eh);
	for (i = 0; i < n; i++) {
		if (secs[i].size > SIZE_MAX / 2 - size)
			return PROFCONV_ENOMEM;
		size += secs[i].size;
	}
	size += names;
	shoff = (size + 7) & ~(size_t)7;
	size = shoff + (n + 2) * sizeof(sh);
	img = calloc(1, size);
	if (img == NULL)
		return profconv__nomem();
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ident, EI_NIDENT);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_type = ET_REL;
	eh.e_machine = machine;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(sh);
	eh.e_shnum = (Elf64_Half)(n + 2);
	eh.e_shstrndx = (Elf64_Half)(n + 1);
	eh.e_shoff = shoff;
	memcpy(img, &eh, sizeof(eh));
	off = sizeof(eh);
	for (i = 0; i < n; i++) {
		memcpy(img + off, secs[i].data, secs[i].size);
		off += secs[i].size;
	}
	/* The names, then the headers: null, each section, .shstrtab. */
	{
		size_t stroff = off, at = 1, dataoff = sizeof(eh);

		for (i = 0; i < n; i++) {
			memset(&sh, 0, sizeof(sh));
			sh.sh_name = (Elf64_Word)at;
			sh.sh_type = SHT_PROGBITS;
			sh.sh_offset = dataoff;
			sh.sh_size = secs[i].size;
			sh.sh_addralign = 1;
			memcpy(img + shoff + (i + 1) * sizeof(sh), &sh,
			    sizeof(sh));
			memcpy(img + stroff + at, secs[i].name,
			    strlen(secs[i].name) + 1);
			at += strlen(secs[i].name) + 1;
			dataoff += secs[i].size;
		}
		memset(&sh, 0, sizeof(sh));
		sh.sh_name = (Elf64_Word)at;
		sh.sh_type = SHT_STRTAB;
		sh.sh_offset = stroff;
		sh.sh_size = names;
		sh.sh_addralign = 1;
		memcpy(img + stroff + at, ".shstrtab", sizeof(".shstrtab"));
		memcpy(img + shoff + (n + 1) * sizeof(sh), &sh, sizeof(sh));
	}
	*image_out = img;
	*size_out = size;
	return 0;
}
