/* SPDX-License-Identifier: MIT */
/*
 * debug_inflate.c - a debug file (or a binary built with -gz) as libdw
 * should read it: with its compressed DWARF sections inflated ahead of
 * time, on threads and with libdeflate where configure found it, in an
 * anonymous in-memory file.
 *
 * libdw (0.188) inflates every compressed debug section it knows when it
 * opens a file, one after the other with zlib, whatever the caller reads
 * afterwards.  For Debian's libc6-dbg that is 10 MB and about 43 ms, paid
 * for an address or five.  The image is the same file with those
 * sections stored plain, so libdw inflates nothing; the sections the
 * symbolizer never reads (location lists, macros, call frames, name
 * indexes) become SHT_NOBITS and are not inflated at all.
 *
 * The image keeps every byte of the file at its own offset, except the
 * compressed sections; the inflated sections and a new section header
 * table follow it.  Program headers, notes and everything else found
 * through an offset stay valid.  Anything unexpected (a byte order or
 * numbering this does not rewrite, a section outside the file, a stream
 * that does not inflate to its stated size, no memfd) keeps the file as
 * it is, and libdw reads or refuses it as before.
 */

#include "config.h"

#include <elf.h>
#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "symbolize/symbolize.h"

#ifndef ELFCOMPRESS_ZLIB
#define ELFCOMPRESS_ZLIB 1
#endif

/* Deflate never expands more than 1032 to 1: a larger stated size lies. */
#define MAX_RATIO 1032

enum sec_fate { KEEP, INFLATE, DROP };

struct range {
	uint64_t start, end, maxend;
};

struct img_sec {
	Elf64_Shdr sh;			/* the header as the image has it */
	enum sec_fate fate;
	uint64_t src, srclen;		/* the deflate stream in the file */
};

struct image {
	const unsigned char *file;	/* mapped, read only */
	uint64_t filesize;
	bool is64;
	struct img_sec *secs;
	size_t nsecs;
	size_t *work;			/* sections to inflate, largest first */
	size_t nwork;
	struct range *skip;		/* compressed bytes not copied, by
					 * start; END is the largest so far */
	size_t nskip;
	uint64_t phoff, phlen;		/* the program header table */
	uint64_t ehlen;
	unsigned char *out;		/* the image, mapped shared */
	uint64_t outsize;
	uint64_t shoff;			/* its section header table */
};

/* Sections no lookup of functions, files and lines reads. */
static bool
never_read(const char *name)
{
	static const char *const names[] = {
		".debug_loc", ".debug_loclists", ".debug_macro",
		".debug_macinfo", ".debug_frame", ".debug_pubnames",
		".debug_pubtypes", ".debug_gnu_pubnames",
		".debug_gnu_pubtypes",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

static bool
in_file(const struct image *im, uint64_t off, uint64_t len)
{
	return off <= im->filesize && len <= im->filesize - off;
}

static uint64_t
align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* A usable alignment from a header's: a power of two, at most a page. */
static uint64_t
alignment(uint64_t a)
{
	if (a <= 1)
		return 1;
	if ((a & (a - 1)) != 0 || a > 4096)
		return 8;
	return a;
}

/* The ELF header's fields the image needs, whatever the class. */
static void
get_ehdr(const struct image *im, Elf64_Ehdr *eh)
{
	Elf32_Ehdr e32;

	if (im->is64) {
		memcpy(eh, im->file, sizeof(*eh));
		return;
	}
	memcpy(&e32, im->file, sizeof(e32));
	eh->e_phoff = e32.e_phoff;
	eh->e_shoff = e32.e_shoff;
	eh->e_phentsize = e32.e_phentsize;
	eh->e_phnum = e32.e_phnum;
	eh->e_shentsize = e32.e_shentsize;
	eh->e_shnum = e32.e_shnum;
	eh->e_shstrndx = e32.e_shstrndx;
}

static void
get_shdr(const struct image *im, uint64_t at, Elf64_Shdr *sh)
{
	Elf32_Shdr s32;

	if (im->is64) {
		memcpy(sh, im->file + at, sizeof(*sh));
		return;
	}
	memcpy(&s32, im->file + at, sizeof(s32));
	sh->sh_name = s32.sh_name;
	sh->sh_type = s32.sh_type;
	sh->sh_flags = s32.sh_flags;
	sh->sh_addr = s32.sh_addr;
	sh->sh_offset = s32.sh_offset;
	sh->sh_size = s32.sh_size;
	sh->sh_link = s32.sh_link;
	sh->sh_info = s32.sh_info;
	sh->sh_addralign = s32.sh_addralign;
	sh->sh_entsize = s32.sh_entsize;
}

static void
put_shdr(const struct image *im, unsigned char *to, const Elf64_Shdr *sh)
{
	Elf32_Shdr s32;

	if (im->is64) {
		memcpy(to, sh, sizeof(*sh));
		return;
	}
	s32.sh_name = sh->sh_name;
	s32.sh_type = sh->sh_type;
	s32.sh_flags = (Elf32_Word)sh->sh_flags;
	s32.sh_addr = (Elf32_Addr)sh->sh_addr;
	s32.sh_offset = (Elf32_Off)sh->sh_offset;
	s32.sh_size = (Elf32_Word)sh->sh_size;
	s32.sh_link = sh->sh_link;
	s32.sh_info = sh->sh_info;
	s32.sh_addralign = (Elf32_Word)sh->sh_addralign;
	s32.sh_entsize = (Elf32_Word)sh->sh_entsize;
	memcpy(to, &s32, sizeof(s32));
}

/*
 * What becomes of section SEC, named NAME: a zlib-compressed debug
 * section is inflated or dropped, anything else is kept as it is.
 * False when the file does not hold what the header says.
 */
static bool
plan_section(struct image *im, struct img_sec *sec, const char *name)
{
	Elf64_Shdr *sh = &sec->sh;
	Elf64_Chdr ch;
	Elf32_Chdr c32;
	size_t chlen = im->is64 ? sizeof(ch) : sizeof(c32);

	sec->fate = KEEP;
	if (sh->sh_type == SHT_NOBITS || sh->sh_type == SHT_NULL ||
	    (sh->sh_flags & SHF_COMPRESSED) == 0)
		return true;
	if (!in_file(im, sh->sh_offset, sh->sh_size) || sh->sh_size < chlen)
		return false;
	if (im->is64) {
		memcpy(&ch, im->file + sh->sh_offset, sizeof(ch));
	} else {
		memcpy(&c32, im->file + sh->sh_offset, sizeof(c32));
		ch.ch_type = c32.ch_type;
		ch.ch_size = c32.ch_size;
		ch.ch_addralign = c32.ch_addralign;
	}
	/*
	 * What libelf would not inflate either is left to it as it is, and
	 * so are debug sections of another type than DWARF's: libelf reads
	 * typed data (relocations, symbols) differently when it is stored
	 * plain.
	 */
	if (ch.ch_type != ELFCOMPRESS_ZLIB || strncmp(name, ".debug_", 7) != 0 ||
	    (sh->sh_type != SHT_PROGBITS && sh->sh_type != SHT_MIPS_DWARF) ||
	    (sh->sh_flags & SHF_ALLOC) != 0 ||
	    (ch.ch_addralign & (ch.ch_addralign - 1)) != 0)
		return true;
	sec->src = sh->sh_offset + chlen;
	sec->srclen = sh->sh_size - chlen;
	if (ch.ch_size / MAX_RATIO > sec->srclen)
		return false;
	sec->fate = never_read(name) ? DROP : INFLATE;
	sh->sh_flags &= ~(uint64_t)SHF_COMPRESSED;
	sh->sh_size = ch.ch_size;
	sh->sh_addralign = ch.ch_addralign;
	if (sec->fate == DROP)
		sh->sh_type = SHT_NOBITS;
	return true;
}

/*
 * The bytes the program headers may take: libelf reads them at its own
 * entry size whatever e_phentsize says.
 */
static uint64_t
phdrs_len(uint64_t phnum, uint64_t entsize, uint64_t native)
{
	return phnum * (entsize > native ? entsize : native);
}

/* The section headers and what becomes of each; false: keep the file. */
static bool
plan(struct image *im)
{
	const unsigned char *f = im->file;
	uint64_t shoff, nsh, shentsize, strndx, i;
	Elf64_Ehdr eh;
	Elf64_Shdr strsh;
	const char *name;

	if (im->filesize < EI_NIDENT || memcmp(f, ELFMAG, SELFMAG) != 0)
		return false;
	if (f[EI_DATA] != (BYTE_ORDER == LITTLE_ENDIAN ? ELFDATA2LSB :
	    ELFDATA2MSB) || (f[EI_CLASS] != ELFCLASS64 &&
	    f[EI_CLASS] != ELFCLASS32))
		return false;
	im->is64 = f[EI_CLASS] == ELFCLASS64;
	im->ehlen = im->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if (im->filesize < im->ehlen)
		return false;
	get_ehdr(im, &eh);
	im->phoff = eh.e_phoff;
	im->phlen = phdrs_len(eh.e_phnum, eh.e_phentsize, im->is64 ?
	    sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr));
	shoff = eh.e_shoff;
	nsh = eh.e_shnum;
	shentsize = eh.e_shentsize;
	strndx = eh.e_shstrndx;
	/* Extended numbering (more than 65279 sections, or PN_XNUM
	 * program headers) is left to libelf. */
	if (nsh == 0 || eh.e_phnum == PN_XNUM || strndx == SHN_UNDEF ||
	    strndx >= nsh ||
	    shentsize != (im->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)) ||
	    !in_file(im, shoff, nsh * shentsize))
		return false;
	get_shdr(im, shoff + strndx * shentsize, &strsh);
	/* libelf reads names only from a string table. */
	if (strsh.sh_type != SHT_STRTAB ||
	    (strsh.sh_flags & SHF_COMPRESSED) != 0 ||
	    !in_file(im, strsh.sh_offset, strsh.sh_size) ||
	    strsh.sh_size == 0 || f[strsh.sh_offset + strsh.sh_size - 1] != '\0')
		return false;
	im->secs = calloc(nsh, sizeof(*im->secs));
	im->work = calloc(nsh, sizeof(*im->work));
	if (im->secs == NULL || im->work == NULL)
		return false;
	im->nsecs = nsh;
	for (i = 0; i < nsh; i++) {
		get_shdr(im, shoff + i * shentsize, &im->secs[i].sh);
		if (i == 0)
			continue;
		if (im->secs[i].sh.sh_name >= strsh.sh_size)
			return false;
		name = (const char *)f + strsh.sh_offset +
		    im->secs[i].sh.sh_name;
		if (!plan_section(im, &im->secs[i], name))
			return false;
		if (im->secs[i].fate == INFLATE)
			im->work[im->nwork++] = i;
	}
	return im->nwork > 0;
}

/*
 * Larger sections first, so that the longest inflation starts first; a
 * file has a dozen debug sections at most, and qsort has no argument to
 * pass the image through.
 */
static void
sort_work(struct image *im)
{
	size_t i, j, v;

	for (i = 1; i < im->nwork; i++) {
		v = im->work[i];
		for (j = i; j > 0 && im->secs[im->work[j - 1]].sh.sh_size <
		    im->secs[v].sh.sh_size; j--)
			im->work[j] = im->work[j - 1];
		im->work[j] = v;
	}
}

/*
 * Where the inflated sections and the new header table go: after the
 * file's own bytes.  False when the image would not fit in memory.
 */
static bool
lay_out(struct image *im)
{
	uint64_t pos = align_up(im->filesize, 8), a;
	size_t k;
	struct img_sec *sec;

	for (k = 0; k < im->nwork; k++) {
		sec = &im->secs[im->work[k]];
		a = alignment(sec->sh.sh_addralign);
		if (sec->sh.sh_size > UINT64_MAX / 2 - pos - a)
			return false;
		sec->sh.sh_offset = align_up(pos, a);
		pos = sec->sh.sh_offset + sec->sh.sh_size;
	}
	im->shoff = align_up(pos, 8);
	im->outsize = im->shoff + im->nsecs *
	    (im->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr));
	if (im->outsize > SIZE_MAX / 2)
		return false;
	return true;
}

static int
cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return PC_CMP(x->start, y->start);
}

/* The compressed bytes the image leaves out, sorted; false: no memory. */
static bool
find_skips(struct image *im)
{
	struct img_sec *sec;
	uint64_t max = 0;
	size_t i;

	im->skip = calloc(im->nsecs, sizeof(*im->skip));
	if (im->skip == NULL)
		return false;
	for (i = 1; i < im->nsecs; i++) {
		sec = &im->secs[i];
		if (sec->fate == KEEP)
			continue;
		im->skip[im->nskip].start = sec->src;
		im->skip[im->nskip++].end = sec->src + sec->srclen;
	}
	qsort(im->skip, im->nskip, sizeof(*im->skip), cmp_range);
	for (i = 0; i < im->nskip; i++) {
		if (im->skip[i].end > max)
			max = im->skip[i].end;
		im->skip[i].maxend = max;
	}
	return true;
}

/* Do the bytes [OFF, OFF+LEN) of the file share any with a skip? */
static bool
overlaps_skip(const struct image *im, uint64_t off, uint64_t len)
{
	size_t lo = 0, hi = im->nskip, mid;
	uint64_t end;

	if (len == 0 || off >= im->filesize)
		return false;
	end = len > im->filesize - off ? im->filesize : off + len;
	/* The skips that start before END: the first LO of them. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (im->skip[mid].start < end)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && im->skip[lo - 1].maxend > off;
}

/*
 * Whether everything the image keeps is inside the file and clear of
 * the compressed bytes it leaves out (the ELF header, the program
 * headers and every kept section), and neither the program headers nor
 * a kept section hold the ELF header, whose e_shoff the image changes.
 * Only a crafted file fails this; it is read as it is.
 */
static bool
skips_clear(const struct image *im)
{
	const Elf64_Shdr *sh;
	size_t i;

	/* The image is longer: what lies past the file's end must not be
	 * found in the bytes appended to it. */
	if (overlaps_skip(im, 0, im->ehlen) || (im->phlen > 0 &&
	    (!in_file(im, im->phoff, im->phlen) || im->phoff < im->ehlen ||
	    overlaps_skip(im, im->phoff, im->phlen))))
		return false;
	for (i = 1; i < im->nsecs; i++) {
		sh = &im->secs[i].sh;
		if (im->secs[i].fate != KEEP || sh->sh_type == SHT_NOBITS ||
		    sh->sh_size == 0)
			continue;
		/* The image's ELF header differs (e_shoff): no section's. */
		if (!in_file(im, sh->sh_offset, sh->sh_size) ||
		    overlaps_skip(im, sh->sh_offset, sh->sh_size) ||
		    sh->sh_offset < im->ehlen)
			return false;
	}
	return true;
}

/* The file's bytes into the image, but for the skips: holes there. */
static void
copy_file(struct image *im)
{
	uint64_t at = 0;
	size_t i;

	for (i = 0; i < im->nskip; i++) {
		if (im->skip[i].start > at)
			memcpy(im->out + at, im->file + at,
			    im->skip[i].start - at);
		if (im->skip[i].end > at)
			at = im->skip[i].end;
	}
	if (im->filesize > at)
		memcpy(im->out + at, im->file + at, im->filesize - at);
}

/* Task K: inflate the K-th largest section into its place. */
static int
inflate_task(void *arg, size_t k)
{
	struct image *im = arg;
	const struct img_sec *sec = &im->secs[im->work[k]];
	const unsigned char *in = im->file + sec->src;
	unsigned char *to = im->out + sec->sh.sh_offset;
#ifdef HAVE_LIBDEFLATE
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	enum libdeflate_result r;
	size_t used;

	if (d == NULL)
		return profconv__nomem();
	r = libdeflate_zlib_decompress_ex(d, in, sec->srclen, to,
	    sec->sh.sh_size, &used, NULL);
	libdeflate_free_decompressor(d);
	/*
	 * NULL for the size made: anything short of the stated size is an
	 * error.  A stream followed by more bytes is left to libelf, which
	 * reads them as another stream.
	 */
	if (r != LIBDEFLATE_SUCCESS || used != sec->srclen)
		return profconv__fail(PROFCONV_EFORMAT,
		    "a debug section does not inflate");
	return 0;
#else
	z_stream z;
	int zr;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return profconv__nomem();
	z.next_in = (unsigned char *)in;
	z.next_out = to;
	/* zlib counts in uInt: sections over 4 GiB go in steps. */
	do {
		z.avail_in = (uInt)(sec->srclen - z.total_in > UINT32_MAX ?
		    UINT32_MAX : sec->srclen - z.total_in);
		z.avail_out = (uInt)(sec->sh.sh_size - z.total_out >
		    UINT32_MAX ? UINT32_MAX : sec->sh.sh_size - z.total_out);
		zr = inflate(&z, Z_NO_FLUSH);
	} while (zr == Z_OK);
	inflateEnd(&z);
	if (zr != Z_STREAM_END || z.total_out != sec->sh.sh_size ||
	    z.total_in != sec->srclen)
		return profconv__fail(PROFCONV_EFORMAT,
		    "a debug section does not inflate");
	return 0;
#endif
}

/* The new section headers, and the ELF header pointing at them. */
static void
finish(struct image *im)
{
	size_t i, entsize = im->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	Elf64_Off off64 = im->shoff;
	Elf32_Off off32 = (Elf32_Off)im->shoff;

	for (i = 0; i < im->nsecs; i++)
		put_shdr(im, im->out + im->shoff + i * entsize,
		    &im->secs[i].sh);
	if (im->is64)
		memcpy(im->out + offsetof(Elf64_Ehdr, e_shoff), &off64,
		    sizeof(off64));
	else
		memcpy(im->out + offsetof(Elf32_Ehdr, e_shoff), &off32,
		    sizeof(off32));
}

/* The image of IM's file into a new memfd, or -1. */
static int
build(struct image *im, unsigned int jobs)
{
	struct rlimit rl;
	int mfd;
	bool ok;

	if (!plan(im) || !find_skips(im) || !skips_clear(im))
		return -1;
	/* 32-bit headers cannot point past 4 GiB. */
	if (!lay_out(im) || (!im->is64 && im->outsize > UINT32_MAX))
		return -1;
	/* Growing a memfd past RLIMIT_FSIZE raises SIGXFSZ, as for a file:
	 * under such a limit the file is read as it is. */
	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    im->outsize > rl.rlim_cur)
		return -1;
	mfd = memfd_create("profconv-debuginfo", MFD_CLOEXEC);
	if (mfd < 0)
		return -1;
	if (ftruncate(mfd, (off_t)im->outsize) != 0) {
		close(mfd);
		return -1;
	}
	im->out = mmap(NULL, im->outsize, PROT_READ | PROT_WRITE, MAP_SHARED,
	    mfd, 0);
	if (im->out == MAP_FAILED) {
		im->out = NULL;
		close(mfd);
		return -1;
	}
	sort_work(im);
	copy_file(im);
	ok = profconv__jobs_run(jobs, im->nwork, inflate_task, im) == 0;
	if (ok)
		finish(im);
	munmap(im->out, im->outsize);
	im->out = NULL;
	if (!ok) {
		close(mfd);
		return -1;
	}
	return mfd;
}

int
profconv__debug_image(int fd, unsigned int jobs)
{
	struct image im;
	struct stat st;
	void *map;
	int mfd;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > SIZE_MAX / 2)
		return fd;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return fd;
	memset(&im, 0, sizeof(im));
	im.file = map;
	im.filesize = (uint64_t)st.st_size;
	mfd = build(&im, jobs);
	munmap(map, (size_t)st.st_size);
	free(im.secs);
	free(im.work);
	free(im.skip);
	if (mfd < 0)
		return fd;
	close(fd);
	return mfd;
}
