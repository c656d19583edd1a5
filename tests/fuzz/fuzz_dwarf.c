/* SPDX-License-Identifier: MIT */
/*
 * fuzz_dwarf.c - fuzz the symbolizer's DWARF walk (symbolize/dwarf_index.c, dwarf_frames.c) on crafted
 * DWARF: the input is a little-endian 32-bit length N, N bytes of
 * .debug_abbrev, then .debug_info (the rest, or up to a second length
 * word ".str" marker: see below).  The sections become an ELF file in
 * memory, libdwfl reports it, and every CU is indexed and looked up the
 * way symbolize does.  Anything but a clean result or ENOMEM is a bug;
 * crashes, hangs and sanitizer reports are what this looks for.
 *
 * An optional tail after the info section, introduced by the 4 bytes
 * "STR\0" and a 32-bit length, is .debug_str.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <elf.h>
#include <elfutils/libdwfl.h>

#include "symbolize/symbolize.h"
#include "symbolize/symbolizer.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

/* Split DATA into sections; false when it is too short to mean one. */
static size_t
split(const unsigned char *data, size_t size, struct pc_elf_section *secs)
{
	size_t alen, ilen, n = 0, k;
	const unsigned char *info;

	if (size < 4)
		return 0;
	alen = le32(data);
	if (alen > size - 4)
		alen = size - 4;
	secs[n].name = ".debug_abbrev";
	secs[n].data = data + 4;
	secs[n++].size = alen;
	info = data + 4 + alen;
	ilen = size - 4 - alen;
	for (k = 0; k + 8 <= ilen; k++)
		if (memcmp(info + k, "STR", 4) == 0) {
			size_t slen = le32(info + k + 4);

			if (slen > ilen - k - 8)
				slen = ilen - k - 8;
			secs[n].name = ".debug_str";
			secs[n].data = info + k + 8;
			secs[n++].size = slen;
			ilen = k;
			break;
		}
	secs[n].name = ".debug_info";
	secs[n].data = info;
	secs[n++].size = ilen;
	return n;
}

/* The image is all there is: no other file is looked for. */
static int
no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
    Dwarf_Addr base, const char *file_name, const char *debuglink_file,
    GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod;
	(void)userdata;
	(void)modname;
	(void)base;
	(void)file_name;
	(void)debuglink_file;
	(void)debuglink_crc;
	(void)debuginfo_file_name;
	return -1;
}

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const unsigned char ident[EI_NIDENT] = {
		ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB,
		EV_CURRENT,
	};
	static char *debuginfo_path;
	static const Dwfl_Callbacks callbacks = {
		.find_elf = profconv__sym_no_find_elf,
		.find_debuginfo = no_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &debuginfo_path,
	};
	struct pc_elf_section secs[3];
	struct pc_symmod *m = NULL;
	Dwfl_Module *mod;
	size_t n, image_size, frames;
	void *image = NULL;
	Dwfl *dwfl;
	int fd, rc;

	n = split(data, size, secs);
	if (n == 0)
		return 0;
	if (profconv__elf_image(secs, n, ident, EM_X86_64, &image,
	    &image_size) < 0)
		abort();
	fd = memfd_create("fuzz_dwarf", MFD_CLOEXEC);
	if (fd < 0 || write(fd, image, image_size) != (ssize_t)image_size)
		abort();
	free(image);
	dwfl = dwfl_begin(&callbacks);
	if (dwfl == NULL)
		abort();
	dwfl_report_begin(dwfl);
	mod = dwfl_report_elf(dwfl, "fuzz", "fuzz", fd, 0, false);
	dwfl_report_end(dwfl, NULL, NULL);
	if (mod == NULL) {
		/* libdwfl refused the file: nothing of ours to test. */
		close(fd);
		dwfl_end(dwfl);
		return 0;
	}
	if (profconv__symmod_new(&m, mod) < 0)
		abort();
	rc = profconv__symmod_check(m, &frames);
	if (rc < 0 && rc != PROFCONV_ENOMEM)
		abort();
	profconv__symmod_free(m);
	dwfl_end(dwfl);
	return 0;
}
