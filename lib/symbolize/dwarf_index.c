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
 * in the source is dwarf_frames.c's.  This file has the module, its
 * symbol table and its CU table; one CU's function intervals are
 * dwarf_nodes.c's, read from the DIEs' bytes by dwarf_own_walk.c.
 */

#include "config.h"

#include <dwarf.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	int c = PC_CMP(x->addr, y->addr);

	/* Best alias last, where the dedupe below keeps it. */
	if (c == 0)
		c = PC_CMP(x->rank, y->rank);
	return c != 0 ? c : strcmp(x->name, y->name);
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
	size_t lo;

	if (!m->symtab_loaded && load_symtab(m) < 0)
		return NULL;
	lo = PC_UPPER_BOUND(m->syms, m->nsyms, addr, addr);
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

	return PC_CMP(x->lo, y->lo);
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

Elf_Data *
profconv__elf_section(Elf *elf, const char *name)
{
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

Elf_Data *
profconv__dwarf_section(struct pc_symmod *m, const char *name)
{
	return profconv__elf_section(dwarf_getelf(m->dw), name);
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
	size_t k = PC_UPPER_BOUND(m->curanges, m->ncuranges, lo, dwaddr);

	if (k == 0 || dwaddr >= m->curanges[k - 1].hi)
		return NULL;
	return &m->cus[m->curanges[k - 1].cu];
}
