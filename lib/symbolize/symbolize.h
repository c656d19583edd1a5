/* SPDX-License-Identifier: MIT */
/*
 * symbolize.h - what the symbolizer's files share: ELF facts and load
 * bias (elfinfo.c), finding binaries and debug files (find.c,
 * debug_inflate.c), memory maps from outside (remap.c), DWARF packages
 * (dwp.c), line tables (linetable.c), the per-module address index
 * (dwarf_index.c, dwarf_frames.c) and function deduplication
 * (symbolizer.c).  libdw types stay behind forward declarations so unit
 * tests need no elfutils headers; what needs them is in the private
 * headers symbolizer.h and dwarf_index.h.
 */
#ifndef PROFCONV_SYMBOLIZE_H
#define PROFCONV_SYMBOLIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/seams.h"
#include "names/names.h"

struct Dwfl_Module;
struct Elf;

/* --- ELF files (elfinfo.c) ------------------------------------------------ */

/* A PT_LOAD program header, reduced to what the bias needs. */
struct pc_phdr {
	uint64_t offset, vaddr, filesz, memsz, align;
	uint32_t flags;			/* PF_X, PF_W, PF_R */
};

/* What symbolization needs to know about one ELF file on disk. */
struct pc_elfinfo {
	int e_type;			/* ET_EXEC, ET_DYN, ... */
	struct pc_phdr *loads;		/* PT_LOAD headers, malloc'd */
	size_t nloads;
	char build_id[129];		/* lowercase hex; "" when none */
	uint64_t plain_debug;		/* bytes of uncompressed .debug_info
					 * in the file itself; 0: none */
	bool zdebug;			/* a compressed .debug_ section in
					 * the file itself (gcc -gz) */
};

void profconv__elfinfo_free(struct pc_elfinfo *info);

/* elf_version(), once per process, safely from any thread. */
void profconv__libelf_init(void);

/*
 * Open PATH read-only if it is a regular file, without opening anything
 * else even for a moment (a FIFO would hang the caller, a device's
 * driver would act); the descriptor goes to *FD_OUT.  Errors: PROFCONV_ENOTFOUND (cannot open),
 * PROFCONV_EFORMAT (not a regular file).
 */
int profconv__open_regular(const char *path, int *fd_out);

/*
 * Open PATH inside the directory ROOT as openat2(RESOLVE_IN_ROOT) does:
 * ".." stops at ROOT, and a symbolic link, absolute or not, is followed
 * inside ROOT (copied system roots are full of absolute links).  Only a
 * regular file is opened, as by profconv__open_regular(); its path on
 * this host goes to *REAL_OUT (malloc'd).  Where the kernel lacks
 * openat2, profconv__walk_in_root() resolves the path instead.  Errors:
 * PROFCONV_ENOTFOUND, PROFCONV_EFORMAT (not a regular file),
 * PROFCONV_ENOMEM.
 */
int profconv__open_in_root(const char *root, const char *path, int *fd_out,
    char **real_out);

/*
 * PATH inside the directory open on ROOTFD, resolved one component at a
 * time as RESOLVE_IN_ROOT would (at most 40 links), opened O_PATH: a
 * descriptor, or -1 with errno.
 */
int profconv__walk_in_root(int rootfd, const char *path);

/*
 * Open PATH and read its type, PT_LOAD headers and GNU build id.  On
 * success *FD_OUT is the open descriptor (the caller owns it).  Errors:
 * PROFCONV_ENOTFOUND (missing or unreadable), PROFCONV_EFORMAT (not an
 * executable or shared ELF file), PROFCONV_ENOMEM.
 */
int profconv__elfinfo_read(struct pc_elfinfo *info, const char *path,
    int *fd_out);

/*
 * INFO of the ELF file ELF (read from PATH, named in messages), as
 * profconv__elfinfo_read() reads it; INFO holds nothing on failure.
 */
int profconv__elfinfo_from_elf(struct pc_elfinfo *info, struct Elf *elf,
    const char *path);

/*
 * profconv__elfinfo_read() of PATH inside ROOT, opened as by
 * profconv__open_in_root(); the file's path on this host goes to
 * *REAL_OUT (malloc'd).
 */
int profconv__elfinfo_read_in(struct pc_elfinfo *info, const char *root,
    const char *path, int *fd_out, char **real_out);

/*
 * The load bias of a mapping [START, LIMIT) of the file at file offset
 * OFFSET: runtime address minus file (link-time) address.  This is
 * pprof's GetBase for user space: start - offset + p_offset - p_vaddr of
 * the PT_LOAD that the mapping covers; 0 for a whole-address-space fake
 * mapping; start - offset when no PT_LOAD matches.
 */
uint64_t profconv__load_bias(const struct pc_elfinfo *info, uint64_t start,
    uint64_t limit, uint64_t offset);
/* Whether some PT_LOAD of INFO holds part of the mapping's file range
 * (a whole-address-space fake mapping always matches). */
bool profconv__load_matches(const struct pc_elfinfo *info, uint64_t start,
    uint64_t limit, uint64_t offset);

/*
 * True when FILE names something that has no symbols on disk, by pprof's
 * Unsymbolizable() rules: "", "[vdso]" and other "[...]" names,
 * "linux-vdso...", "/dev/dri/...", "//anon" and "/memfd:...".
 */
bool profconv__unsymbolizable(const char *file);

/*
 * When FILE is "PATH (deleted)", a file removed since it was mapped, the
 * length of PATH; else 0.  Whatever sits at PATH now is another file,
 * used only when its build id is the mapping's.
 */
size_t profconv__deleted_file(const char *file);

/*
 * True when ID is a build id that may be used in a path: 2 to 128 hex
 * digits, an even number (find.c).
 */
bool profconv__build_id_valid(const char *id);

/* Lowercase hex and compare; true when A and B name the same build id. */
bool profconv__build_id_equal(const char *a, const char *b);

/* --- finding binaries (find.c) -------------------------------------------- */

struct pc_find {
	const char *sysroot;		/* NULL: none */
	const char *search_path;	/* colon-separated; NULL: none */
	int pid;			/* > 0: also try /proc/PID/root */
	bool require_id;		/* refuse files without the build id */
};

/* A binary found for a mapping, or why none was. */
struct pc_found {
	char *path;			/* malloc'd; NULL when not found */
	struct pc_elfinfo info;
	int fd;				/* open on PATH; -1 when not found */
	char mismatch_id[129];		/* build id of a refused file, or "" */
	char mismatch_path[256];	/* and its path */
	char bad_path[256];		/* a file found that is no usable ELF */
	char bad_why[160];		/* and what is wrong with it */
};

/*
 * Find the binary mapped from FILE whose build id is BUILD_ID ("" or
 * NULL: any).  Candidates, in order: the build-id layouts in each search
 * directory, SYSROOT/FILE (or FILE without a sysroot), /proc/PID/root/FILE,
 * then FILE and its base name under each search directory.  A candidate
 * with another build id is refused and remembered in OUT->mismatch_*;
 * with HOW->require_id, so is one without a build id.
 * Errors: PROFCONV_ENOTFOUND (no usable file), PROFCONV_ENOMEM.
 */
int profconv__find_binary(const struct pc_find *how, const char *file,
    const char *build_id, struct pc_found *out);
void profconv__found_free(struct pc_found *found);

/* What to look for when a module's separate debug info is wanted. */
struct pc_debug_query {
	const char *file;		/* the file that names it */
	const char *link;		/* its .gnu_debuglink or dwz alt name */
	uint32_t crc;			/* the debuglink's CRC; 0: none */
	const unsigned char *id;	/* the build id it must have, or NULL */
	size_t id_len;
	const char *dirs;		/* colon-separated debug directories */
	const char *sysroot;		/* NULL: none */
};

/*
 * Find the separate debug file QUERY describes by name, the way GDB and
 * libdwfl do (the file's directory, its .debug, each debug directory
 * with and without the file's directory), without debuginfod and
 * without blocking on special files.  A candidate must have the wanted
 * build id, or when none is known, the debuglink's CRC.  Returns an open
 * descriptor and the path in *PATH_OUT (malloc'd), or -1.
 */
int profconv__find_debugfile(const struct pc_debug_query *query,
    char **path_out);

/*
 * The descriptor libdw should read the debug file (or binary) open on FD
 * through: when the file has zlib-compressed DWARF sections, a new in-memory
 * image of it with them inflated on up to JOBS threads (and those the
 * symbolizer never reads left out), FD being closed; else FD itself.
 * Never fails: whatever cannot be rewritten is read as it is
 * (debug_inflate.c).
 */
int profconv__debug_image(int fd, unsigned int jobs);

/*
 * The build id a dwz alternate file must have when FILE's
 * .gnu_debugaltlink names it as LINK: length, bytes in ID (room for
 * 64); 0 when FILE has no such link.
 */
size_t profconv__altlink_id(const char *file, const char *link,
    unsigned char *id);

/* --- memory maps from outside the profile (remap.c) ----------------------- */

/*
 * Point each location covered by an executable entry of the maps file
 * PATH (or, when PATH is NULL, of /proc/PID/maps) at a new mapping made
 * from that entry, and drop the mappings no location uses any more.
 * Errors: PROFCONV_ENOTFOUND, PROFCONV_EIO, PROFCONV_EFORMAT (no entries),
 * PROFCONV_ENOMEM.
 */
int profconv__symbolize_remap(struct profconv_profile *prof,
    const char *path, int pid);

/* --- split DWARF packages (dwp.c) ----------------------------------------- */

struct Dwarf;
struct pc_dwp;

/*
 * Open the DWARF 5 package (.dwp) at PATH.  Errors: PROFCONV_ENOTFOUND
 * (no such file), PROFCONV_EFORMAT (not a DWARF 5 package of this host's
 * byte order), PROFCONV_ENOMEM.
 */
int profconv__dwp_open(struct pc_dwp **out, const char *path);
void profconv__dwp_free(struct pc_dwp *p);

/*
 * The compile unit DIE (into *DIE, a Dwarf_Die) of the split unit whose
 * DWO id is DWO_ID, readable by libdw; ADDR (ADDR_LEN bytes) is the
 * skeleton's .debug_addr from its address base on.  The unit lives as
 * long as P.  Errors: PROFCONV_ENOTFOUND, PROFCONV_EFORMAT,
 * PROFCONV_ENOMEM.
 */
int profconv__dwp_unit(struct pc_dwp *p, uint64_t dwo_id, const void *addr,
    size_t addr_len, void *die);

/* A section of an ELF image made in memory. */
struct pc_elf_section {
	const char *name;
	const void *data;
	size_t size;
};

/*
 * A 64-bit relocatable ELF image holding SECS, with IDENT's byte order
 * and MACHINE; malloc'd into *IMAGE_OUT.  Errors: PROFCONV_ENOMEM.
 */
int profconv__elf_image(const struct pc_elf_section *secs, size_t n,
    const unsigned char *ident, uint16_t machine, void **image_out,
    size_t *size_out);

/* --- line tables (linetable.c) -------------------------------------------- */

/* The sections a line table refers to (NULL: absent). */
struct pc_line_sections {
	const unsigned char *line, *line_str, *str;
	size_t line_size, line_str_size, str_size;
};

/* A row of a line table. */
struct pc_linerow {
	uint64_t addr;
	uint32_t seq;			/* order in the line program */
	uint32_t file;
	int32_t line;
	uint16_t column;
	bool end;			/* ends a sequence */
};

/* One compile unit's line table, rows sorted as libdw sorts them. */
struct pc_linetab {
	struct pc_linerow *rows;
	size_t nrows, rows_cap;
	const char **files;		/* libdw's file names, by index */
	size_t nfiles, files_cap;
};

/*
 * Strings kept byte for byte (a pc_strtab repairs text that is not UTF-8,
 * which would hide it from the symbolizer's one warning per binary).
 * Pointers stay valid until the pool is freed.
 */
struct pc_rawpool {
	char **chunks;
	size_t nchunks, chunks_cap;
	char *cur;
	size_t left;
};

/* A copy of S (LEN bytes, then a NUL) in P, or NULL when out of memory. */
const char *profconv__rawpool_add(struct pc_rawpool *p, const char *s,
    size_t len);
void profconv__rawpool_free(struct pc_rawpool *p);

/* Returned when libdw should decode the table instead. */
#define PC_LINES_LIBDW 1

/*
 * Decode the line program at OFFSET of SEC->line for a unit with
 * COMP_DIR (may be NULL) and ADDRESS_SIZE into T; composed file names are
 * kept in NAMES.  Returns 0, PC_LINES_LIBDW for anything not read
 * exactly as libdw 0.188 reads it, or PROFCONV_ENOMEM.
 */
int profconv__linetab_decode(struct pc_linetab *t,
    const struct pc_line_sections *sec, uint64_t offset,
    const char *comp_dir, unsigned address_size, struct pc_rawpool *names);
void profconv__linetab_free(struct pc_linetab *t);

/* The row dwarf_getsrc_die would give for ADDR, or NULL. */
const struct pc_linerow *profconv__linetab_find(const struct pc_linetab *t,
    uint64_t addr);

/* The name of file FILE, as dwarf_linesrc and dwarf_filesrc give it. */
const char *profconv__linetab_file(const struct pc_linetab *t, uint64_t file);

/* --- per-module address index (dwarf_index.c, dwarf_frames.c) ------------- */

/* One frame of an answer, innermost first.  Strings borrow from libdw. */
struct pc_frame {
	const char *name;		/* DW_AT_name or symbol; NULL: unknown */
	const char *linkage;		/* mangled linkage name; may be NULL */
	const char *file;		/* NULL when unknown */
	const char *comp_dir;		/* its unit's DW_AT_comp_dir, or NULL */
	int64_t line, column, start_line;
};

/* Where a frame list came from, for the mapping's has_* flags. */
enum pc_frame_source {
	PC_FRAMES_NONE,			/* nothing known about the address */
	PC_FRAMES_SYMTAB,		/* an ELF symbol only */
	PC_FRAMES_DWARF			/* DWARF: lines and inline chain */
};

struct pc_symmod;

/*
 * Make the lookup structure for MOD.  Nothing is read yet: the symbol
 * table, the CU range table and each CU's function intervals are built
 * once, the first time an address needs them.
 */
int profconv__symmod_new(struct pc_symmod **out, struct Dwfl_Module *mod);
void profconv__symmod_free(struct pc_symmod *m);

/*
 * Where the function OUTER (the outermost frame profconv__symmod_lookup()
 * gave for ADDR) starts, to *START in ADDR's terms: the ELF symbol that
 * holds ADDR, when it has OUTER's linkage name (or its name without
 * one).  False when no such symbol holds it (a stripped file with DWARF
 * only, or a part the compiler split off, as foo.cold).
 */
bool profconv__symmod_start(struct pc_symmod *m, uint64_t addr,
    const struct pc_frame *outer, uint64_t *start);

/* True when the module has DWARF (after the first lookup tried it). */
bool profconv__symmod_has_dwarf(struct pc_symmod *m);

/*
 * Frames for the file (link-time) address ADDR, innermost first, into
 * FRAMES (room for MAX); their number goes to *N and their source to
 * *SRC.  A chain deeper than MAX keeps its innermost MAX - 1 frames and
 * its outermost one.  Errors: PROFCONV_ENOMEM.
 */
int profconv__symmod_lookup(struct pc_symmod *m, uint64_t addr,
    struct pc_frame *frames, size_t max, size_t *n,
    enum pc_frame_source *src);

/*
 * Index every CU of M and look up the first addresses of its function
 * ranges, counting the frames into *NFRAMES: the fuzz harness's way to
 * reach the whole DWARF walk.  Errors: PROFCONV_ENOMEM.
 */
int profconv__symmod_check(struct pc_symmod *m, size_t *nframes);

/*
 * Compare every line table of M that linetable.c decodes with libdw's,
 * row by row (address, end of sequence, file name, line, column); the
 * rows compared go to *NROWS.  Errors: PROFCONV_EFORMAT naming the first
 * difference, PROFCONV_ENOMEM.
 */
int profconv__symmod_check_lines(struct pc_symmod *m, size_t *nrows);

/* --- function deduplication (symbolizer.c) -------------------------------- */

/* Functions of a profile by (name, system name, file, start line). */
struct pc_funcset {
	struct pc_u64map ids;		/* probe key -> function id */
};

/* Index the functions PROF already has. */
int profconv__funcset_init(struct pc_funcset *set,
    struct profconv_profile *prof);
void profconv__funcset_free(struct pc_funcset *set);

/* The id of the function F (string indexes), added when new. */
int profconv__funcset_get(struct pc_funcset *set,
    struct profconv_profile *prof, const struct pc_function *f,
    uint32_t *id_out);

#endif /* PROFCONV_SYMBOLIZE_H */
