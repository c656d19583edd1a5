/* SPDX-License-Identifier: MIT */
/*
 * dwarf_index.c - address lookup inside one module: a sorted ELF symbol
 * table, a sorted table of CU address ranges, and per CU a sorted table
 * of function and inlined-call ranges, each built once on first use.
 *
 * libdw's own per-address scope walk (dwarf_getscopes) rereads the whole
 * CU for every address, milliseconds each in a large CU, and libdwfl's
 * CU lookup in 0.188 needs .debug_aranges, which clang does not emit by
 * default.  Both are avoided here: one pass over each CU's DIEs records
 * every DW_TAG_subprogram and DW_TAG_inlined_subroutine range with its
 * nesting, and an address is then a binary search plus a short walk up
 * the nesting.  Only the line table comes from libdw as is
 * (dwarf_getsrc_die), since it is parsed once per CU and searched by
 * bisection already.
 */

#include "config.h"

#include <dwarf.h>
#include <endian.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <elfutils/libdwfl.h>

#include "symbolize/symbolize.h"

/* An ELF function symbol at a file address. */
struct pc_sym {
	uint64_t addr, size;
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

int
profconv__symmod_new(struct pc_symmod **out, struct Dwfl_Module *mod)
{
	struct pc_symmod *m = calloc(1, sizeof(*m));
	Dwarf_Addr bias = 0;

	*out = NULL;
	if (m == NULL)
		return profconv__nomem();
	m->mod = mod;
	if (dwfl_module_getelf(mod, &bias) != NULL)
		m->main_bias = bias;
	if (profconv__strtab_init(&m->paths) < 0) {
		free(m);
		return profconv__nomem();
	}
	*out = m;
	return 0;
}

void
profconv__symmod_free(struct pc_symmod *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->ncus; i++) {
		free(m->cus[i].nodes);
		free(m->cus[i].ranges);
		free(m->cus[i].own);
		profconv__linetab_free(&m->cus[i].lines);
	}
	free(m->cus);
	free(m->curanges);
	profconv__u64map_free(&m->names_by_die);
	free(m->names);
	free(m->syms);
	profconv__strtab_free(&m->paths);
	profconv__rawpool_free(&m->lines_raw);
	/* After the CUs: their split unit DIEs may live in it. */
	profconv__dwp_free(m->dwp);
	free(m);
}

/* --- the symbol table ----------------------------------------------------- */

static int
cmp_sym(const void *a, const void *b)
{
	const struct pc_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Best alias last, where the dedupe below keeps it. */
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int
sym_rank(const GElf_Sym *sym)
{
	int bind = GELF_ST_BIND(sym->st_info);

	/* A sized global is what addr2line and nm -n users expect. */
	return (sym->st_size != 0 ? 4 : 0) + (bind == STB_GLOBAL ? 2 :
	    bind == STB_WEAK ? 1 : 0);
}

static int
load_symtab(struct pc_symmod *m)
{
	int i, n = dwfl_module_getsymtab(m->mod);
	size_t j, k;
	const char *name;
	GElf_Addr addr;
	GElf_Sym sym;
	int type;

	m->symtab_loaded = true;
	for (i = 1; i < n; i++) {
		name = dwfl_module_getsym_info(m->mod, i, &sym, &addr, NULL,
		    NULL, NULL);
		type = GELF_ST_TYPE(sym.st_info);
		if (name == NULL || name[0] == '\0' || sym.st_shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC))
			continue;
		if (PC_GROW(m->syms, m->syms_cap, m->nsyms, 1) < 0)
			return PROFCONV_ENOMEM;
		m->syms[m->nsyms].addr = addr - m->main_bias;
		m->syms[m->nsyms].size = sym.st_size;
		m->syms[m->nsyms].name = name;
		m->syms[m->nsyms].rank = sym_rank(&sym);
		m->nsyms++;
	}
	if (m->nsyms == 0)
		return 0;
	qsort(m->syms, m->nsyms, sizeof(*m->syms), cmp_sym);
	/* One symbol per address: the last, best-ranked alias. */
	for (j = 0, k = 0; j < m->nsyms; j++) {
		if (k > 0 && m->syms[k - 1].addr == m->syms[j].addr)
			k--;
		m->syms[k++] = m->syms[j];
	}
	m->nsyms = k;
	return 0;
}

/* The function symbol covering file address ADDR, or NULL. */
static const struct pc_sym *
find_sym(struct pc_symmod *m, uint64_t addr)
{
	const struct pc_sym *s;
	size_t lo = 0, hi, mid;

	if (!m->symtab_loaded && load_symtab(m) < 0)
		return NULL;
	hi = m->nsyms;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	s = &m->syms[lo - 1];
	/* A symbol without a size runs up to the next one. */
	if (s->size != 0 && addr - s->addr >= s->size)
		return NULL;
	return s;
}

/* --- the CU table --------------------------------------------------------- */

static int
cmp_curange(const void *a, const void *b)
{
	const struct pc_cu_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return 0;
}

static int
add_cu(struct pc_symmod *m, Dwarf_Die *cudie, Dwarf_Die *tree)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	size_t idx = m->ncus;

	if (PC_GROW(m->cus, m->cus_cap, m->ncus, 1) < 0)
		return PROFCONV_ENOMEM;
	memset(&m->cus[idx], 0, sizeof(m->cus[idx]));
	m->cus[idx].die = *cudie;
	m->cus[idx].tree = *tree;
	m->ncus++;
	while ((off = dwarf_ranges(cudie, off, &base, &lo, &hi)) > 0) {
		/* Code the linker discarded keeps ranges at address 0. */
		if (lo == 0 || lo >= hi)
			continue;
		if (PC_GROW(m->curanges, m->curanges_cap, m->ncuranges, 1) < 0)
			return PROFCONV_ENOMEM;
		m->curanges[m->ncuranges].lo = lo;
		m->curanges[m->ncuranges].hi = hi;
		m->curanges[m->ncuranges].cu = idx;
		m->ncuranges++;
	}
	return 0;
}

/* The section NAME of the ELF file behind M's DWARF, or NULL. */
static Elf_Data *
dwarf_section(struct pc_symmod *m, const char *name)
{
	Elf *elf = dwarf_getelf(m->dw);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	const char *sn;
	GElf_Shdr sh;

	if (elf == NULL || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type == SHT_NOBITS)
			continue;
		sn = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sn != NULL && strcmp(sn, name) == 0)
			return elf_getdata(scn, NULL);
	}
	return NULL;
}

/*
 * The split unit of the skeleton CUDIE (unit CU) from the package
 * BINARY.dwp, as llvm-symbolizer and GDB find it: into *SPLIT, or false.
 */
static bool
split_from_dwp(struct pc_symmod *m, Dwarf_CU *cu, Dwarf_Die *cudie,
    Dwarf_Die *split)
{
	const char *mainfile = NULL;
	Dwarf_Attribute attr;
	Dwarf_Word base = 0;
	uint64_t dwo_id = 0;
	char path[4096];

	if (!m->dwp_tried) {
		m->dwp_tried = true;
		(void)dwfl_module_info(m->mod, NULL, NULL, NULL, NULL, NULL,
		    &mainfile, NULL);
		if (mainfile == NULL || (size_t)snprintf(path, sizeof(path),
		    "%s.dwp", mainfile) >= sizeof(path) ||
		    profconv__dwp_open(&m->dwp, path) < 0)
			return false;
		m->addr = dwarf_section(m, ".debug_addr");
	}
	if (m->dwp == NULL ||
	    dwarf_cu_info(cu, NULL, NULL, NULL, NULL, &dwo_id, NULL,
	    NULL) != 0)
		return false;
	/* Index 0 of the unit's addresses is at the skeleton's base. */
	if (dwarf_attr(cudie, DW_AT_addr_base, &attr) != NULL)
		(void)dwarf_formudata(&attr, &base);
	if (m->addr != NULL && base > m->addr->d_size)
		return false;
	return profconv__dwp_unit(m->dwp, dwo_id, m->addr != NULL ?
	    (const char *)m->addr->d_buf + base : NULL, m->addr != NULL ?
	    m->addr->d_size - base : 0, split) == 0;
}

/* Is PATH absent or a regular file (anything libdw may open)? */
static bool
openable(const char *path)
{
	struct stat st;

	return stat(path, &st) != 0 || S_ISREG(st.st_mode);
}

/*
 * May libdw look for the .dwo file of the skeleton CUDIE?  It opens the
 * candidates (next to the debug info, then under DW_AT_comp_dir) with a
 * plain open(), which waits forever on a FIFO: a name that is there but
 * no regular file is not handed to it.
 */
static bool
dwo_safe(struct pc_symmod *m, Dwarf_Die *cudie)
{
	const char *name, *dir, *mainfile = NULL, *debugfile = NULL, *file;
	Dwarf_Attribute attr;
	const char *slash;
	char path[4096];

	name = dwarf_formstring(dwarf_attr(cudie, DW_AT_dwo_name, &attr));
	if (name == NULL)
		name = dwarf_formstring(dwarf_attr(cudie, DW_AT_GNU_dwo_name,
		    &attr));
	if (name == NULL)
		return true;
	if (name[0] == '/')
		return openable(name);
	(void)dwfl_module_info(m->mod, NULL, NULL, NULL, NULL, NULL,
	    &mainfile, &debugfile);
	file = debugfile != NULL ? debugfile : mainfile;
	if (file != NULL && (slash = strrchr(file, '/')) != NULL &&
	    (size_t)snprintf(path, sizeof(path), "%.*s/%s",
	    (int)(slash - file), file, name) < sizeof(path) && !openable(path))
		return false;
	dir = dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &attr));
	if (dir != NULL && (size_t)snprintf(path, sizeof(path), "%s/%s", dir,
	    name) < sizeof(path) && !openable(path))
		return false;
	return true;
}

/*
 * Read the module's DWARF and the address ranges of all its CUs from the
 * CU DIEs themselves, so a missing .debug_aranges costs nothing.
 */
static int
load_dwarf(struct pc_symmod *m)
{
	Dwarf_Die cudie, subdie;
	Dwarf_Addr bias = 0;
	Dwarf_CU *cu = NULL;
	uint8_t unit_type;
	Dwarf_Half version;
	int rc;

	m->dwarf_loaded = true;
	m->dw = dwfl_module_getdwarf(m->mod, &bias);
	if (m->dw == NULL)
		return 0;
	m->dw_bias = bias;
	/* No split unit asked for yet: libdw would look for the .dwo. */
	while (dwarf_get_units(m->dw, cu, &cu, &version, &unit_type, &cudie,
	    NULL) == 0) {
		if (unit_type != DW_UT_compile && unit_type != DW_UT_skeleton)
			continue;
		memset(&subdie, 0, sizeof(subdie));
		if (unit_type == DW_UT_skeleton && dwo_safe(m, &cudie))
			(void)dwarf_cu_info(cu, NULL, NULL, NULL, &subdie, NULL,
			    NULL, NULL);
		/*
		 * Split DWARF (-gsplit-dwarf): the skeleton in the binary
		 * has the address ranges and the line table, the split unit
		 * libdw found in the .dwo file has the function DIEs with
		 * their inlined calls.  Without the .dwo, the skeleton
		 * alone still gives lines.  libdw 0.188 reads .dwo files but
		 * not .dwp packages: those are read here.
		 */
		if (unit_type == DW_UT_skeleton &&
		    (subdie.addr == NULL ||
		    dwarf_tag(&subdie) != DW_TAG_compile_unit) &&
		    !split_from_dwp(m, cu, &cudie, &subdie))
			subdie = cudie;
		rc = add_cu(m, &cudie, unit_type == DW_UT_skeleton ? &subdie :
		    &cudie);
		if (rc < 0)
			return rc;
	}
	if (m->ncuranges > 1)
		qsort(m->curanges, m->ncuranges, sizeof(*m->curanges),
		    cmp_curange);
	return 0;
}

static struct pc_cu *
find_cu(struct pc_symmod *m, uint64_t dwaddr)
{
	size_t lo = 0, hi = m->ncuranges, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->curanges[mid].lo <= dwaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || dwaddr >= m->curanges[lo - 1].hi)
		return NULL;
	return &m->cus[m->curanges[lo - 1].cu];
}

/* --- one CU's function intervals ------------------------------------------ */

static bool
is_function_tag(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	    tag == DW_TAG_entry_point;
}

/* Tags whose children can hold functions with code. */
static bool
may_hold_code(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_entry_point:
	case DW_TAG_lexical_block:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_namespace:
	case DW_TAG_module:
		return true;
	default:
		return false;
	}
}

/* Record DIE as a node with its ranges; *IDX is -1 when it has no code. */
static int
add_node(struct pc_cu *cu, Dwarf_Die *die, int tag, int32_t parent,
    uint32_t depth, int32_t *idx)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	struct pc_node *n;

	*idx = -1;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (lo == 0 || lo >= hi)
			continue;
		if (*idx < 0) {
			if (PC_GROW(cu->nodes, cu->nodes_cap, cu->nnodes, 1) < 0)
				return PROFCONV_ENOMEM;
			*idx = (int32_t)cu->nnodes++;
			n = &cu->nodes[*idx];
			memset(n, 0, sizeof(*n));
			n->die = *die;
			n->parent = parent;
			n->inlined = tag == DW_TAG_inlined_subroutine;
			n->range0 = (uint32_t)cu->nranges;
		}
		cu->nodes[*idx].nranges++;
		if (PC_GROW(cu->ranges, cu->ranges_cap, cu->nranges, 1) < 0)
			return PROFCONV_ENOMEM;
		cu->ranges[cu->nranges].lo = lo;
		cu->ranges[cu->nranges].hi = hi;
		cu->ranges[cu->nranges].node = (uint32_t)*idx;
		cu->ranges[cu->nranges].depth = depth;
		cu->nranges++;
	}
	return 0;
}

/* A DIE whose children the walk is visiting, and its function node. */
struct walk_frame {
	Dwarf_Die die;
	int32_t node;
	uint32_t depth;
};

/*
 * The DIE after CUR among its siblings into *NEXT: 0, or 1 at the end of
 * the list with *END at the null entry that closes it (NULL when libdw
 * did not say where), or -1 on malformed data.
 */
static int
next_sibling(Dwarf_Die *cur, Dwarf_Die *next, unsigned char **end)
{
	int rc;

	next->addr = NULL;
	rc = dwarf_siblingof(cur, next);
	*end = rc == 1 ? next->addr : NULL;
	return rc;
}

/*
 * The sibling of the DIE whose children ended at the null entry END:
 * the entry right after it, unless that is a null entry as well (its
 * parent's list ends there too: *END moves to it and 1 is returned).
 * The Dwarf_Die is made the way dwarf_siblingof makes one: address and
 * unit, the rest cleared.
 */
static int
after_children(Dwarf_Die *parent, unsigned char **end,
    const unsigned char *cu_end, Dwarf_Die *next)
{
	unsigned char *p = *end + 1;

	if (p >= cu_end)
		return -1;
	if (*p == '\0') {
		*end = p;
		return 1;
	}
	memset(next, 0, sizeof(*next));
	next->addr = p;
	next->cu = parent->cu;
	return 0;
}

/* The first byte after the unit of CUDIE, for bounds checks. */
static const unsigned char *
unit_end(Dwarf_Die *cudie)
{
	Dwarf_Off die_off = dwarf_dieoffset(cudie), start, next = 0;
	Dwarf *dw = dwarf_cu_getdwarf(cudie->cu);

	start = die_off - dwarf_cuoffset(cudie);
	if (dw == NULL || dwarf_next_unit(dw, start, &next, NULL, NULL, NULL,
	    NULL, NULL, NULL, NULL) != 0 || next <= die_off)
		return NULL;
	return (const unsigned char *)cudie->addr + (next - die_off);
}

/*
 * Record the function nodes among the descendants of TOP, in DIE order,
 * with an explicit stack: nesting is bounded by nothing but the input.
 * Walking a DIE's children ends at the null entry that closes them, and
 * the DIE's sibling starts right after it, so no subtree is skipped over
 * twice (dwarf_siblingof on a DIE whose children were walked would scan
 * them again, which makes deep nesting quadratic).
 */
static int
walk_children(struct pc_cu *cu, Dwarf_Die *top)
{
	const unsigned char *cu_end = unit_end(top);
	struct walk_frame *stack = NULL, *f;
	size_t nstack = 0, cap = 0;
	unsigned char *end;
	Dwarf_Die cur, next;
	int32_t node;
	int tag, rc = 0, more;

	if (dwarf_child(top, &cur) != 0)
		return 0;
	if (PC_GROW(stack, cap, nstack, 1) < 0)
		return PROFCONV_ENOMEM;
	stack[nstack++] = (struct walk_frame){ *top, -1, 0 };
	for (;;) {
		f = &stack[nstack - 1];
		tag = dwarf_tag(&cur);
		node = f->node;
		if (is_function_tag(tag)) {
			rc = add_node(cu, &cur, tag, f->node, f->depth, &node);
			if (rc < 0)
				break;
		}
		/* A declaration (no code) has no inlined calls either. */
		if ((node >= 0 || !is_function_tag(tag)) &&
		    may_hold_code(tag) && dwarf_haschildren(&cur) &&
		    dwarf_child(&cur, &next) == 0) {
			uint32_t depth = node != f->node ? f->depth + 1 :
			    f->depth;

			/* F points into the stack, which may move now. */
			if ((rc = PC_GROW(stack, cap, nstack, 1)) < 0)
				break;
			stack[nstack++] = (struct walk_frame){ cur, node, depth };
			cur = next;
			continue;
		}
		more = next_sibling(&cur, &next, &end);
		while (more == 1 && --nstack > 0) {
			/* The children of the popped DIE are done. */
			f = &stack[nstack];
			if (end != NULL && cu_end != NULL)
				more = after_children(&f->die, &end, cu_end,
				    &next);
			else	/* libdw did not say where: skip again */
				more = next_sibling(&f->die, &next, &end);
		}
		if (more != 0)
			break;	/* the end, or malformed data: stop here */
		cur = next;
	}
	free(stack);
	return rc;
}

static int
cmp_range(const void *a, const void *b)
{
	const struct pc_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	/* At one start address the innermost range comes last. */
	if (x->depth != y->depth)
		return x->depth < y->depth ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static bool
ranges_sorted(const struct pc_cu *cu)
{
	size_t i;

	for (i = 1; i < cu->nranges; i++)
		if (cmp_range(&cu->ranges[i - 1], &cu->ranges[i]) > 0)
			return false;
	return true;
}

static int
index_cu(struct pc_cu *cu)
{
	size_t size;
	int rc;

	cu->indexed = true;
	rc = walk_children(cu, &cu->tree);
	if (rc < 0 || cu->nranges == 0)
		return rc;
	/* Keep each node's ranges together for the containment test. */
	size = cu->nranges * sizeof(*cu->ranges);
	cu->own = malloc(size);
	if (cu->own == NULL)
		return profconv__nomem();
	memcpy(cu->own, cu->ranges, size);
	/* Compilers mostly emit functions in address order already. */
	if (!ranges_sorted(cu))
		qsort(cu->ranges, cu->nranges, sizeof(*cu->ranges), cmp_range);
	return 0;
}

static bool
node_holds(const struct pc_cu *cu, const struct pc_node *n, uint64_t dwaddr)
{
	const struct pc_range *r = &cu->own[n->range0];
	uint32_t i;

	for (i = 0; i < n->nranges; i++)
		if (dwaddr >= r[i].lo && dwaddr < r[i].hi)
			return true;
	return false;
}

/*
 * The innermost function node whose ranges hold DWADDR, or -1.  Ranges
 * nest like their DIEs, so among the ranges that start at or before the
 * address the last one either holds it or lies inside one that does:
 * then one of its enclosing nodes holds the address.
 */
static int32_t
find_node(struct pc_cu *cu, uint64_t dwaddr)
{
	size_t lo = 0, hi = cu->nranges, mid, i;
	const struct pc_range *r;
	int32_t n;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cu->ranges[mid].lo <= dwaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	r = &cu->ranges[lo - 1];
	if (dwaddr < r->hi)
		return (int32_t)r->node;
	for (n = cu->nodes[r->node].parent; n >= 0; n = cu->nodes[n].parent)
		if (node_holds(cu, &cu->nodes[n], dwaddr))
			return n;
	/* Producers that break the nesting: look back a little. */
	for (i = lo - 1; i > 0 && lo - i < 64; i--)
		if (dwaddr >= cu->ranges[i - 1].lo && dwaddr < cu->ranges[i - 1].hi)
			return (int32_t)cu->ranges[i - 1].node;
	return -1;
}

/* The attributes of one DIE that naming and call sites need. */
enum {
	A_NAME, A_LINKAGE, A_DECL_LINE, A_ORIGIN, A_SPEC,
	A_CALL_FILE, A_CALL_LINE, A_CALL_COLUMN, A_COUNT
};

struct die_attrs {
	Dwarf_Attribute at[A_COUNT];
	unsigned int have;		/* bit (1 << A_x) per attribute found */
};

static int
attr_slot(unsigned int name)
{
	switch (name) {
	case DW_AT_name:
		return A_NAME;
	case DW_AT_linkage_name:
	case DW_AT_MIPS_linkage_name:
		return A_LINKAGE;
	case DW_AT_decl_line:
		return A_DECL_LINE;
	case DW_AT_abstract_origin:
		return A_ORIGIN;
	case DW_AT_specification:
		return A_SPEC;
	case DW_AT_call_file:
		return A_CALL_FILE;
	case DW_AT_call_line:
		return A_CALL_LINE;
	case DW_AT_call_column:
		return A_CALL_COLUMN;
	default:
		return -1;
	}
}

static int
collect_attr(Dwarf_Attribute *attr, void *arg)
{
	struct die_attrs *a = arg;
	int slot = attr_slot(dwarf_whatattr(attr));

	if (slot >= 0) {
		a->at[slot] = *attr;
		a->have |= 1u << slot;
	}
	return DWARF_CB_OK;
}

static bool
has(const struct die_attrs *a, int slot)
{
	return (a->have & 1u << slot) != 0;
}

/* Read the attributes of DIE in one pass (dwarf_attr rescans each time). */
static void
read_attrs(Dwarf_Die *die, struct die_attrs *a)
{
	a->have = 0;
	(void)dwarf_getattrs(die, collect_attr, a, 0);
}

/* Attribute SLOT of A as an unsigned number; -1 when absent. */
static int64_t
attr_udata(struct die_attrs *a, int slot)
{
	Dwarf_Word v;

	if (!has(a, slot) || dwarf_formudata(&a->at[slot], &v) != 0)
		return -1;
	return (int64_t)v;
}

/*
 * Fill OUT from DIE and the DIEs it refers to (abstract origin, then
 * specification), as dwarf_attr_integrate would, reading each DIE once.
 */
/* Is DIE in a C++ compilation unit? */
static bool
in_cxx_unit(Dwarf_Die *die)
{
	Dwarf_Die cu;

	if (dwarf_diecu(die, &cu, NULL, NULL) == NULL)
		return false;
	switch (dwarf_srclang(&cu)) {
	case DW_LANG_C_plus_plus:
	case DW_LANG_C_plus_plus_03:
	case DW_LANG_C_plus_plus_11:
	case DW_LANG_C_plus_plus_14:
		return true;
	default:
		return false;
	}
}

/*
 * NAME qualified by the scopes DECL is declared in, as llvm-symbolizer
 * names a function that has no linkage name (members of an anonymous
 * namespace, local classes): "(anonymous namespace)::Maker::operator()".
 * Interned in M's string table; NAME itself when there is nothing to add.
 */
static const char *
qualified_name(struct pc_symmod *m, Dwarf_Die *decl, const char *name)
{
	Dwarf_Die *scopes = NULL;
	char buf[1024];
	size_t len = 0, n;
	const char *part;
	uint32_t idx;
	int i, nscopes;

	nscopes = dwarf_getscopes_die(decl, &scopes);
	for (i = nscopes - 1; i >= 1; i--) {
		switch (dwarf_tag(&scopes[i])) {
		case DW_TAG_namespace:
			part = dwarf_diename(&scopes[i]);
			if (part == NULL)
				part = "(anonymous namespace)";
			break;
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_subprogram:
			part = dwarf_diename(&scopes[i]);
			if (part == NULL)
				part = "{lambda}";
			break;
		default:
			continue;
		}
		n = strlen(part);
		if (len + n + 2 >= sizeof(buf))
			break;
		memcpy(buf + len, part, n);
		memcpy(buf + len + n, "::", 2);
		len += n + 2;
	}
	free(scopes);
	n = strlen(name);
	if (len == 0 || len + n >= sizeof(buf))
		return name;
	memcpy(buf + len, name, n + 1);
	if (profconv__strtab_intern(&m->paths, buf, len + n, &idx) < 0)
		return name;
	return profconv__str(&m->paths, idx);
}

static void
names_of_die(struct pc_symmod *m, Dwarf_Die *die, struct die_attrs *a,
    struct pc_names *out)
{
	Dwarf_Attribute *next;
	Dwarf_Die mem, decl;
	bool have_decl = false;
	int hops;

	memset(out, 0, sizeof(*out));
	for (hops = 0; hops < 8; hops++) {
		if (out->linkage == NULL && has(a, A_LINKAGE))
			out->linkage = dwarf_formstring(&a->at[A_LINKAGE]);
		if (out->name == NULL && has(a, A_NAME)) {
			out->name = dwarf_formstring(&a->at[A_NAME]);
			decl = *die;
			have_decl = true;
		}
		if (out->start_line <= 0)
			out->start_line = attr_udata(a, A_DECL_LINE);
		next = has(a, A_ORIGIN) ? &a->at[A_ORIGIN] :
		    has(a, A_SPEC) ? &a->at[A_SPEC] : NULL;
		if (next == NULL || dwarf_formref_die(next, &mem) == NULL)
			break;
		die = &mem;
		read_attrs(die, a);
	}
	if (out->start_line < 0)
		out->start_line = 0;
	/* Without a linkage name a C++ function's DW_AT_name is bare
	 * ("operator()"): qualify it by its scopes.  C names need none. */
	if (out->linkage == NULL && out->name != NULL && have_decl &&
	    in_cxx_unit(&decl))
		out->name = qualified_name(m, &decl, out->name);
}

/*
 * The names of the function DIE (A: its attributes, or NULL to read them
 * when they are not cached yet), remembered by its offset.
 */
static int
cached_names(struct pc_symmod *m, Dwarf_Die *die, struct die_attrs *a,
    uint32_t *idx)
{
	uint64_t key = dwarf_dieoffset(die);
	struct die_attrs mine;
	int rc;

	if (profconv__u64map_get(&m->names_by_die, key, idx))
		return 0;
	if (a == NULL) {
		read_attrs(die, &mine);
		a = &mine;
	}
	rc = PC_GROW(m->names, m->names_cap, m->nnames, 1);
	if (rc == 0)
		rc = profconv__u64map_put(&m->names_by_die, key,
		    (uint32_t)m->nnames);
	if (rc < 0)
		return rc;
	names_of_die(m, die, a, &m->names[m->nnames]);
	*idx = (uint32_t)m->nnames++;
	return 0;
}

/*
 * Names, declaration line and call site of node N.  Inlined instances
 * of one function share its abstract origin, so names are looked up once
 * per origin.
 */
static int
resolve_node(struct pc_symmod *m, struct pc_node *n)
{
	struct die_attrs a;
	Dwarf_Die origin;

	read_attrs(&n->die, &a);
	n->call_file = attr_udata(&a, A_CALL_FILE);
	n->call_line = attr_udata(&a, A_CALL_LINE);
	n->call_column = attr_udata(&a, A_CALL_COLUMN);
	n->resolved = true;
	if (has(&a, A_ORIGIN) &&
	    dwarf_formref_die(&a.at[A_ORIGIN], &origin) != NULL)
		return cached_names(m, &origin, NULL, &n->names);
	return cached_names(m, &n->die, &a, &n->names);
}

/*
 * FILE as addr2line shows it: a relative name (clang writes them) is
 * joined to the CU's compilation directory.  Borrowed from M or libdw.
 */
static const char *
absolute_file(struct pc_symmod *m, struct pc_cu *cu, const char *file)
{
	Dwarf_Attribute attr;
	char buf[4096];
	uint32_t idx;

	if (file == NULL || file[0] == '/')
		return file;
	if (!cu->comp_dir_tried) {
		cu->comp_dir_tried = true;
		cu->comp_dir = dwarf_formstring(dwarf_attr(&cu->die,
		    DW_AT_comp_dir, &attr));
	}
	if (cu->comp_dir == NULL || cu->comp_dir[0] == '\0' ||
	    (size_t)snprintf(buf, sizeof(buf), "%s/%s", cu->comp_dir,
	    file) >= sizeof(buf) ||
	    profconv__strtab_intern_cstr(&m->paths, buf, &idx) < 0)
		return file;
	return profconv__str(&m->paths, idx);
}

/* The bytes of section NAME of M's DWARF file, or NULL. */
static const unsigned char *
section_bytes(struct pc_symmod *m, const char *name, size_t *size)
{
	Elf_Data *d = dwarf_section(m, name);

	*size = d != NULL ? d->d_size : 0;
	return d != NULL ? d->d_buf : NULL;
}

/*
 * Decode CU's line table ourselves, once; when that is not possible
 * exactly as libdw would, libdw's answers are used for the unit.
 */
static int
own_lines(struct pc_symmod *m, struct pc_cu *cu)
{
	Dwarf_Attribute attr;
	Dwarf_Word off;
	uint8_t asize = 0, osize;
	const char *ident;
	Dwarf_Die die;
	Elf *elf;
	int rc;

	cu->lines_tried = true;
	if (!m->linesec_tried) {
		m->linesec_tried = true;
		elf = dwarf_getelf(m->dw);
		ident = elf != NULL ? elf_getident(elf, NULL) : NULL;
		m->linesec_ok = ident != NULL && ident[EI_DATA] == ELFDATA2LSB &&
		    BYTE_ORDER == LITTLE_ENDIAN;
		m->linesec.line = section_bytes(m, ".debug_line",
		    &m->linesec.line_size);
		m->linesec.line_str = section_bytes(m, ".debug_line_str",
		    &m->linesec.line_str_size);
		m->linesec.str = section_bytes(m, ".debug_str",
		    &m->linesec.str_size);
	}
	if (!m->linesec_ok || dwarf_diecu(&cu->die, &die, &asize, &osize) ==
	    NULL || dwarf_formudata(dwarf_attr(&cu->die, DW_AT_stmt_list,
	    &attr), &off) != 0)
		return 0;
	if (!cu->comp_dir_tried) {
		cu->comp_dir_tried = true;
		cu->comp_dir = dwarf_formstring(dwarf_attr(&cu->die,
		    DW_AT_comp_dir, &attr));
	}
	rc = profconv__linetab_decode(&cu->lines, &m->linesec, off,
	    cu->comp_dir, asize, &m->lines_raw);
	cu->lines_ours = rc == 0;
	return rc < 0 ? rc : 0;
}

/* The name of file IDX of CU's line table, or NULL. */
static const char *
cu_file(struct pc_cu *cu, int64_t idx)
{
	if (idx < 0)
		return NULL;
	if (cu->lines_ours)
		return profconv__linetab_file(&cu->lines, (uint64_t)idx);
	if (!cu->files_tried) {
		cu->files_tried = true;
		if (dwarf_getsrcfiles(&cu->die, &cu->files, &cu->nfiles) != 0)
			cu->files = NULL;
	}
	if (cu->files == NULL || (size_t)idx >= cu->nfiles)
		return NULL;
	return dwarf_filesrc(cu->files, (size_t)idx, NULL, NULL);
}

/* The call site of inlined node N: file, line and column in its caller. */
static void
call_site(struct pc_symmod *m, struct pc_cu *cu, const struct pc_node *n,
    struct pc_frame *f)
{
	f->file = absolute_file(m, cu, cu_file(cu, n->call_file));
	f->line = n->call_line > 0 ? n->call_line : 0;
	f->column = n->call_column > 0 ? n->call_column : 0;
}

static int
frame_names(struct pc_symmod *m, struct pc_node *n, struct pc_frame *f)
{
	const struct pc_names *names;
	int rc;

	if (!n->resolved) {
		rc = resolve_node(m, n);
		if (rc < 0)
			return rc;
	}
	names = &m->names[n->names];
	f->name = names->name;
	f->linkage = names->linkage;
	f->start_line = names->start_line;
	return 0;
}

/* The source position of DWADDR from the CU's line table. */
static int
line_of(struct pc_symmod *m, struct pc_cu *cu, uint64_t dwaddr,
    struct pc_frame *f)
{
	const struct pc_linerow *row;
	Dwarf_Line *line;
	int v, rc;

	if (!cu->lines_tried && (rc = own_lines(m, cu)) < 0)
		return rc;
	if (cu->lines_ours) {
		row = profconv__linetab_find(&cu->lines, dwaddr);
		if (row != NULL) {
			f->file = absolute_file(m, cu, profconv__linetab_file(
			    &cu->lines, row->file));
			f->line = row->line;
			f->column = row->column;
		}
		return 0;
	}
	line = dwarf_getsrc_die(&cu->die, dwaddr);
	if (line == NULL)
		return 0;
	f->file = absolute_file(m, cu, dwarf_linesrc(line, NULL, NULL));
	if (dwarf_lineno(line, &v) == 0)
		f->line = v;
	if (dwarf_linecol(line, &v) == 0)
		f->column = v;
	return 0;
}

/*
 * Fill FRAMES from node N outwards: frame 0 has the line-table position
 * already; each further frame is the caller, positioned at the call site
 * of the frame inside it.  The chain ends at the first real subprogram.
 */
static int
inline_chain(struct pc_symmod *m, struct pc_cu *cu, int32_t n,
    struct pc_frame *frames, size_t max, size_t *count)
{
	struct pc_frame f = frames[0];
	size_t k = 0, total = 0;
	struct pc_node *node;
	int rc;

	for (;;) {
		node = &cu->nodes[n];
		rc = frame_names(m, node, &f);
		if (rc < 0)
			return rc;
		/* Too deep: the outermost frame overwrites the last slot. */
		frames[k < max ? k : max - 1] = f;
		k++;
		total++;
		if (!node->inlined || node->parent < 0)
			break;
		call_site(m, cu, node, &f);
		n = node->parent;
	}
	*count = total < max ? total : max;
	return 0;
}

int
profconv__symmod_lookup(struct pc_symmod *m, uint64_t addr,
    struct pc_frame *frames, size_t max, size_t *n,
    enum pc_frame_source *src)
{
	const struct pc_sym *sym;
	struct pc_cu *cu = NULL;
	uint64_t dwaddr;
	int32_t node = -1;
	int rc;

	*n = 0;
	*src = PC_FRAMES_NONE;
	memset(&frames[0], 0, sizeof(frames[0]));
	if (!m->dwarf_loaded) {
		rc = load_dwarf(m);
		if (rc < 0)
			return rc;
	}
	dwaddr = addr + m->main_bias - m->dw_bias;
	if (m->dw != NULL)
		cu = find_cu(m, dwaddr);
	if (cu != NULL) {
		if (!cu->indexed && (rc = index_cu(cu)) < 0)
			return rc;
		node = find_node(cu, dwaddr);
		if ((rc = line_of(m, cu, dwaddr, &frames[0])) < 0)
			return rc;
		*src = PC_FRAMES_DWARF;
	}
	if (node >= 0) {
		rc = inline_chain(m, cu, node, frames, max, n);
		if (rc < 0)
			return rc;
	}
	/* No function DIE, or one without a name: the symbol names it. */
	if (*n == 0 || frames[*n - 1].name == NULL) {
		sym = find_sym(m, addr);
		if (sym != NULL) {
			if (*n == 0)
				*n = 1;
			frames[*n - 1].name = sym->name;
			frames[*n - 1].linkage = NULL;
			if (*src == PC_FRAMES_NONE)
				*src = PC_FRAMES_SYMTAB;
		}
	}
	if (*n == 0 && frames[0].file != NULL)
		*n = 1;		/* a line without a function still helps */
	return 0;
}

bool
profconv__symmod_has_dwarf(struct pc_symmod *m)
{
	if (!m->dwarf_loaded && load_dwarf(m) < 0)
		return false;
	return m->dw != NULL;
}

/* Row I of our table against libdw's LINE: true when the same. */
static bool
same_row(struct pc_cu *cu, size_t i, Dwarf_Line *line)
{
	const struct pc_linerow *row = &cu->lines.rows[i];
	const char *ours, *theirs;
	Dwarf_Addr addr;
	bool end;
	int v;

	if (dwarf_lineaddr(line, &addr) != 0 || addr != row->addr ||
	    dwarf_lineendsequence(line, &end) != 0 || end != row->end ||
	    dwarf_lineno(line, &v) != 0 || v != row->line ||
	    dwarf_linecol(line, &v) != 0 || v != row->column)
		return false;
	ours = profconv__linetab_file(&cu->lines, row->file);
	theirs = dwarf_linesrc(line, NULL, NULL);
	return ours == theirs || (ours != NULL && theirs != NULL &&
	    strcmp(ours, theirs) == 0);
}

int
profconv__symmod_check_lines(struct pc_symmod *m, size_t *nrows)
{
	Dwarf_Lines *lines;
	size_t i, j, n;
	struct pc_cu *cu;
	int rc;

	*nrows = 0;
	if (!m->dwarf_loaded && (rc = load_dwarf(m)) < 0)
		return rc;
	for (i = 0; i < m->ncus; i++) {
		cu = &m->cus[i];
		if (!cu->lines_tried && (rc = own_lines(m, cu)) < 0)
			return rc;
		if (!cu->lines_ours)
			continue;	/* libdw answers for it anyway */
		if (dwarf_getsrclines(&cu->die, &lines, &n) != 0)
			return profconv__fail(PROFCONV_EFORMAT, "unit %zu: "
			    "decoded a line table libdw refuses", i);
		if (n != cu->lines.nrows)
			return profconv__fail(PROFCONV_EFORMAT, "unit %zu: "
			    "%zu line rows, libdw %zu", i, cu->lines.nrows, n);
		for (j = 0; j < n; j++)
			if (!same_row(cu, j, dwarf_onesrcline(lines, j)))
				return profconv__fail(PROFCONV_EFORMAT,
				    "unit %zu: line row %zu differs from "
				    "libdw's", i, j);
		*nrows += n;
	}
	return 0;
}

int
profconv__symmod_check(struct pc_symmod *m, size_t *nframes)
{
	struct pc_frame frames[16];
	enum pc_frame_source src;
	size_t i, j, n;
	int rc;

	*nframes = 0;
	if (!m->dwarf_loaded && (rc = load_dwarf(m)) < 0)
		return rc;
	/* Our line tables are libdw's, row for row. */
	if ((rc = profconv__symmod_check_lines(m, &n)) < 0)
		return rc;
	/* Every CU is walked; the start of each of its ranges looked up. */
	for (i = 0; i < m->ncus; i++) {
		struct pc_cu *cu = &m->cus[i];

		if (!cu->indexed && (rc = index_cu(cu)) < 0)
			return rc;
		for (j = 0; j < cu->nranges && j < 64; j++) {
			rc = profconv__symmod_lookup(m, cu->ranges[j].lo +
			    m->dw_bias - m->main_bias, frames, 16, &n, &src);
			if (rc < 0)
				return rc;
			*nframes += n;
		}
	}
	return 0;
}
