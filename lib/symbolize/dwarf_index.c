/* SPDX-License-Identifier: MIT */
/*
 * dwarf_index.c - the address index of one module: a sorted ELF symbol
 * table, a sorted table of CU address ranges, and per CU a sorted table
 * of function and inlined-call ranges, each built once on first use.
 *
 * libdw's own per-address scope walk (dwarf_getscopes) rereads the whole
 * CU for every address, milliseconds each in a large CU, and libdwfl's
 * CU lookup in 0.188 needs .debug_aranges, which clang does not emit by
 * default.  Both are avoided here: one pass over each CU's DIEs records
 * every DW_TAG_subprogram and DW_TAG_inlined_subroutine range with its
 * nesting, and an address is then a binary search plus a short walk up
 * the nesting.
 *
 * Cut here because this file only finds things (a symbol, a CU, the
 * innermost function node); what an address is called and where it is
 * in the source is dwarf_frames.c's.
 */

#include "config.h"

#include <dwarf.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/natsort.h"
#include "symbolize/dwarf_index.h"


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

/*
 * A symbol's preference among aliases at one address; NOTYPE_RANK, the
 * lowest, for a label without a type in code (assembly's _start,
 * _dl_start_user), which names only what no sized symbol covers.
 */
#define NOTYPE_RANK (-1)

static int
sym_rank(const GElf_Sym *sym)
{
	int bind = GELF_ST_BIND(sym->st_info);

	if (GELF_ST_TYPE(sym->st_info) == STT_NOTYPE)
		return NOTYPE_RANK;

	/* A sized global is what addr2line and nm -n users expect. */
	return (sym->st_size != 0 ? 4 : 0) + (bind == STB_GLOBAL ? 2 :
	    bind == STB_WEAK ? 1 : 0);
}

/*
 * How far a symbol of size 0 at ADDR (with ELF's BIAS) reaches: to the
 * end of its section SHNDX, as addr2line and eu-addr2line let it (so the
 * PLT is not "_init", nor what lies past .fini "_fini"); its own address
 * alone when the section is unknown.
 */
static uint64_t
sizeless_reach(Elf *elf, GElf_Word shndx, GElf_Addr addr, Dwarf_Addr bias)
{
	Elf_Scn *scn;
	GElf_Shdr sh;
	uint64_t end;

	if (elf == NULL || shndx == SHN_ABS || shndx == SHN_COMMON ||
	    shndx >= SHN_LORESERVE)
		return 1;
	scn = elf_getscn(elf, shndx);
	if (scn == NULL || gelf_getshdr(scn, &sh) == NULL ||
	    (sh.sh_flags & SHF_ALLOC) == 0)
		return 1;
	end = sh.sh_addr + sh.sh_size + bias;
	return end > addr ? end - addr : 1;
}

/* Whether section SHNDX of ELF holds code. */
static bool
code_section(Elf *elf, GElf_Word shndx)
{
	Elf_Scn *scn;
	GElf_Shdr sh;

	if (elf == NULL || shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
		return false;
	scn = elf_getscn(elf, shndx);
	return scn != NULL && gelf_getshdr(scn, &sh) != NULL &&
	    (sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) ==
	    (SHF_ALLOC | SHF_EXECINSTR);
}

/*
 * Drop the NOTYPE labels of M's sorted symbols that lie inside a sized
 * symbol: there, as in eu-addr2line, the sized one names the address.
 */
static void
drop_covered_labels(struct pc_symmod *m)
{
	uint64_t covered = 0;	/* end of the sized symbols so far */
	size_t j, k;

	for (j = 0, k = 0; j < m->nsyms; j++) {
		const struct pc_sym *s = &m->syms[j];

		if (s->rank == NOTYPE_RANK && s->addr < covered)
			continue;
		if (s->rank >= 4 && s->addr + s->size > covered)
			covered = s->addr + s->size;
		m->syms[k++] = *s;
	}
	m->nsyms = k;
}

static int
load_symtab(struct pc_symmod *m)
{
	int i, n = dwfl_module_getsymtab(m->mod);
	size_t j, k;
	const char *name;
	Dwarf_Addr bias;
	GElf_Addr addr;
	GElf_Word shndx;
	GElf_Sym sym;
	Elf *elf;
	int type;

	m->symtab_loaded = true;
	for (i = 1; i < n; i++) {
		elf = NULL;
		bias = 0;
		name = dwfl_module_getsym_info(m->mod, i, &sym, &addr, &shndx,
		    &elf, &bias);
		type = GELF_ST_TYPE(sym.st_info);
		if (name == NULL || name[0] == '\0' || sym.st_shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC &&
		    (type != STT_NOTYPE || !code_section(elf, shndx))))
			continue;
		if (PC_GROW(m->syms, m->syms_cap, m->nsyms, 1) < 0)
			return PROFCONV_ENOMEM;
		m->syms[m->nsyms].addr = addr - m->main_bias;
		m->syms[m->nsyms].size = sym.st_size != 0 ? sym.st_size :
		    sizeless_reach(elf, shndx, addr, bias);
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
	drop_covered_labels(m);
	return 0;
}

/* The function symbol covering file address ADDR, or NULL. */
const struct pc_sym *
profconv__dwarf_find_sym(struct pc_symmod *m, uint64_t addr)
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
	/* One without a size in ELF runs up to the next one, within its
	 * section (load_symtab). */
	if (addr - s->addr >= s->size)
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
Elf_Data *
profconv__dwarf_section(struct pc_symmod *m, const char *name)
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
		m->addr = profconv__dwarf_section(m, ".debug_addr");
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
 * Let index_cu read the DIEs of M's units itself where it can: units
 * whose DIEs lie in the .debug_info of the file libdw read (not split
 * units), of a little-endian file, with that file's .debug_abbrev.
 */
static void
own_walk_sections(struct pc_symmod *m)
{
	Elf *elf = dwarf_getelf(m->dw);
	Elf_Data *info, *abbrev, *rng;
	const unsigned char *lo, *p;
	GElf_Ehdr eh;
	size_t i;

	if (m->ncus == 0 || elf == NULL || gelf_getehdr(elf, &eh) == NULL ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB)
		return;
	info = profconv__dwarf_section(m, ".debug_info");
	abbrev = profconv__dwarf_section(m, ".debug_abbrev");
	if (info == NULL || abbrev == NULL || info->d_buf == NULL ||
	    abbrev->d_buf == NULL)
		return;
	rng = profconv__dwarf_section(m, ".debug_rnglists");
	if (rng != NULL && rng->d_buf == NULL)
		rng = NULL;
	lo = info->d_buf;
	for (i = 0; i < m->ncus; i++) {
		p = m->cus[i].tree.addr;
		if (m->cus[i].tree.addr != m->cus[i].die.addr || p == NULL ||
		    p < lo || p >= lo + info->d_size)
			continue;
		m->cus[i].abbrev = abbrev->d_buf;
		m->cus[i].abbrev_size = abbrev->d_size;
		m->cus[i].info_end = lo + info->d_size;
		if (rng != NULL) {
			m->cus[i].rnglists = rng->d_buf;
			m->cus[i].rnglists_size = rng->d_size;
		}
	}
}

/*
 * Read the module's DWARF and the address ranges of all its CUs from the
 * CU DIEs themselves, so a missing .debug_aranges costs nothing.
 */
int
profconv__dwarf_load(struct pc_symmod *m)
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
	own_walk_sections(m);
	return 0;
}

struct pc_cu *
profconv__dwarf_find_cu(struct pc_symmod *m, uint64_t dwaddr)
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

/* --- one CU's DIEs, read as bytes ------------------------------------------ */

/*
 * libdw's dwarf_tag, dwarf_child, dwarf_siblingof and dwarf_ranges look
 * up a DIE's abbreviation and scan its attributes again on every call,
 * 150 to 500 instructions each: most of the time to index a C++ unit,
 * whose every function holds dozens of inlined calls.  own_walk reads
 * the unit's abbreviations once into a table by code and then each DIE's
 * bytes once, taking DW_AT_low_pc, DW_AT_high_pc and DW_AT_sibling on
 * the way.  It records the same nodes in the same order as
 * walk_children, which it replaces: a function's ranges come from its
 * DW_AT_low_pc and DW_AT_high_pc when those are plain (DW_FORM_addr, and
 * an address or a constant), as dwarf_ranges would give them, and from
 * dwarf_ranges itself otherwise.  Whatever it does not read exactly as
 * libdw does (a form it does not know, a duplicate abbreviation code, a
 * DIE or a sibling reference out of the unit) makes it answer
 * PC_WALK_LIBDW: the caller then walks the unit with libdw.
 */
#define PC_WALK_LIBDW 1

/* Abbreviation codes above this are left to libdw (the table is an
 * array by code; compilers number them from 1). */
#define MAX_ABBREV_CODE 65536

struct wk_attr {
	uint32_t name, form;
};

struct wk_abbrev {
	uint32_t tag;
	uint32_t attr0, nattrs;		/* in wk.attrs */
	uint32_t size;			/* its attributes' bytes, when fixed */
	bool children, defined;
	bool fixed;			/* every form of a fixed size */
	bool sibling;			/* has a DW_AT_sibling */
};

struct wk {
	const unsigned char *p, *unit, *end;	/* unit: its header */
	unsigned addr_size, offset_size, version;
	bool bad;
	bool has_base;			/* the unit's base address: */
	uint64_t base;			/* DW_AT_low_pc of its DIE */
	struct pc_range *rl;		/* one DIE's range list */
	size_t nrl, rl_cap;
	struct wk_abbrev *abbrevs;
	size_t nabbrevs;
	struct wk_attr *attrs;
	size_t nattrs, attrs_cap;
};

static uint64_t
wk_uleb(const unsigned char **pp, const unsigned char *end, bool *bad)
{
	const unsigned char *p = *pp;
	uint64_t v = 0;
	unsigned shift = 0;
	unsigned char b;

	do {
		if (p >= end) {
			*bad = true;
			return 0;
		}
		b = *p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	*pp = p;
	return v;
}

static uint64_t
wk_fixed(struct wk *w, size_t n)
{
	uint64_t v = 0;
	size_t i;

	if ((size_t)(w->end - w->p) < n) {
		w->bad = true;
		return 0;
	}
	for (i = 0; i < n; i++)
		v |= (uint64_t)w->p[i] << (8 * i);
	w->p += n;
	return v;
}

static void
wk_skip(struct wk *w, uint64_t n)
{
	if ((uint64_t)(w->end - w->p) < n)
		w->bad = true;
	else
		w->p += n;
}

/* The bytes an attribute of FORM takes in W's unit, or -1 when that
 * depends on its value (or the form is not known). */
static int
wk_form_size(const struct wk *w, uint64_t form)
{
	switch (form) {
	case DW_FORM_flag_present: case DW_FORM_implicit_const:
		return 0;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag:
	case DW_FORM_strx1: case DW_FORM_addrx1:
		return 1;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2:
	case DW_FORM_addrx2:
		return 2;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		return 3;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_strx4:
	case DW_FORM_addrx4: case DW_FORM_ref_sup4:
		return 4;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		return 8;
	case DW_FORM_data16:
		return 16;
	case DW_FORM_addr:
		return (int)w->addr_size;
	case DW_FORM_ref_addr:
		return (int)(w->version < 3 ? w->addr_size : w->offset_size);
	case DW_FORM_sec_offset: case DW_FORM_strp: case DW_FORM_line_strp:
	case DW_FORM_strp_sup: case DW_FORM_GNU_strp_alt:
	case DW_FORM_GNU_ref_alt:
		return (int)w->offset_size;
	default:
		return -1;
	}
}

/* The abbreviations at OFF of ABBREV (SIZE bytes) into W. */
static int
wk_abbrevs(struct wk *w, const unsigned char *abbrev, size_t size,
    uint64_t off)
{
	const unsigned char *p, *end = abbrev + size;
	uint64_t code, tag, name, form;
	struct wk_abbrev *a;
	size_t cap = 0, n;
	bool bad = false;
	int fsize;

	if (off >= size)
		return PC_WALK_LIBDW;
	p = abbrev + off;
	for (;;) {
		code = wk_uleb(&p, end, &bad);
		if (bad || code == 0)
			break;
		tag = wk_uleb(&p, end, &bad);
		if (bad || p >= end || code > MAX_ABBREV_CODE ||
		    tag > UINT32_MAX)
			return PC_WALK_LIBDW;
		if (code >= w->nabbrevs) {
			n = w->nabbrevs;
			if (PC_GROW(w->abbrevs, cap, n, code + 1 - n) < 0)
				return PROFCONV_ENOMEM;
			memset(w->abbrevs + n, 0,
			    (code + 1 - n) * sizeof(*w->abbrevs));
			w->nabbrevs = code + 1;
		}
		a = &w->abbrevs[code];
		if (a->defined)
			return PC_WALK_LIBDW;
		a->defined = true;
		a->tag = (uint32_t)tag;
		a->children = *p++ != DW_CHILDREN_no;
		a->attr0 = (uint32_t)w->nattrs;
		a->fixed = true;
		for (;;) {
			name = wk_uleb(&p, end, &bad);
			form = wk_uleb(&p, end, &bad);
			if (bad || name > UINT32_MAX || form > UINT32_MAX)
				return PC_WALK_LIBDW;
			if (name == 0 && form == 0)
				break;
			if (form == DW_FORM_implicit_const)
				(void)wk_uleb(&p, end, &bad);	/* an SLEB */
			fsize = wk_form_size(w, form);
			if (fsize < 0)
				a->fixed = false;
			else
				a->size += (uint32_t)fsize;
			if (name == DW_AT_sibling)
				a->sibling = true;
			if (PC_GROW(w->attrs, w->attrs_cap, w->nattrs, 1) < 0)
				return PROFCONV_ENOMEM;
			w->attrs[w->nattrs++] = (struct wk_attr){
				(uint32_t)name, (uint32_t)form };
			a->nattrs++;
		}
	}
	return bad ? PC_WALK_LIBDW : 0;
}

/* What own_walk needs of one DIE. */
struct wk_die {
	const unsigned char *addr;
	const struct wk_abbrev *ab;	/* NULL: a null entry */
	uint64_t low, high, sibling, ranges;
	bool has_low, has_high, high_is_offset, has_ranges, has_sibling;
	bool ranges_offset;		/* DW_FORM_sec_offset */
	bool odd_pc;			/* a pc attribute of another form */
};

/* The value of the attribute of FORM at W->p, into *V where it is a
 * number own_walk uses; W->p moves past it.  False: a form not known. */
static bool
wk_value(struct wk *w, uint64_t form, uint64_t *v)
{
	bool bad = false;

	*v = 0;
	switch (form) {
	case DW_FORM_addr:
		*v = wk_fixed(w, w->addr_size);
		break;
	case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag:
	case DW_FORM_strx1: case DW_FORM_addrx1:
		*v = wk_fixed(w, 1);
		break;
	case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2:
	case DW_FORM_addrx2:
		*v = wk_fixed(w, 2);
		break;
	case DW_FORM_strx3: case DW_FORM_addrx3:
		*v = wk_fixed(w, 3);
		break;
	case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_strx4:
	case DW_FORM_addrx4: case DW_FORM_ref_sup4:
		*v = wk_fixed(w, 4);
		break;
	case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		*v = wk_fixed(w, 8);
		break;
	case DW_FORM_data16:
		wk_skip(w, 16);
		break;
	case DW_FORM_sdata: case DW_FORM_udata: case DW_FORM_ref_udata:
	case DW_FORM_strx: case DW_FORM_addrx: case DW_FORM_loclistx:
	case DW_FORM_rnglistx: case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
		*v = wk_uleb(&w->p, w->end, &bad);
		break;
	case DW_FORM_string:
		while (w->p < w->end && *w->p != '\0')
			w->p++;
		wk_skip(w, 1);
		break;
	case DW_FORM_ref_addr:
		wk_skip(w, w->version < 3 ? w->addr_size : w->offset_size);
		break;
	case DW_FORM_sec_offset:
		*v = wk_fixed(w, w->offset_size);
		break;
	case DW_FORM_strp: case DW_FORM_line_strp:
	case DW_FORM_strp_sup: case DW_FORM_GNU_strp_alt:
	case DW_FORM_GNU_ref_alt:
		wk_skip(w, w->offset_size);
		break;
	case DW_FORM_block1:
		wk_skip(w, wk_fixed(w, 1));
		break;
	case DW_FORM_block2:
		wk_skip(w, wk_fixed(w, 2));
		break;
	case DW_FORM_block4:
		wk_skip(w, wk_fixed(w, 4));
		break;
	case DW_FORM_block: case DW_FORM_exprloc:
		wk_skip(w, wk_uleb(&w->p, w->end, &bad));
		break;
	case DW_FORM_flag_present: case DW_FORM_implicit_const:
		break;
	default:
		return false;
	}
	if (bad)
		w->bad = true;
	return true;
}

/* Whose attribute values wk_die reads: none, a function's, all. */
enum wk_want { WK_NONE, WK_FUNCTIONS, WK_ALL };

/*
 * The DIE at W->p into *D, W->p after it.  False: unreadable.  A DIE
 * whose values WANT leaves out, its attributes of a fixed size and no
 * DW_AT_sibling among them, is stepped over in one step.
 */
static bool
wk_die(struct wk *w, struct wk_die *d, enum wk_want want)
{
	const struct wk_attr *at;
	uint64_t code, form, v;
	bool bad = false;
	uint32_t i;

	memset(d, 0, sizeof(*d));
	d->addr = w->p;
	code = wk_uleb(&w->p, w->end, &bad);
	if (bad)
		return false;
	if (code == 0)
		return true;
	if (code >= w->nabbrevs || !w->abbrevs[code].defined)
		return false;
	d->ab = &w->abbrevs[code];
	if (d->ab->fixed && !d->ab->sibling && (want == WK_NONE ||
	    (want == WK_FUNCTIONS && !is_function_tag((int)d->ab->tag)))) {
		if ((size_t)(w->end - w->p) < d->ab->size) {
			w->bad = true;
			return false;
		}
		w->p += d->ab->size;
		return true;
	}
	/* No attributes, no array to point into (it may be NULL). */
	at = d->ab->nattrs != 0 ? &w->attrs[d->ab->attr0] : NULL;
	for (i = 0; i < d->ab->nattrs; i++) {
		form = at[i].form;
		while (form == DW_FORM_indirect) {
			form = wk_uleb(&w->p, w->end, &bad);
			if (bad)
				return false;
		}
		if (!wk_value(w, form, &v) || w->bad)
			return false;
		switch (at[i].name) {
		case DW_AT_low_pc:
			if (d->has_low || d->odd_pc)
				break;	/* dwarf_attr: the first */
			if (form == DW_FORM_addr) {
				d->has_low = true;
				d->low = v;
			} else {
				d->odd_pc = true;
			}
			break;
		case DW_AT_high_pc:
			if (d->has_high || d->odd_pc)
				break;
			d->has_high = true;
			d->high = v;
			if (form == DW_FORM_data1 || form == DW_FORM_data2 ||
			    form == DW_FORM_data4 || form == DW_FORM_data8 ||
			    form == DW_FORM_udata)
				d->high_is_offset = true;
			else if (form != DW_FORM_addr)
				d->odd_pc = true;
			break;
		case DW_AT_ranges:
			if (d->has_ranges)
				break;
			d->has_ranges = true;
			d->ranges = v;
			d->ranges_offset = form == DW_FORM_sec_offset;
			break;
		case DW_AT_sibling:
			if (d->has_sibling)
				break;
			d->has_sibling = true;
			d->sibling = v;
			if (form != DW_FORM_ref1 && form != DW_FORM_ref2 &&
			    form != DW_FORM_ref4 && form != DW_FORM_ref8 &&
			    form != DW_FORM_ref_udata)
				return false;	/* libdw gives up there */
			break;
		default:
			break;
		}
	}
	return true;
}

/* Jump past the children of D by its DW_AT_sibling, as dwarf_siblingof
 * does; false when the reference leaves the unit or goes back. */
static bool
wk_jump(struct wk *w, const struct wk_die *d)
{
	if (d->sibling >= (uint64_t)(w->end - w->unit) ||
	    w->unit + d->sibling <= d->addr)
		return false;
	w->p = w->unit + d->sibling;
	return true;
}

/* Skip the children of the DIE D, W->p at its first child, the way
 * dwarf_siblingof does: by sibling references where DIEs have them. */
static bool
wk_skip_children(struct wk *w, const struct wk_die *d)
{
	struct wk_die c;
	size_t level = 1;

	if (d->has_sibling)
		return wk_jump(w, d);
	while (level > 0 && w->p < w->end) {
		if (!wk_die(w, &c, WK_NONE))
			return false;
		if (c.ab == NULL)
			level--;
		else if (c.ab->children && c.has_sibling) {
			if (!wk_jump(w, &c))
				return false;
		} else if (c.ab->children) {
			level++;
		}
	}
	return true;
}

/*
 * The DWARF 5 range list at OFF of CU's .debug_rnglists into W->rl, as
 * dwarf_ranges gives it for a DIE of the unit (from the unit's base
 * address); 1 for what is left to dwarf_ranges (entries through
 * .debug_addr, no base address, data out of the section), else 0 or an
 * error.
 */
static int
wk_rnglist(struct wk *w, struct pc_cu *cu, uint64_t off)
{
	const unsigned char *p, *end;
	struct wk r;
	uint64_t base, a, b;
	bool bad = false;
	unsigned kind;

	if (cu->rnglists == NULL || w->version < 5 ||
	    off >= cu->rnglists_size)
		return 1;
	end = cu->rnglists + cu->rnglists_size;
	if (!w->has_base)
		return 1;
	base = w->base;
	memset(&r, 0, sizeof(r));
	r.end = end;
	r.addr_size = w->addr_size;
	p = cu->rnglists + off;
	for (;;) {
		if (p >= end)
			return 1;
		kind = *p++;
		switch (kind) {
		case DW_RLE_end_of_list:
			return 0;
		case DW_RLE_offset_pair:
			a = wk_uleb(&p, end, &bad);
			b = wk_uleb(&p, end, &bad);
			a += base;
			b += base;
			break;
		case DW_RLE_base_address:
			r.p = p;
			base = wk_fixed(&r, r.addr_size);
			p = r.p;
			if (r.bad)
				return 1;
			continue;
		case DW_RLE_start_end:
			r.p = p;
			a = wk_fixed(&r, r.addr_size);
			b = wk_fixed(&r, r.addr_size);
			p = r.p;
			bad = bad || r.bad;
			break;
		case DW_RLE_start_length:
			r.p = p;
			a = wk_fixed(&r, r.addr_size);
			p = r.p;
			b = a + wk_uleb(&p, end, &bad);
			bad = bad || r.bad;
			break;
		default:	/* through .debug_addr, or unknown */
			return 1;
		}
		if (bad)
			return 1;
		if (PC_GROW(w->rl, w->rl_cap, w->nrl, 1) < 0)
			return PROFCONV_ENOMEM;
		w->rl[w->nrl++] = (struct pc_range){ a, b, 0, 0 };
	}
}

/* D as a node, as add_node would record it. */
static int
wk_node(struct wk *w, struct pc_cu *cu, const struct wk_die *d, int tag,
    int32_t parent, uint32_t depth, int32_t *idx)
{
	Dwarf_Die die;
	struct pc_node *n;
	uint64_t lo, hi;
	size_t i;
	int rc = 0;

	*idx = -1;
	if (!d->has_low && !d->has_high && !d->has_ranges && !d->odd_pc)
		return 0;	/* dwarf_ranges finds no range */
	/* Made as dwarf_siblingof makes one: address and unit. */
	memset(&die, 0, sizeof(die));
	die.addr = (void *)(uintptr_t)d->addr;
	die.cu = cu->tree.cu;
	w->nrl = 0;
	if (!d->odd_pc && d->has_low && d->has_high) {
		lo = d->low;
		hi = d->high_is_offset ? lo + d->high : d->high;
		if (PC_GROW(w->rl, w->rl_cap, w->nrl, 1) < 0)
			return PROFCONV_ENOMEM;
		w->rl[w->nrl++] = (struct pc_range){ lo, hi, 0, 0 };
	} else if (d->odd_pc || d->has_low || d->has_high ||
	    !d->ranges_offset || (rc = wk_rnglist(w, cu, d->ranges)) != 0) {
		if (rc < 0)
			return rc;
		return add_node(cu, &die, tag, parent, depth, idx);
	}
	for (i = 0; i < w->nrl; i++) {
		lo = w->rl[i].lo;
		hi = w->rl[i].hi;
		/* Code the linker discarded keeps ranges at address 0. */
		if (lo == 0 || lo >= hi)
			continue;
		if (*idx < 0) {
			if (PC_GROW(cu->nodes, cu->nodes_cap, cu->nnodes, 1) < 0)
				return PROFCONV_ENOMEM;
			*idx = (int32_t)cu->nnodes++;
			n = &cu->nodes[*idx];
			memset(n, 0, sizeof(*n));
			n->die = die;
			n->parent = parent;
			n->inlined = tag == DW_TAG_inlined_subroutine;
			n->range0 = (uint32_t)cu->nranges;
		}
		cu->nodes[*idx].nranges++;
		if (PC_GROW(cu->ranges, cu->ranges_cap, cu->nranges, 1) < 0)
			return PROFCONV_ENOMEM;
		cu->ranges[cu->nranges++] = (struct pc_range){ lo, hi,
		    (uint32_t)*idx, depth };
	}
	return 0;
}

/* A DIE whose children own_walk is reading. */
struct wk_frame {
	int32_t node;
	uint32_t depth;
};

/*
 * walk_children of CU's unit DIE, reading the DIEs here: 0, an error,
 * or PC_WALK_LIBDW (then CU's nodes and ranges are to be made again).
 */
static int
own_walk(struct pc_cu *cu)
{
	Dwarf *dw = dwarf_cu_getdwarf(cu->tree.cu);
	Dwarf_Off die_off = dwarf_dieoffset(&cu->tree), start, next = 0;
	Dwarf_Off abbrev_off = 0;
	Dwarf_Half version = 0;
	uint8_t addr_size = 0, offset_size = 0;
	struct wk_frame *stack = NULL, *f;
	size_t nstack = 0, cap = 0;
	struct wk w;
	struct wk_die d;
	int32_t node;
	int tag, rc;

	start = die_off - dwarf_cuoffset(&cu->tree);
	if (dw == NULL || die_off < start ||
	    dwarf_next_unit(dw, start, &next, NULL, &version, &abbrev_off,
	    &addr_size, &offset_size, NULL, NULL) != 0 || next <= die_off ||
	    (addr_size != 4 && addr_size != 8) ||
	    (offset_size != 4 && offset_size != 8))
		return PC_WALK_LIBDW;
	memset(&w, 0, sizeof(w));
	w.unit = (const unsigned char *)cu->tree.addr - (die_off - start);
	/* A unit whose length runs past its section is libdw's to judge. */
	if (cu->info_end == NULL || cu->info_end < w.unit ||
	    next - start > (Dwarf_Off)(cu->info_end - w.unit))
		return PC_WALK_LIBDW;
	w.end = w.unit + (next - start);
	w.p = cu->tree.addr;
	w.addr_size = addr_size;
	w.offset_size = offset_size;
	w.version = version;
	rc = wk_abbrevs(&w, cu->abbrev, cu->abbrev_size, abbrev_off);
	if (rc != 0)
		goto out;
	rc = PC_WALK_LIBDW;
	if (!wk_die(&w, &d, WK_ALL) || d.ab == NULL)
		goto out;
	{
		Dwarf_Addr base;

		/* Range lists start from here (dwarf_ranges' base). */
		if (d.has_low && dwarf_lowpc(&cu->tree, &base) == 0) {
			w.has_base = true;
			w.base = base;
		}
	}
	rc = 0;
	if (!d.ab->children)
		goto out;
	if (PC_GROW(stack, cap, nstack, 1) < 0) {
		rc = PROFCONV_ENOMEM;
		goto out;
	}
	stack[nstack++] = (struct wk_frame){ -1, 0 };
	while (nstack > 0 && w.p < w.end) {
		if (!wk_die(&w, &d, WK_FUNCTIONS)) {
			rc = PC_WALK_LIBDW;
			break;
		}
		if (d.ab == NULL) {	/* the end of a list of children */
			nstack--;
			continue;
		}
		f = &stack[nstack - 1];
		tag = (int)d.ab->tag;
		node = f->node;
		if (is_function_tag(tag) &&
		    (rc = wk_node(&w, cu, &d, tag, f->node, f->depth,
		    &node)) < 0)
			break;
		if ((node >= 0 || !is_function_tag(tag)) &&
		    may_hold_code(tag) && d.ab->children) {
			uint32_t depth = node != f->node ? f->depth + 1 :
			    f->depth;

			if ((rc = PC_GROW(stack, cap, nstack, 1)) < 0)
				break;
			stack[nstack++] = (struct wk_frame){ node, depth };
			continue;
		}
		if (d.ab->children && !wk_skip_children(&w, &d)) {
			rc = PC_WALK_LIBDW;
			break;
		}
	}
out:
	free(stack);
	free(w.abbrevs);
	free(w.attrs);
	free(w.rl);
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

/* Ranges come in DIE order, which in one function is mostly address
 * order already (a C++ unit's functions are in sections of their own,
 * so the unit as a whole is not); cmp_range is a total order over a
 * unit's ranges, so the result is qsort's. */
PC_NATURAL_MERGE_SORT(merge_sort_ranges, struct pc_range, cmp_range)

int
profconv__dwarf_index_cu(struct pc_cu *cu)
{
	size_t size;
	int rc;

	cu->indexed = true;
	rc = cu->abbrev != NULL ? own_walk(cu) : PC_WALK_LIBDW;
	if (rc == PC_WALK_LIBDW) {
		/* Start again, the way libdw walks. */
		cu->nnodes = cu->nranges = 0;
		rc = walk_children(cu, &cu->tree);
	}
	if (rc < 0 || cu->nranges == 0)
		return rc;
	/* Keep each node's ranges together for the containment test. */
	size = cu->nranges * sizeof(*cu->ranges);
	cu->own = malloc(size);
	if (cu->own == NULL)
		return profconv__nomem();
	memcpy(cu->own, cu->ranges, size);
	/* Compilers mostly emit functions in address order already. */
	if (!ranges_sorted(cu)) {
		struct pc_range *tmp = malloc(size);

		if (tmp == NULL)
			qsort(cu->ranges, cu->nranges, sizeof(*cu->ranges),
			    cmp_range);
		else
			merge_sort_ranges(cu->ranges, tmp, cu->nranges);
		free(tmp);
	}
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
int32_t
profconv__dwarf_find_node(struct pc_cu *cu, uint64_t dwaddr)
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
