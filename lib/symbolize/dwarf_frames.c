/* SPDX-License-Identifier: MIT */
/*
 * dwarf_frames.c - the frames of one address of a module, from the index
 * dwarf_index.c builds: function names (with their abstract origins and
 * C++ scopes), file names, the line table's position, and the chain of
 * inlined calls out to the real function; plus the self-checks the fuzz
 * harness and the line-table tests run.
 *
 * Cut here because this is where DIEs are read for their attributes and
 * strings: the index only records where functions are.  Line tables are
 * decoded by linetable.c when it reads them exactly as libdw would,
 * else libdw answers (dwarf_getsrc_die), parsed once per CU.
 */

#include "config.h"

#include <dwarf.h>
#include <endian.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/dwarf_index.h"

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

/*
 * Fill OUT from DIE and the DIEs it refers to (abstract origin, then
 * specification), as dwarf_attr_integrate would, reading each DIE once.
 */
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

/* CU's DW_AT_comp_dir (borrowed from libdw), or NULL; read once. */
static const char *
comp_dir(struct pc_cu *cu)
{
	Dwarf_Attribute attr;

	if (!cu->comp_dir_tried) {
		cu->comp_dir_tried = true;
		cu->comp_dir = dwarf_formstring(dwarf_attr(&cu->die,
		    DW_AT_comp_dir, &attr));
	}
	return cu->comp_dir;
}

/*
 * FILE as addr2line shows it: a relative name (clang writes them) is
 * joined to the CU's compilation directory.  Borrowed from M or libdw.
 */
static const char *
absolute_file(struct pc_symmod *m, struct pc_cu *cu, const char *file)
{
	char buf[4096];
	uint32_t idx;

	if (file == NULL || file[0] == '/')
		return file;
	(void)comp_dir(cu);
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
	Elf_Data *d = profconv__dwarf_section(m, name);

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
	rc = profconv__linetab_decode(&cu->lines, &m->linesec, off,
	    comp_dir(cu), asize, &m->lines_raw);
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
		rc = profconv__dwarf_load(m);
		if (rc < 0)
			return rc;
	}
	dwaddr = addr + m->main_bias - m->dw_bias;
	if (m->dw != NULL)
		cu = profconv__dwarf_find_cu(m, dwaddr);
	if (cu != NULL) {
		if (!cu->indexed && (rc = profconv__dwarf_index_cu(cu)) < 0)
			return rc;
		node = profconv__dwarf_find_node(cu, dwaddr);
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
		sym = profconv__dwarf_find_sym(m, addr);
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
	/* Every frame of the chain is of this unit: its files were
	 * compiled in its build directory (a source root for them). */
	for (size_t i = 0; cu != NULL && i < *n; i++)
		frames[i].comp_dir = frames[i].file != NULL ? comp_dir(cu) :
		    NULL;
	return 0;
}

bool
profconv__symmod_start(struct pc_symmod *m, uint64_t addr,
    const struct pc_frame *outer, uint64_t *start)
{
	const char *name = outer->linkage != NULL ? outer->linkage :
	    outer->name;
	const struct pc_sym *sym;

	if (name == NULL)
		return false;
	sym = profconv__dwarf_find_sym(m, addr);
	if (sym == NULL || strcmp(sym->name, name) != 0)
		return false;
	*start = sym->addr;
	return true;
}

bool
profconv__symmod_has_dwarf(struct pc_symmod *m)
{
	if (!m->dwarf_loaded && profconv__dwarf_load(m) < 0)
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
	if (!m->dwarf_loaded && (rc = profconv__dwarf_load(m)) < 0)
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
	if (!m->dwarf_loaded && (rc = profconv__dwarf_load(m)) < 0)
		return rc;
	/* Our line tables are libdw's, row for row. */
	if ((rc = profconv__symmod_check_lines(m, &n)) < 0)
		return rc;
	/* Every CU is walked; the start of each of its ranges looked up. */
	for (i = 0; i < m->ncus; i++) {
		struct pc_cu *cu = &m->cus[i];

		if (!cu->indexed && (rc = profconv__dwarf_index_cu(cu)) < 0)
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
