/* SPDX-License-Identifier: MIT */
/*
 * dwarf_own_walk.c - one CU's DIEs, read as bytes: the unit's
 * abbreviations and each DIE's attributes read once, into the same
 * function nodes and ranges as dwarf_nodes.c's walk with libdw.
 */

#include "config.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/dwarf_index.h"
#include "symbolize/dwarf_walk.h"

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
	    (want == WK_FUNCTIONS &&
	    !profconv__dwarf_is_function_tag((int)d->ab->tag)))) {
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

/* D as a node, as profconv__dwarf_add_node would record it. */
static int
wk_node(struct wk *w, struct pc_cu *cu, const struct wk_die *d, int tag,
    int32_t parent, uint32_t depth, int32_t *idx)
{
	Dwarf_Die die;
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
		return profconv__dwarf_add_node(cu, &die, tag, parent, depth,
		    idx);
	}
	for (i = 0, rc = 0; rc == 0 && i < w->nrl; i++)
		rc = profconv__dwarf_add_range(cu, &die, tag, parent, depth,
		    w->rl[i].lo, w->rl[i].hi, idx);
	return rc;
}

/* A DIE whose children own_walk is reading. */
struct wk_frame {
	int32_t node;
	uint32_t depth;
};

/*
 * dwarf_nodes.c's walk_children of CU's unit DIE, reading the DIEs
 * here: 0, an error, or PC_WALK_LIBDW (then CU's nodes and ranges are to
 * be made again).
 */
int
profconv__dwarf_own_walk(struct pc_cu *cu)
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
		if (profconv__dwarf_is_function_tag(tag) &&
		    (rc = wk_node(&w, cu, &d, tag, f->node, f->depth,
		    &node)) < 0)
			break;
		if ((node >= 0 || !profconv__dwarf_is_function_tag(tag)) &&
		    profconv__dwarf_may_hold_code(tag) && d.ab->children) {
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
