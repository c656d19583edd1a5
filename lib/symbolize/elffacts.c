/* SPDX-License-Identifier: MIT */
/*
 * elffacts.c - what the kernel and the dynamic loader will make of a
 * program before it runs (profconv_elf_facts_read()): the ELF file
 * loaded, after a script's "#!" line; its program interpreter, its
 * DT_NEEDED libraries, whether it is position independent, its set-ID
 * bits.  The file is read as elfinfo.c reads the binaries a profile
 * names, through libelf, and every length it gives is bounded
 * (base/bounds.h).
 */

#include "config.h"

#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/bounds.h"
#include "symbolize/symbolize.h"

/* The facts and the storage of their strings. */
struct facts {
	struct profconv_elf_facts pub;
	char *path, *script, *interp, *build_id;
	char **needed;
	size_t cap;
};

void
profconv_elf_facts_free(struct profconv_elf_facts *facts)
{
	struct facts *f = (struct facts *)facts;
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->pub.nneeded; i++)
		free(f->needed[i]);
	free(f->needed);
	free(f->path);
	free(f->script);
	free(f->interp);
	free(f->build_id);
	free(f);
}

/* --- "#!" ----------------------------------------------------------------- */

/*
 * The interpreter the "#!" line in HEAD (N bytes, read from PATH) names,
 * as the kernel reads it: after "#!" and blanks, up to a blank or the
 * end of the line, which must come within the bytes the kernel reads.
 */
static int
shebang(const char *head, size_t n, const char *path, char **out)
{
	const char *p = head + 2, *end = head + n, *q;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (q = p; q < end && *q != ' ' && *q != '\t' && *q != '\n' &&
	    *q != '\0'; q++)
		;
	if (q == end)
		return profconv__fail(PROFCONV_EFORMAT, "'%s': the '#!' line "
		    "has no end within its first %d bytes", path,
		    PC_ELF_SHEBANG_MAX);
	if (q == p)
		return profconv__fail(PROFCONV_EFORMAT,
		    "'%s': the '#!' line names no interpreter", path);
	*out = strndup(p, (size_t)(q - p));
	return *out != NULL ? 0 : profconv__nomem();
}

/* --- the ELF file ---------------------------------------------------------- */

/* A NUL-terminated name of at most PC_ELF_MAX_NAME bytes at file offset
 * OFF of FD, within LIMIT; WHAT names it in messages. */
static int
read_name(int fd, uint64_t off, uint64_t limit, const char *path,
    const char *what, char **out)
{
	char buf[PC_ELF_MAX_NAME + 1];
	size_t want = sizeof(buf);
	ssize_t n;
	char *nul;

	if (off >= limit)
		return profconv__fail(PROFCONV_EFORMAT, "'%s': %s at offset "
		    "0x%llx lies outside its table", path, what,
		    (unsigned long long)off);
	if (limit - off < want)
		want = (size_t)(limit - off);
	n = pread(fd, buf, want, (off_t)off);
	if (n < 0)
		return profconv__fail(PROFCONV_EIO, "cannot read '%s': %s",
		    path, strerror(errno));
	nul = memchr(buf, '\0', (size_t)n);
	if (nul == NULL)
		return profconv__fail(PROFCONV_EFORMAT, "'%s': %s at offset "
		    "0x%llx is not a string of at most %d bytes", path, what,
		    (unsigned long long)off, PC_ELF_MAX_NAME);
	*out = strdup(buf);
	return *out != NULL ? 0 : profconv__nomem();
}

/* The file offset of address ADDR, from the PT_LOAD holding it. */
static bool
offset_of(const struct pc_elfinfo *info, uint64_t addr, uint64_t *off,
    uint64_t *room)
{
	const struct pc_phdr *ph;
	size_t i;

	for (i = 0; i < info->nloads; i++) {
		ph = &info->loads[i];
		if (addr >= ph->vaddr && addr - ph->vaddr < ph->filesz) {
			*off = addr - ph->vaddr + ph->offset;
			*room = ph->filesz - (addr - ph->vaddr);
			return true;
		}
	}
	return false;
}

/* What the dynamic section says: the DT_NEEDED names, DF_1_PIE. */
static int
read_dynamic(struct facts *f, Elf *elf, int fd, const struct pc_elfinfo *info,
    uint64_t off, uint64_t size, const char *path)
{
	uint64_t names[PC_ELF_MAX_NEEDED], strtab = 0, strsz = 0, stroff,
	    room;
	size_t entsz = gelf_fsize(elf, ELF_T_DYN, 1, EV_CURRENT), n, i, k = 0;
	bool ended = false;
	Elf_Data *data;
	GElf_Dyn dyn;
	int rc;

	if (entsz == 0)
		return profconv__fail(PROFCONV_EFORMAT, "'%s': %s", path,
		    elf_errmsg(-1));
	n = size / entsz;
	if (n > PC_ELF_MAX_DYNAMIC)
		n = PC_ELF_MAX_DYNAMIC;
	if (n == 0)
		return 0;
	data = elf_getdata_rawchunk(elf, (int64_t)off, n * entsz, ELF_T_DYN);
	if (data == NULL)
		return profconv__fail(PROFCONV_EFORMAT, "'%s': the dynamic "
		    "section at offset 0x%llx: %s", path,
		    (unsigned long long)off, elf_errmsg(-1));
	for (i = 0; i < n && !ended; i++) {
		if (gelf_getdyn(data, (int)i, &dyn) == NULL)
			return profconv__fail(PROFCONV_EFORMAT, "'%s': %s",
			    path, elf_errmsg(-1));
		switch (dyn.d_tag) {
		case DT_NULL:
			ended = true;
			break;
		case DT_STRTAB:
			strtab = dyn.d_un.d_ptr;
			break;
		case DT_STRSZ:
			strsz = dyn.d_un.d_val;
			break;
		case DT_FLAGS_1:
			if ((dyn.d_un.d_val & DF_1_PIE) != 0)
				f->pub.pie = 1;
			break;
		case DT_NEEDED:
			if (k == PC_ELF_MAX_NEEDED)
				return profconv__fail(PROFCONV_EFORMAT, "'%s': "
				    "more than %d DT_NEEDED entries", path,
				    PC_ELF_MAX_NEEDED);
			names[k++] = dyn.d_un.d_val;
			break;
		}
	}
	if (!ended && n * entsz < size)
		return profconv__fail(PROFCONV_EFORMAT, "'%s': no DT_NULL in "
		    "the first %d entries of the dynamic section at offset "
		    "0x%llx", path, PC_ELF_MAX_DYNAMIC, (unsigned long long)off);
	if (k == 0)
		return 0;
	/* DT_STRTAB is an address: the PT_LOAD holding it gives its offset. */
	if (!offset_of(info, strtab, &stroff, &room))
		return profconv__fail(PROFCONV_EFORMAT, "'%s': DT_STRTAB 0x%llx "
		    "is in no PT_LOAD segment", path,
		    (unsigned long long)strtab);
	if (strsz == 0 || strsz > room)
		strsz = room;
	f->needed = calloc(k, sizeof(*f->needed));
	if (f->needed == NULL)
		return profconv__nomem();
	for (i = 0; i < k; i++) {
		if (names[i] >= strsz)
			return profconv__fail(PROFCONV_EFORMAT, "'%s': DT_NEEDED "
			    "%llu lies outside DT_STRTAB's %llu bytes", path,
			    (unsigned long long)names[i],
			    (unsigned long long)strsz);
		rc = read_name(fd, stroff + names[i], stroff + strsz, path,
		    "DT_NEEDED", &f->needed[i]);
		if (rc < 0)
			return rc;
		f->pub.nneeded++;
	}
	return 0;
}

/* The facts of the ELF file open on FD (PATH). */
static int
read_elf_facts(struct facts *f, int fd, const char *path)
{
	struct pc_elfinfo info;
	uint64_t dynoff = 0, dynsz = 0;
	bool dynamic = false;
	struct stat st;
	size_t phnum, i;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	Elf *elf;
	int rc;

	memset(&info, 0, sizeof(info));
	memset(&eh, 0, sizeof(eh));
	if (fstat(fd, &st) != 0)
		return profconv__fail(PROFCONV_EIO, "cannot read '%s': %s",
		    path, strerror(errno));
	f->pub.set_id = (st.st_mode & (S_ISUID | S_ISGID)) != 0;
	profconv__libelf_init();
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf == NULL)
		return profconv__fail(PROFCONV_EFORMAT, "'%s': %s", path,
		    elf_errmsg(-1));
	if (elf_kind(elf) != ELF_K_ELF) {
		rc = profconv__fail(PROFCONV_EFORMAT, "'%s' is neither an ELF "
		    "file nor a script ('#!')", path);
		goto out;
	}
	rc = profconv__elfinfo_from_elf(&info, elf, path);
	if (rc < 0)
		goto out;
	f->pub.elf_class = gelf_getclass(elf) == ELFCLASS64 ? 64 : 32;
	f->pub.elf_type = info.e_type;
	f->build_id = strdup(info.build_id);
	if (f->build_id == NULL) {
		rc = profconv__nomem();
		goto out;
	}
	/* libelf counts only the program headers the file holds: fewer
	 * than the header says is a file cut short. */
	if (elf_getphdrnum(elf, &phnum) != 0 || gelf_getehdr(elf, &eh) == NULL ||
	    (eh.e_phnum != PN_XNUM && phnum < eh.e_phnum)) {
		rc = profconv__fail(PROFCONV_EFORMAT, "'%s': the program "
		    "headers at offset 0x%llx are cut short", path,
		    (unsigned long long)eh.e_phoff);
		goto out;
	}
	for (i = 0; i < phnum && rc == 0; i++) {
		if (gelf_getphdr(elf, (int)i, &ph) == NULL) {
			rc = profconv__fail(PROFCONV_EFORMAT, "'%s': program "
			    "header %zu: %s", path, i, elf_errmsg(-1));
			break;
		}
		if (ph.p_type == PT_INTERP && f->interp == NULL)
			rc = read_name(fd, ph.p_offset, ph.p_offset +
			    ph.p_filesz, path, "PT_INTERP", &f->interp);
		else if (ph.p_type == PT_DYNAMIC && !dynamic) {
			dynamic = true;
			dynoff = ph.p_offset;
			dynsz = ph.p_filesz;
		}
	}
	if (rc == 0 && dynamic)
		rc = read_dynamic(f, elf, fd, &info, dynoff, dynsz, path);
	if (rc == 0 && f->interp != NULL && info.e_type == ET_DYN)
		f->pub.pie = 1;
out:
	profconv__elfinfo_free(&info);
	elf_end(elf);
	return rc;
}

int
profconv_elf_facts_read(struct profconv_elf_facts **out, const char *path)
{
	char head[PC_ELF_SHEBANG_MAX], *name = NULL, *next = NULL;
	struct facts *f;
	int depth, fd, rc;
	ssize_t n;

	*out = NULL;
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return profconv__nomem();
	/* Each "#!" names the next file, as the kernel follows them. */
	for (depth = 0; ; depth++) {
		const char *cur = name != NULL ? name : path;

		rc = profconv__open_regular(cur, &fd);
		if (rc < 0)
			break;
		n = pread(fd, head, sizeof(head), 0);
		if (n < 0) {
			rc = profconv__fail(PROFCONV_EIO, "cannot read '%s': %s",
			    cur, strerror(errno));
		} else if (n >= 2 && head[0] == '#' && head[1] == '!') {
			if (depth == PC_ELF_MAX_SCRIPTS)
				rc = profconv__fail(PROFCONV_EFORMAT, "'%s': "
				    "scripts nested more than %d deep", path,
				    PC_ELF_MAX_SCRIPTS);
			else
				rc = shebang(head, (size_t)n, cur, &next);
			close(fd);
			if (rc < 0)
				break;
			if (f->script == NULL)
				f->script = strdup(next);
			free(name);
			name = next;
			if (f->script == NULL) {
				rc = profconv__nomem();
				break;
			}
			continue;
		} else {
			rc = read_elf_facts(f, fd, cur);
		}
		close(fd);
		if (rc == 0 && (f->path = strdup(cur)) == NULL)
			rc = profconv__nomem();
		break;
	}
	free(name);
	if (rc < 0) {
		profconv_elf_facts_free(&f->pub);
		return rc;
	}
	f->pub.path = f->path;
	f->pub.script_interpreter = f->script;
	f->pub.interpreter = f->interp;
	f->pub.build_id = f->build_id;
	f->pub.needed = (const char *const *)f->needed;
	*out = &f->pub;
	return 0;
}
