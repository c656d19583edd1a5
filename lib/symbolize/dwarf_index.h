/* SPDX-License-Identifier: MIT */
/*
 * dwarf_index.h - the address index of one module, shared by the
 * files that make and read it: dwarf_index.c builds the symbol table
 * and the CU table, dwarf_nodes.c (with dwarf_own_walk.c) each CU's
 * function ranges; dwarf_frames.c turns an address found there into
 * named frames with lines and inline chains.  Private to those files,
 * find.c (for profconv__elf_section()) and the unit tests of the index;
 * it includes libdw, which symbolize.h only forward-declares.
 */
#ifndef PROFCONV_DWARF_INDEX_H
#define PROFCONV_DWARF_INDEX_H

#include <elfutils/libdwfl.h>

#include "symbolize/symbolize.h"

/* An ELF function symbol at a file address. */
struct pc_sym {
	uint64_t addr;
	uint64_t size;			/* st_size; for size 0, to the end
					 * of its section */
	const char *name;
	int rank;			/* preference among aliases */
};

/* The names of a function, shared by all its inlined instances. */
struct pc_names {
	const char *name, *linkage;
	int64_t start_line;
};

/* A DIE that is a function or an inlined call. */
struct pc_node {
	Dwarf_Die die;
	int32_t parent;			/* enclosing function node, or -1 */
	bool inlined;			/* DW_TAG_inlined_subroutine */
	bool resolved;			/* the fields below are filled in */
	uint32_t range0, nranges;	/* its ranges in pc_cu.own */
	uint32_t names;			/* index into the module's names */
	int64_t call_file, call_line, call_column;	/* -1: none */
};

/* One address range [lo, hi) of a node, in DWARF addresses. */
struct pc_range {
	uint64_t lo, hi;
	uint32_t node, depth;
};

struct pc_cu {
	Dwarf_Die die;			/* the unit: ranges, lines, files */
	Dwarf_Die tree;			/* where its functions are: the split
					 * unit of a skeleton, else DIE */
	/* The section of the unit's abbreviations, for our own walk of
	 * its DIEs; NULL: libdw walks them (split units, odd files). */
	const unsigned char *abbrev;
	size_t abbrev_size;
	const unsigned char *info_end;	/* the end of its .debug_info */
	const unsigned char *rnglists;	/* .debug_rnglists, or NULL */
	size_t rnglists_size;
	bool indexed;
	struct pc_node *nodes;
	size_t nnodes, nodes_cap;
	struct pc_range *ranges;	/* all ranges, by start address */
	size_t nranges, ranges_cap;
	struct pc_range *own;		/* the same, grouped by node */
	Dwarf_Files *files;		/* for DW_AT_call_file; lazily */
	size_t nfiles;
	bool files_tried;
	const char *comp_dir;		/* DW_AT_comp_dir; lazily */
	bool comp_dir_tried;
	struct pc_linetab lines;	/* our decoding of its line table */
	bool lines_tried;
	bool lines_ours;		/* else libdw's answers are used */
};

/* One address range of a CU. */
struct pc_cu_range {
	uint64_t lo, hi;
	size_t cu;
};

struct pc_symmod {
	Dwfl_Module *mod;
	uint64_t main_bias;		/* Dwfl address = file address + this */

	bool symtab_loaded;
	struct pc_sym *syms;
	size_t nsyms, syms_cap;

	bool dwarf_loaded;
	Dwarf *dw;			/* NULL: no DWARF */
	uint64_t dw_bias;		/* Dwfl address = DWARF address + this */
	struct pc_cu *cus;
	size_t ncus, cus_cap;
	struct pc_cu_range *curanges;
	size_t ncuranges, curanges_cap;

	/* Function names by the DIE offset of their abstract origin. */
	struct pc_u64map names_by_die;
	struct pc_names *names;
	size_t nnames, names_cap;
	struct pc_strtab paths;		/* file names joined to comp_dir */
	struct pc_rawpool lines_raw;	/* line tables' file names */

	/* The sections line tables use, for our own decoder. */
	struct pc_line_sections linesec;
	bool linesec_tried;
	bool linesec_ok;		/* a little-endian file */

	/* Split DWARF packed in BINARY.dwp; read on the first skeleton
	 * whose .dwo libdw did not find. */
	struct pc_dwp *dwp;
	bool dwp_tried;
	Elf_Data *addr;			/* the skeletons' .debug_addr */
};

/* --- building the index (dwarf_index.c, dwarf_nodes.c) ------------------- */

/*
 * Read M's DWARF and the address ranges of all its CUs from the CU DIEs
 * themselves, so a missing .debug_aranges costs nothing; a module
 * without DWARF leaves M->dw NULL.  Sets M->dwarf_loaded: callers test
 * it first.  Errors: PROFCONV_ENOMEM.
 */
int profconv__dwarf_load(struct pc_symmod *m);

/* The CU whose ranges hold the DWARF address DWADDR, or NULL. */
struct pc_cu *profconv__dwarf_find_cu(struct pc_symmod *m, uint64_t dwaddr);

/*
 * Walk CU's DIEs once into its function nodes and their ranges, sorted
 * by start address.  Sets CU->indexed: callers test it first.  Errors:
 * PROFCONV_ENOMEM.
 */
int profconv__dwarf_index_cu(struct pc_cu *cu);

/* The innermost function node of CU whose ranges hold DWADDR, or -1. */
int32_t profconv__dwarf_find_node(struct pc_cu *cu, uint64_t dwaddr);

/*
 * The function symbol covering the file address ADDR, or NULL; the
 * symbol table is read the first time.
 */
const struct pc_sym *profconv__dwarf_find_sym(struct pc_symmod *m,
    uint64_t addr);

/* The section NAME of ELF (the first, skipping SHT_NOBITS ones), or
 * NULL; ... of the ELF file behind M's DWARF. */
Elf_Data *profconv__elf_section(Elf *elf, const char *name);
Elf_Data *profconv__dwarf_section(struct pc_symmod *m, const char *name);

#endif /* PROFCONV_DWARF_INDEX_H */
