/* SPDX-License-Identifier: MIT */
/*
 * elfinfo.c - the ELF facts symbolization checks before using a file: its
 * type, PT_LOAD headers and build id, the load bias of a mapping, and
 * pprof's rules for mappings that cannot be symbolized.
 */

#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <gelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#if defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define PC_HAVE_OPENAT2 1
#endif
#endif
#include <elfutils/libdwelf.h>

#include "symbolize/symbolize.h"

void
profconv__elfinfo_free(struct pc_elfinfo *info)
{
	free(info->loads);
	memset(info, 0, sizeof(*info));
}

static void
hex_build_id(struct pc_elfinfo *info, const unsigned char *bits, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	/* Longer ids than 64 bytes do not exist in practice; keep a prefix. */
	if (len > (sizeof(info->build_id) - 1) / 2)
		len = (sizeof(info->build_id) - 1) / 2;
	for (i = 0; i < len; i++) {
		info->build_id[2 * i] = digits[bits[i] >> 4];
		info->build_id[2 * i + 1] = digits[bits[i] & 15];
	}
	info->build_id[2 * len] = '\0';
}

static int
read_loads(struct pc_elfinfo *info, Elf *elf, const char *path)
{
	size_t phnum, i, cap = 0;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &phnum) != 0)
		return profconv__fail(PROFCONV_EFORMAT, "'%s': cannot count "
		    "its program headers: %s", path, elf_errmsg(-1));
	for (i = 0; i < phnum; i++) {
		if (gelf_getphdr(elf, (int)i, &ph) == NULL ||
		    ph.p_type != PT_LOAD)
			continue;
		if (PC_GROW(info->loads, cap, info->nloads, 1) < 0)
			return PROFCONV_ENOMEM;
		info->loads[info->nloads].offset = ph.p_offset;
		info->loads[info->nloads].vaddr = ph.p_vaddr;
		info->loads[info->nloads].filesz = ph.p_filesz;
		info->loads[info->nloads].memsz = ph.p_memsz;
		info->loads[info->nloads].align = ph.p_align;
		info->loads[info->nloads].flags = ph.p_flags;
		info->nloads++;
	}
	return 0;
}

/*
 * How the file's own debug info is stored: INFO->plain_debug, the size of
 * its .debug_info when stored uncompressed (only then can more threads
 * open the file each without inflating the whole debug info again), and
 * INFO->zdebug, whether any debug section is compressed (then it is
 * read through an inflated image, debug_inflate.c).
 */
static void
debug_storage(struct pc_elfinfo *info, Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *name;
	GElf_Shdr sh;

	info->plain_debug = 0;
	info->zdebug = false;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_PROGBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name == NULL || strncmp(name, ".debug_", 7) != 0)
			continue;
		if ((sh.sh_flags & SHF_COMPRESSED) != 0)
			info->zdebug = true;
		else if (strcmp(name, ".debug_info") == 0)
			info->plain_debug = sh.sh_size;
	}
}

int
profconv__elfinfo_from_elf(struct pc_elfinfo *info, Elf *elf, const char *path)
{
	const void *bits;
	GElf_Ehdr eh;
	ssize_t n;
	int rc;

	if (elf_kind(elf) != ELF_K_ELF || gelf_getehdr(elf, &eh) == NULL)
		return profconv__fail(PROFCONV_EFORMAT,
		    "'%s' is not an ELF file", path);
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		return profconv__fail(PROFCONV_EFORMAT,
		    "'%s' is neither an executable nor a shared object", path);
	info->e_type = eh.e_type;
	n = dwelf_elf_gnu_build_id(elf, &bits);
	if (n > 0)
		hex_build_id(info, bits, (size_t)n);
	debug_storage(info, elf);
	rc = read_loads(info, elf, path);
	if (rc < 0)
		profconv__elfinfo_free(info);
	return rc;
}

static void
init_libelf(void)
{
	(void)elf_version(EV_CURRENT);
}

void
profconv__libelf_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	/* elf_version() sets a global: once, not once per call and thread. */
	(void)pthread_once(&once, init_libelf);
}

/*
 * Open the regular file that O_PATH descriptor PFD (whose stat is ST)
 * names, for reading: through /proc/self/fd, the very inode, else by
 * PATH again when /proc is not mounted, checking it is still that inode.
 */
static int
reopen_regular(int pfd, const struct stat *st, const char *path)
{
	char proc[64];
	struct stat now;
	int fd;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd >= 0 || (errno != ENOENT && errno != ENOTDIR))
		return fd;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &now) != 0 || now.st_dev != st->st_dev ||
	    now.st_ino != st->st_ino) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

/*
 * The regular file O_PATH descriptor PFD names (PATH, for messages and
 * for a system without /proc), opened for reading into *FD_OUT; PFD is
 * closed.
 */
static int
open_checked(int pfd, const char *path, int *fd_out)
{
	struct stat st;
	int fd, err;

	if (fstat(pfd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(pfd);
		return profconv__fail(PROFCONV_EFORMAT,
		    "'%s' is not a regular file", path);
	}
	fd = reopen_regular(pfd, &st, path);
	err = errno;
	close(pfd);
	if (fd < 0)
		return profconv__fail(PROFCONV_ENOTFOUND, "cannot open '%s': %s",
		    path, strerror(err));
	*fd_out = fd;
	return 0;
}

int
profconv__open_regular(const char *path, int *fd_out)
{
	int pfd;

	*fd_out = -1;
	/*
	 * Nothing but a regular file is ever opened for reading: opening a
	 * device runs its driver (/dev/ptmx makes a pty, a watchdog arms),
	 * and a FIFO blocks open() until a writer comes.  An O_PATH
	 * descriptor opens nothing, and says what the path is.
	 */
	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0)
		return profconv__fail(PROFCONV_ENOTFOUND, "cannot open '%s': %s",
		    path, strerror(errno));
	return open_checked(pfd, path, fd_out);
}

/* --- paths inside a root -------------------------------------------------- */

/* Symbolic links followed in one path at most, as the kernel's MAXSYMLINKS. */
#define MAX_LINKS 40

/* Append component C (N bytes) to the root-relative path P (SIZE). */
static bool
push_component(char *p, size_t size, const char *c, size_t n)
{
	size_t len = strlen(p);

	if (len + (len > 0) + n + 1 > size)
		return false;
	if (len > 0)
		p[len++] = '/';
	memcpy(p + len, c, n);
	p[len + n] = '\0';
	return true;
}

int
profconv__walk_in_root(int rootfd, const char *path)
{
	char done[PATH_MAX] = "", rest[PATH_MAX], link[PATH_MAX],
	    tmp[PATH_MAX];
	const char *p, *c;
	size_t n, links = 0, save;
	struct stat st;
	ssize_t len;

	if (strlen(path) >= sizeof(rest)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(rest, path, strlen(path) + 1);
	p = rest;
	for (;;) {
		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		c = p;
		while (*p != '\0' && *p != '/')
			p++;
		n = (size_t)(p - c);
		if (n == 1 && c[0] == '.')
			continue;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			/* Never above the root. */
			char *slash = strrchr(done, '/');

			if (slash != NULL)
				*slash = '\0';
			else
				done[0] = '\0';
			continue;
		}
		save = strlen(done);
		if (!push_component(done, sizeof(done), c, n)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		if (fstatat(rootfd, done, &st, AT_SYMLINK_NOFOLLOW) != 0)
			return -1;
		if (!S_ISLNK(st.st_mode)) {
			if (*p != '\0' && !S_ISDIR(st.st_mode)) {
				errno = ENOTDIR;
				return -1;
			}
			continue;
		}
		if (++links > MAX_LINKS) {
			errno = ELOOP;
			return -1;
		}
		len = readlinkat(rootfd, done, link, sizeof(link) - 1);
		if (len < 0)
			return -1;
		link[len] = '\0';
		/* The link's text replaces it; an absolute one starts over
		 * at the root, not at the host's. */
		done[save] = '\0';
		if (link[0] == '/')
			done[0] = '\0';
		if ((size_t)snprintf(tmp, sizeof(tmp), "%s%s%s", link,
		    *p != '\0' ? "/" : "", p) >= sizeof(tmp)) {
			errno = ENAMETOOLONG;
			return -1;
		}
		memcpy(rest, tmp, strlen(tmp) + 1);
		p = rest;
	}
	return openat(rootfd, done[0] != '\0' ? done : ".",
	    O_PATH | O_CLOEXEC | O_NOFOLLOW);
}

/* PATH inside the directory ROOTFD by openat2(RESOLVE_IN_ROOT), O_PATH. */
static int
openat2_in_root(int rootfd, const char *path)
{
#if defined(SYS_openat2) && defined(PC_HAVE_OPENAT2)
	struct open_how how;

	memset(&how, 0, sizeof(how));
	how.flags = O_PATH | O_CLOEXEC;
	how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
	return (int)syscall(SYS_openat2, rootfd, path, &how, sizeof(how));
#else
	(void)rootfd;
	(void)path;
	errno = ENOSYS;
	return -1;
#endif
}

int
profconv__open_in_root(const char *root, const char *path, int *fd_out,
    char **real_out)
{
	char shown[PATH_MAX], proc[64], real[PATH_MAX];
	int rootfd, pfd, rc;
	ssize_t n;

	*fd_out = -1;
	*real_out = NULL;
	snprintf(shown, sizeof(shown), "%s%s%s", root, path[0] == '/' ? "" :
	    "/", path);
	rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return profconv__fail(PROFCONV_ENOTFOUND, "cannot open '%s': %s",
		    root, strerror(errno));
	pfd = openat2_in_root(rootfd, path);
	/* Kernels before 5.6, and sandboxes that refuse the call. */
	if (pfd < 0 && (errno == ENOSYS || errno == EPERM))
		pfd = profconv__walk_in_root(rootfd, path);
	close(rootfd);
	if (pfd < 0)
		return profconv__fail(PROFCONV_ENOTFOUND, "cannot open '%s': %s",
		    shown, strerror(errno));
	/* Where it is on this host: what libdwfl is told, and what is
	 * opened again later. */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	n = readlink(proc, real, sizeof(real) - 1);
	if (n <= 0 || real[0] != '/') {
		close(pfd);
		return profconv__fail(PROFCONV_ENOTFOUND,
		    "cannot open '%s': where it is is unknown", shown);
	}
	real[n] = '\0';
	rc = open_checked(pfd, shown, fd_out);
	if (rc == 0 && (*real_out = strdup(real)) == NULL) {
		close(*fd_out);
		*fd_out = -1;
		return profconv__nomem();
	}
	return rc;
}

/* Read INFO from the file open on FD (PATH, for messages); FD is kept. */
static int
elfinfo_from_fd(struct pc_elfinfo *info, int fd, const char *path)
{
	Elf *elf;
	int rc;

	profconv__libelf_init();
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf == NULL)
		return profconv__fail(PROFCONV_EFORMAT, "'%s': %s", path,
		    elf_errmsg(-1));
	rc = profconv__elfinfo_from_elf(info, elf, path);
	elf_end(elf);
	return rc;
}

int
profconv__elfinfo_read(struct pc_elfinfo *info, const char *path,
    int *fd_out)
{
	int fd, rc;

	memset(info, 0, sizeof(*info));
	*fd_out = -1;
	rc = profconv__open_regular(path, &fd);
	if (rc < 0)
		return rc;
	rc = elfinfo_from_fd(info, fd, path);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	*fd_out = fd;
	return 0;
}

int
profconv__elfinfo_read_in(struct pc_elfinfo *info, const char *root,
    const char *path, int *fd_out, char **real_out)
{
	int fd, rc;

	memset(info, 0, sizeof(*info));
	*fd_out = -1;
	rc = profconv__open_in_root(root, path, &fd, real_out);
	if (rc < 0)
		return rc;
	rc = elfinfo_from_fd(info, fd, *real_out);
	if (rc < 0) {
		close(fd);
		free(*real_out);
		*real_out = NULL;
		return rc;
	}
	*fd_out = fd;
	return 0;
}

/*
 * The PT_LOAD the mapping [OFFSET, OFFSET + SIZE) of the file shows.  A
 * segment's first page counts: the kernel maps whole pages, so a segment
 * whose p_offset is not page aligned starts inside a mapping whose offset
 * is.  The page where two segments meet is mapped twice, once per
 * segment, at addresses that differ when their p_vaddr - p_offset do; a
 * profile's mappings are its executable ones, so an executable segment
 * wins, then one that holds the mapping's first byte.
 */
static const struct pc_phdr *
covered_load(const struct pc_elfinfo *info, uint64_t offset, uint64_t size)
{
	const struct pc_phdr *ph, *best = NULL;
	int score, best_score = -1;
	uint64_t lo;
	size_t i;

	for (i = 0; i < info->nloads; i++) {
		ph = &info->loads[i];
		lo = ph->offset & ~(uint64_t)0xfff;
		if (ph->filesz == 0 || offset >= ph->offset + ph->filesz ||
		    lo >= offset + size)
			continue;
		score = ((ph->flags & PF_X) != 0 ? 2 : 0) + (lo <= offset);
		if (score > best_score) {
			best = ph;
			best_score = score;
		}
	}
	return best;
}

uint64_t
profconv__load_bias(const struct pc_elfinfo *info, uint64_t start,
    uint64_t limit, uint64_t offset)
{
	const struct pc_phdr *ph;

	/* A fake mapping of the whole address space: addresses are file ones. */
	if (start == 0 && offset == 0 && (limit == 0 || limit == UINT64_MAX))
		return 0;
	ph = covered_load(info, offset, limit > start ? limit - start : 1);
	if (ph == NULL)
		return start - offset;
	/*
	 * Runtime address of file offset X is start + (X - offset); its
	 * link-time address is p_vaddr + (X - p_offset).  Unsigned
	 * wrap-around gives the right difference either way.
	 */
	return start - offset + ph->offset - ph->vaddr;
}

bool
profconv__load_matches(const struct pc_elfinfo *info, uint64_t start,
    uint64_t limit, uint64_t offset)
{
	if (start == 0 && offset == 0 && (limit == 0 || limit == UINT64_MAX))
		return true;
	return covered_load(info, offset, limit > start ? limit - start : 1) !=
	    NULL;
}

static bool
has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool
profconv__unsymbolizable(const char *file)
{
	const char *base = strrchr(file, '/');
	size_t len = strlen(file);

	base = base != NULL ? base + 1 : file;
	if (len == 0 || base[0] == '[' || has_prefix(base, "linux-vdso"))
		return true;
	return has_prefix(file, "/dev/dri/") || strcmp(file, "//anon") == 0 ||
	    has_prefix(file, "/memfd:");
}

size_t
profconv__deleted_file(const char *file)
{
	size_t len = strlen(file);

	/* The kernel's mark for a file removed since it was mapped. */
	if (len > 10 && strcmp(file + len - 10, " (deleted)") == 0)
		return len - 10;
	return 0;
}

bool
profconv__build_id_equal(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
	return *a == *b;
}
