/* SPDX-License-Identifier: MIT */
/*
 * linetable.c - decode one compile unit's DWARF line table (versions 2
 * to 5) into a sorted array of rows and its file names, with the same
 * answers as libdw 0.188's dwarf_getsrclines, dwarf_getsrc_die and
 * dwarf_linesrc.
 *
 * libdw's decoder links every row in a list, sorts pointers to them and
 * copies them out: most of the symbolizer's time in a large program
 * (about 700 instructions a row).  This one appends rows to an array
 * that is usually sorted already, reads only the sections it is given,
 * and keeps no state outside its result, so threads may decode the units
 * of one file at once.  Whatever it does not read exactly as libdw does
 * (a form it does not know, data libdw would call invalid, a field that
 * would overflow libdw's row) makes it answer PC_LINES_LIBDW: the caller
 * then asks libdw, which gives libdw's answer by definition.
 */

#include "config.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "base/natsort.h"
#include "symbolize/symbolize.h"

/* A reader over [p, end) that fails once it would read past END. */
struct rd {
	const unsigned char *p, *end;
	bool bad;
};

static uint64_t
rd_fixed(struct rd *r, size_t n)
{
	uint64_t v = 0;
	size_t i;

	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		return 0;
	}
	for (i = 0; i < n; i++)	/* little-endian files only */
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

/* An LEB128 number: its low 64 bits, and in *SHIFT and *LAST where its
 * sign bit lies (r->bad when it runs past the end). */
static uint64_t
rd_leb(struct rd *r, unsigned *shift, unsigned char *last)
{
	uint64_t v = 0;
	unsigned char b;

	*shift = 0;
	do {
		if (r->bad || r->p >= r->end) {
			r->bad = true;
			*last = 0;
			return 0;
		}
		b = *r->p++;
		if (*shift < 64)
			v |= (uint64_t)(b & 0x7f) << *shift;
		*shift += 7;
	} while (b & 0x80);
	*last = b;
	return v;
}

static uint64_t
rd_uleb(struct rd *r)
{
	unsigned shift;
	unsigned char last;

	return rd_leb(r, &shift, &last);
}

static int64_t
rd_sleb(struct rd *r)
{
	unsigned shift;
	unsigned char last;
	uint64_t v = rd_leb(r, &shift, &last);

	if (shift < 64 && (last & 0x40))
		v |= ~(uint64_t)0 << shift;
	return (int64_t)v;
}

/* A NUL-terminated string at R's position; NULL when it has no NUL. */
static const char *
rd_cstr(struct rd *r)
{
	const unsigned char *nul;
	const char *s;

	if (r->bad || (nul = memchr(r->p, '\0', (size_t)(r->end - r->p))) ==
	    NULL) {
		r->bad = true;
		return NULL;
	}
	s = (const char *)r->p;
	r->p = nul + 1;
	return s;
}

/* The string at OFF of a string section, or NULL. */
static const char *
section_str(const unsigned char *sec, size_t size, uint64_t off)
{
	if (sec == NULL || off >= size ||
	    memchr(sec + off, '\0', size - off) == NULL)
		return NULL;
	return (const char *)sec + off;
}

/* What a header's entry formats describe, for versions 5 and later. */
struct entry_fmt {
	uint64_t content[32], form[32];
	unsigned n;
};

/*
 * Read one value of FORM: a string into *STR (when STR), a number into
 * *NUM (when NUM).  False for a form this reader does not know.
 */
static bool
read_form(struct rd *r, uint64_t form, unsigned offset_size,
    const struct pc_line_sections *sec, const char **str, uint64_t *num)
{
	uint64_t v = 0, len;

	switch (form) {
	case DW_FORM_string:
		if (str != NULL)
			*str = rd_cstr(r);
		else
			(void)rd_cstr(r);
		return num == NULL;
	case DW_FORM_line_strp:
	case DW_FORM_strp:
		v = rd_fixed(r, offset_size);
		if (str != NULL)
			*str = form == DW_FORM_strp ?
			    section_str(sec->str, sec->str_size, v) :
			    section_str(sec->line_str, sec->line_str_size, v);
		return num == NULL;
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
		v = rd_fixed(r, form == DW_FORM_data1 ? 1 : form ==
		    DW_FORM_data2 ? 2 : form == DW_FORM_data4 ? 4 : 8);
		break;
	case DW_FORM_udata:
		v = rd_uleb(r);
		break;
	case DW_FORM_data16:
		(void)rd_fixed(r, 8);
		(void)rd_fixed(r, 8);
		return str == NULL && num == NULL;
	case DW_FORM_block:
		len = rd_uleb(r);
		if (r->bad || len > (uint64_t)(r->end - r->p))
			r->bad = true;
		else
			r->p += len;
		return str == NULL && num == NULL;
	default:
		return false;
	}
	if (num != NULL)
		*num = v;
	return str == NULL;
}

static bool
known_form(uint64_t form)
{
	switch (form) {
	case DW_FORM_string:
	case DW_FORM_line_strp:
	case DW_FORM_strp:
	case DW_FORM_data1:
	case DW_FORM_data2:
	case DW_FORM_data4:
	case DW_FORM_data8:
	case DW_FORM_udata:
	case DW_FORM_data16:
	case DW_FORM_block:
		return true;
	default:
		return false;
	}
}

/*
 * An entry format list; false for one this reader does not take as
 * libdw does: a form it does not know, or no path (nor, for files, no
 * directory index) when there are formats at all.
 */
static bool
read_formats(struct rd *r, struct entry_fmt *f, bool files)
{
	bool path = false, dir = false;
	unsigned i;

	f->n = (unsigned)rd_fixed(r, 1);
	if (f->n > 32)
		return false;
	for (i = 0; i < f->n; i++) {
		f->content[i] = rd_uleb(r);
		f->form[i] = rd_uleb(r);
		if (!known_form(f->form[i]))
			return false;
		path |= f->content[i] == DW_LNCT_path;
		dir |= f->content[i] == DW_LNCT_directory_index;
	}
	if (f->n > 0 && (!path || (files && !dir)))
		return false;
	return !r->bad;
}

/* The line program's header, as the decoder needs it. */
struct header {
	unsigned version, offset_size, address_size;
	unsigned min_len, max_ops, line_range, opcode_base;
	int line_base;
	bool default_stmt;
	const unsigned char *std_len;	/* [1, opcode_base) */
	const char **dirs;
	size_t ndirs;
};

static int
add_file(struct pc_linetab *t, const char *name)
{
	if (PC_GROW(t->files, t->files_cap, t->nfiles, 1) < 0)
		return PROFCONV_ENOMEM;
	t->files[t->nfiles++] = name;
	return 0;
}

#define RAW_CHUNK ((size_t)64 << 10)

const char *
profconv__rawpool_add(struct pc_rawpool *p, const char *s, size_t len)
{
	size_t size = len + 1 > RAW_CHUNK ? len + 1 : RAW_CHUNK;
	char *out;

	if (len + 1 > p->left) {
		if (PC_GROW(p->chunks, p->chunks_cap, p->nchunks, 1) < 0 ||
		    (p->cur = malloc(size)) == NULL) {
			p->left = 0;
			return NULL;
		}
		p->chunks[p->nchunks++] = p->cur;
		p->left = size;
	}
	out = p->cur;
	memcpy(out, s, len);
	out[len] = '\0';
	p->cur += len + 1;
	p->left -= len + 1;
	return out;
}

void
profconv__rawpool_free(struct pc_rawpool *p)
{
	size_t i;

	for (i = 0; i < p->nchunks; i++)
		free(p->chunks[i]);
	free(p->chunks);
	memset(p, 0, sizeof(*p));
}

/* DIR/NAME as libdw builds it (NAME alone when absolute or no DIR). */
static int
file_name(struct pc_rawpool *names, const char *dir, const char *name,
    const char **out)
{
	size_t dl, nl;
	char *buf;

	if (name[0] == '/' || dir == NULL) {
		*out = name;
		return 0;
	}
	dl = strlen(dir);
	nl = strlen(name);
	buf = malloc(dl + nl + 2);
	if (buf == NULL)
		return profconv__nomem();
	memcpy(buf, dir, dl);
	buf[dl] = '/';
	memcpy(buf + dl + 1, name, nl + 1);
	*out = profconv__rawpool_add(names, buf, dl + 1 + nl);
	free(buf);
	return *out != NULL ? 0 : profconv__nomem();
}

/* The file NAME of directory DIR (joined as libdw joins them) added to
 * T's files. */
static int
add_dir_file(struct pc_linetab *t, struct pc_rawpool *names, const char *dir,
    const char *name)
{
	const char *s;
	int rc = file_name(names, dir, name, &s);

	return rc < 0 ? rc : add_file(t, s);
}

/* The entry formats of a version 5 table (FILES: the file names') and
 * its count of entries into *N, which the bytes left can hold; false
 * on a malformed table. */
static bool
read_table_start(struct rd *r, struct entry_fmt *f, bool files, uint64_t *n)
{
	if (!read_formats(r, f, files))
		return false;
	*n = rd_uleb(r);
	return !r->bad && !(f->n == 0 && *n != 0) &&
	    !(f->n != 0 && *n > (uint64_t)(r->end - r->p) / f->n);
}

/* Directories and files of a version 5 header. */
static int
read_v5_tables(struct rd *r, struct header *h, struct pc_linetab *t,
    const struct pc_line_sections *sec, struct pc_rawpool *names)
{
	struct entry_fmt f;
	const char *s, *name;
	uint64_t n, i, num, dir;
	unsigned k;
	int path, rc;

	if (!read_table_start(r, &f, false, &n))
		return PC_LINES_LIBDW;
	h->dirs = calloc(n + 1, sizeof(*h->dirs));
	if (h->dirs == NULL)
		return profconv__nomem();
	h->ndirs = n;
	for (i = 0; i < n; i++) {
		for (k = 0, path = 0; k < f.n; k++) {
			s = NULL;
			if (f.content[k] == DW_LNCT_path) {
				if (!read_form(r, f.form[k], h->offset_size,
				    sec, &s, NULL))
					return PC_LINES_LIBDW;
				h->dirs[i] = s;
				path = 1;
			} else if (!read_form(r, f.form[k], h->offset_size,
			    sec, NULL, NULL)) {
				return PC_LINES_LIBDW;
			}
		}
		if (!path || h->dirs[i] == NULL || r->bad)
			return PC_LINES_LIBDW;
	}
	if (!read_table_start(r, &f, true, &n))
		return PC_LINES_LIBDW;
	/* libdw's slot 0 is "???" when the table is empty. */
	if (n == 0 && (rc = add_file(t, "???")) < 0)
		return rc;
	for (i = 0; i < n; i++) {
		name = NULL;
		dir = UINT64_MAX;
		for (k = 0; k < f.n; k++) {
			if (f.content[k] == DW_LNCT_path) {
				if (!read_form(r, f.form[k], h->offset_size,
				    sec, &name, NULL))
					return PC_LINES_LIBDW;
			} else if (f.content[k] == DW_LNCT_directory_index) {
				if (!read_form(r, f.form[k], h->offset_size,
				    sec, NULL, &num))
					return PC_LINES_LIBDW;
				dir = num;
			} else if (!read_form(r, f.form[k], h->offset_size,
			    sec, NULL, NULL)) {
				return PC_LINES_LIBDW;
			}
		}
		if (r->bad || name == NULL || dir >= h->ndirs)
			return PC_LINES_LIBDW;
		if ((rc = add_dir_file(t, names, h->dirs[dir], name)) < 0)
			return rc;
	}
	return 0;
}

/* Directories and files of a version 2 to 4 header. */
static int
read_v4_tables(struct rd *r, struct header *h, struct pc_linetab *t,
    const char *comp_dir, struct pc_rawpool *names)
{
	const unsigned char *p;
	const char *name;
	size_t n = 1;
	uint64_t dir;
	int rc;

	for (p = r->p; p < r->end && *p != '\0'; n++) {
		p = memchr(p, '\0', (size_t)(r->end - p));
		if (p == NULL)
			return PC_LINES_LIBDW;
		p++;
	}
	h->dirs = calloc(n + 1, sizeof(*h->dirs));
	if (h->dirs == NULL)
		return profconv__nomem();
	h->ndirs = n;
	h->dirs[0] = comp_dir;
	for (n = 1; n < h->ndirs; n++)
		h->dirs[n] = rd_cstr(r);
	if (rd_fixed(r, 1) != 0 || r->bad)
		return PC_LINES_LIBDW;
	if ((rc = add_file(t, "???")) < 0)
		return rc;
	if (r->p >= r->end)
		return PC_LINES_LIBDW;
	while (r->p < r->end && *r->p != '\0') {
		name = rd_cstr(r);
		dir = rd_uleb(r);
		(void)rd_uleb(r);	/* modification time */
		(void)rd_uleb(r);	/* length */
		if (r->bad || dir >= h->ndirs)
			return PC_LINES_LIBDW;
		if ((rc = add_dir_file(t, names, h->dirs[dir], name)) < 0)
			return rc;
	}
	if (rd_fixed(r, 1) != 0 || r->bad)
		return PC_LINES_LIBDW;
	return 0;
}

/* The header from R's position; R then covers the line program. */
static int
read_header(struct rd *r, struct header *h, struct pc_linetab *t,
    const struct pc_line_sections *sec, const char *comp_dir,
    struct pc_rawpool *names)
{
	const unsigned char *start;
	uint64_t len, hlen;
	int rc;

	h->offset_size = 4;
	len = rd_fixed(r, 4);
	if (len == 0xffffffff) {
		h->offset_size = 8;
		len = rd_fixed(r, 8);
	}
	if (r->bad || len > (uint64_t)(r->end - r->p))
		return PC_LINES_LIBDW;
	r->end = r->p + len;
	h->version = (unsigned)rd_fixed(r, 2);
	if (h->version < 2 || h->version > 5)
		return PC_LINES_LIBDW;
	if (h->version >= 5 && (rd_fixed(r, 1) != h->address_size ||
	    rd_fixed(r, 1) != 0))
		return PC_LINES_LIBDW;
	hlen = rd_fixed(r, h->offset_size);
	start = r->p;
	h->min_len = (unsigned)rd_fixed(r, 1);
	h->max_ops = h->version >= 4 ? (unsigned)rd_fixed(r, 1) : 1;
	h->default_stmt = rd_fixed(r, 1) != 0;
	h->line_base = (int8_t)rd_fixed(r, 1);
	h->line_range = (unsigned)rd_fixed(r, 1);
	h->opcode_base = (unsigned)rd_fixed(r, 1);
	if (r->bad || h->max_ops == 0 || h->opcode_base == 0 ||
	    (size_t)(r->end - r->p) < h->opcode_base - 1)
		return PC_LINES_LIBDW;
	h->std_len = r->p - 1;
	r->p += h->opcode_base - 1;
	rc = h->version >= 5 ? read_v5_tables(r, h, t, sec, names) :
	    read_v4_tables(r, h, t, comp_dir, names);
	if (rc != 0)
		return rc;
	if (r->bad || hlen > (uint64_t)(r->end - start) ||
	    r->p != start + hlen)
		return PC_LINES_LIBDW;
	return 0;
}

/* The state machine's registers. */
struct regs {
	uint64_t addr, op_index, file, isa, discriminator;
	int64_t line;
	uint64_t column;
};

static void
regs_reset(struct regs *s)
{
	memset(s, 0, sizeof(*s));
	s->file = 1;
	s->line = 1;
}

/* Append a row; false when one of its fields would not fit libdw's. */
static int
emit(struct pc_linetab *t, const struct regs *s, bool end)
{
	struct pc_linerow *row;

	if (s->line < INT32_MIN || s->line > INT32_MAX || s->column > 0xffff ||
	    s->file > UINT32_MAX || s->op_index > 0xff || s->isa > 0xff ||
	    s->discriminator > 0xffffff)
		return PC_LINES_LIBDW;
	if (PC_GROW(t->rows, t->rows_cap, t->nrows, 1) < 0)
		return PROFCONV_ENOMEM;
	row = &t->rows[t->nrows];
	row->addr = s->addr;
	row->seq = (uint32_t)t->nrows;
	row->file = (uint32_t)s->file;
	row->line = (int32_t)s->line;
	row->column = (uint16_t)s->column;
	row->end = end;
	t->nrows++;
	return 0;
}

/* libdw's arithmetic: unsigned int operands, wrapping as they do. */
static void
advance(const struct header *h, struct regs *s, uint64_t n)
{
	uint32_t sum = (uint32_t)s->op_index + (uint32_t)n;

	s->addr += (uint32_t)(h->min_len * (sum / h->max_ops));
	s->op_index = sum % h->max_ops;
}

/* One extended opcode (after its 0 byte). */
static int
extended(struct rd *r, const struct header *h, struct regs *s,
    struct pc_linetab *t, struct pc_rawpool *names)
{
	const char *name, *path;
	unsigned len, op;
	uint64_t dir;
	int rc;

	if (r->end - r->p < 2)
		return PC_LINES_LIBDW;
	len = *r->p++;		/* libdw reads one byte, not a LEB128 */
	if (len >= 0x80 || (size_t)(r->end - r->p) < len)
		return PC_LINES_LIBDW;
	op = *r->p++;
	switch (op) {
	case DW_LNE_end_sequence:
		rc = emit(t, s, true);
		regs_reset(s);
		return rc;
	case DW_LNE_set_address:
		s->op_index = 0;
		s->addr = rd_fixed(r, h->address_size);
		return r->bad ? PC_LINES_LIBDW : 0;
	case DW_LNE_define_file:
		name = rd_cstr(r);
		dir = rd_uleb(r);
		(void)rd_uleb(r);
		(void)rd_uleb(r);
		if (r->bad || dir >= h->ndirs)
			return PC_LINES_LIBDW;
		rc = file_name(names, h->dirs[dir], name, &path);
		return rc < 0 ? rc : add_file(t, path);
	case DW_LNE_set_discriminator:
		/* libdw checks the length of standard opcode 4 here. */
		if (h->opcode_base <= 4 || h->std_len[4] != 1)
			return PC_LINES_LIBDW;
		s->discriminator = rd_uleb(r);
		return r->bad ? PC_LINES_LIBDW : 0;
	default:
		if (len == 0)
			return PC_LINES_LIBDW;
		r->p += len - 1;
		return 0;
	}
}

/* One standard opcode OP (below opcode_base). */
static int
standard(struct rd *r, const struct header *h, struct regs *s,
    struct pc_linetab *t, unsigned op)
{
	static const unsigned char args[] = {
		0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1
	};
	unsigned i;
	int rc = 0;

	if (op > DW_LNS_set_isa) {	/* unknown: skip its arguments */
		for (i = h->std_len[op]; i > 0; i--)
			(void)rd_uleb(r);
		return r->bad ? PC_LINES_LIBDW : 0;
	}
	if (h->std_len[op] != args[op])
		return PC_LINES_LIBDW;
	switch (op) {
	case DW_LNS_copy:
		rc = emit(t, s, false);
		s->discriminator = 0;
		break;
	case DW_LNS_advance_pc:
		/* libdw keeps the operand in an unsigned int. */
		advance(h, s, (uint32_t)rd_uleb(r));
		break;
	case DW_LNS_advance_line:
		s->line += (int32_t)rd_sleb(r);
		break;
	case DW_LNS_set_file:
		s->file = (uint32_t)rd_uleb(r);
		break;
	case DW_LNS_set_column:
		s->column = (uint32_t)rd_uleb(r);
		break;
	case DW_LNS_const_add_pc:
		if (h->line_range == 0)
			return PC_LINES_LIBDW;
		advance(h, s, (255 - h->opcode_base) / h->line_range);
		break;
	case DW_LNS_fixed_advance_pc:
		s->addr += rd_fixed(r, 2);
		s->op_index = 0;
		break;
	case DW_LNS_set_isa:
		s->isa = rd_uleb(r);
		break;
	default:		/* negate_stmt, basic_block, prologue... */
		break;
	}
	return r->bad ? PC_LINES_LIBDW : rc;
}

static int
run_program(struct rd *r, const struct header *h, struct pc_linetab *t,
    struct pc_rawpool *names)
{
	struct regs s;
	unsigned op, adj;
	int rc = 0;

	regs_reset(&s);
	while (rc == 0 && r->p < r->end) {
		op = *r->p++;
		if (op >= h->opcode_base) {
			if (h->line_range == 0)
				return PC_LINES_LIBDW;
			adj = op - h->opcode_base;
			s.line += h->line_base + (int)(adj % h->line_range);
			advance(h, &s, adj / h->line_range);
			rc = emit(t, &s, false);
			s.discriminator = 0;
		} else if (op == 0) {
			rc = extended(r, h, &s, t, names);
		} else {
			rc = standard(r, h, &s, t, op);
		}
	}
	return rc;
}

static int
cmp_row(const void *a, const void *b)
{
	const struct pc_linerow *x = a, *y = b;
	int c = PC_CMP(x->addr, y->addr);

	/* An end of sequence comes before a row at the same address. */
	if (c == 0)
		c = PC_CMP(y->end, x->end);
	return c != 0 ? c : PC_CMP(x->seq, y->seq);
}

/* One sequence of a line program: rows[first .. first + n), its first
 * row, which places it, and its greatest row. */
struct run {
	struct pc_linerow head, tail;
	size_t first, n;
	bool sorted;
};

static int
cmp_run(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	return cmp_row(&x->head, &y->head);
}

static bool
rows_sorted(const struct pc_linerow *rows, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (cmp_row(&rows[i - 1], &rows[i]) > 0)
			return false;
	return true;
}

PC_NATURAL_MERGE_SORT(merge_sort_rows, struct pc_linerow, cmp_row)

/* The sequences of ROWS (N > 0) into *RUNS, *NRUNS. */
static int
find_runs(const struct pc_linerow *rows, size_t n, struct run **runs,
    size_t *nruns)
{
	size_t cap = 0, i, j, first = 0;
	struct run *r;

	*runs = NULL;
	*nruns = 0;
	for (i = 0; i < n; i++) {
		if (!rows[i].end && i + 1 < n)
			continue;
		if (PC_GROW(*runs, cap, *nruns, 1) < 0) {
			free(*runs);
			return PROFCONV_ENOMEM;
		}
		r = &(*runs)[(*nruns)++];
		r->head = rows[first];
		r->first = first;
		r->n = i + 1 - first;
		r->sorted = rows_sorted(rows + first, r->n);
		r->tail = rows[i];
		if (!r->sorted)
			for (j = first; j < i; j++)
				if (cmp_row(&rows[j], &r->tail) > 0)
					r->tail = rows[j];
		first = i + 1;
	}
	return 0;
}

/*
 * ROWS in cmp_row's order, sorting sequences rather than rows: each
 * sequence is in address order, and most do not overlap (C++ puts every
 * inline or template function in a sequence of its own, in no address
 * order), so sequences ordered by their first rows are mostly sorted
 * rows already.  Sequences that overlap (those of functions the linker
 * discarded all start at 0) are sorted as one group.  cmp_row is a total
 * order (rows differ in seq), so the result is qsort's; false (ROWS
 * untouched) on no memory.
 */
static bool
sort_by_sequence(struct pc_linerow *rows, size_t n)
{
	struct run *runs;
	struct pc_linerow *out, tail;
	size_t nruns, i, g, k = 0, gk = 0;
	bool ok;

	if (find_runs(rows, n, &runs, &nruns) < 0)
		return false;
	/* The rows in their new order, then room to merge a group. */
	out = n <= SIZE_MAX / 2 / sizeof(*out) ? malloc(2 * n * sizeof(*out)) :
	    NULL;
	if (out == NULL) {
		free(runs);
		return false;
	}
	qsort(runs, nruns, sizeof(*runs), cmp_run);
	tail = runs[0].tail;
	for (i = 0, g = 0; i <= nruns; i++) {
		if (i > g && (i == nruns || cmp_row(&runs[i].head, &tail) > 0)) {
			/* Runs g .. i-1 are a group, after all rows before. */
			if (i - g > 1 || !runs[g].sorted)
				merge_sort_rows(out + gk, out + n, k - gk);
			g = i;
			gk = k;
			if (i == nruns)
				break;
			tail = runs[i].tail;
		} else if (cmp_row(&runs[i].tail, &tail) > 0) {
			tail = runs[i].tail;
		}
		memcpy(out + k, rows + runs[i].first, runs[i].n * sizeof(*out));
		k += runs[i].n;
	}
	/* A sequence out of order may hold a row before its first. */
	ok = rows_sorted(out, n);
	if (ok)
		memcpy(rows, out, n * sizeof(*out));
	free(out);
	free(runs);
	return ok;
}

static void
sort_rows(struct pc_linetab *t)
{
	if (!rows_sorted(t->rows, t->nrows) &&
	    !sort_by_sequence(t->rows, t->nrows))
		qsort(t->rows, t->nrows, sizeof(*t->rows), cmp_row);
	/* libdw marks the highest address an end of sequence. */
	if (t->nrows > 0)
		t->rows[t->nrows - 1].end = true;
}

int
profconv__linetab_decode(struct pc_linetab *t,
    const struct pc_line_sections *sec, uint64_t offset,
    const char *comp_dir, unsigned address_size, struct pc_rawpool *names)
{
	struct header h;
	struct rd r;
	int rc;

	memset(t, 0, sizeof(*t));
	memset(&h, 0, sizeof(h));
	if (sec->line == NULL || offset >= sec->line_size ||
	    (address_size != 4 && address_size != 8))
		return PC_LINES_LIBDW;
	h.address_size = address_size;
	r.p = sec->line + offset;
	r.end = sec->line + sec->line_size;
	r.bad = false;
	rc = read_header(&r, &h, t, sec, comp_dir, names);
	if (rc == 0)
		rc = run_program(&r, &h, t, names);
	free(h.dirs);
	if (rc != 0) {
		profconv__linetab_free(t);
		return rc;
	}
	sort_rows(t);
	return 0;
}

void
profconv__linetab_free(struct pc_linetab *t)
{
	free(t->rows);
	free(t->files);
	memset(t, 0, sizeof(*t));
}

const struct pc_linerow *
profconv__linetab_find(const struct pc_linetab *t, uint64_t addr)
{
	size_t lo = PC_UPPER_BOUND(t->rows, t->nrows, addr, addr);
	const struct pc_linerow *row;

	/* The last row at or before ADDR, unless it ends a sequence. */
	if (lo == 0)
		return NULL;
	row = &t->rows[lo - 1];
	return row->end ? NULL : row;
}

const char *
profconv__linetab_file(const struct pc_linetab *t, uint64_t file)
{
	return file < t->nfiles ? t->files[file] : NULL;
}
