/* SPDX-License-Identifier: MIT */
/*
 * test_linetable.c - tests for the line-table decoder in
 * lib/symbolize/linetable.c: a line program written byte by byte here,
 * malformed ones that must be refused (PC_LINES_LIBDW) and not crash,
 * and the line tables of a program gcc compiles at test time, row by
 * row against libdw's dwarf_getsrclines.
 */

#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include <dwarf.h>
#include <gelf.h>

#include "helpers.h"
#include "symbolize/symbolize.h"

#define STR(s) ((char *)(s))

/* --- writing a line program ----------------------------------------------- */

struct buf {
	unsigned char b[512];
	size_t n;
};

static void
put(struct buf *b, uint64_t v, size_t size)
{
	size_t i;

	cr_assert(le(sz, b->n + size, sizeof(b->b)));
	for (i = 0; i < size; i++)
		b->b[b->n++] = (unsigned char)(v >> (8 * i));
}

static void
put_uleb(struct buf *b, uint64_t v)
{
	do {
		put(b, (v & 0x7f) | (v >= 0x80 ? 0x80 : 0), 1);
		v >>= 7;
	} while (v != 0);
}

static void
put_str(struct buf *b, const char *s)
{
	size_t n = strlen(s) + 1;

	cr_assert(le(sz, b->n + n, sizeof(b->b)));
	memcpy(b->b + b->n, s, n);
	b->n += n;
}

/* Patch the 4-byte little-endian value at OFF. */
static void
patch32(struct buf *b, size_t off, uint32_t v)
{
	size_t i;

	for (i = 0; i < 4; i++)
		b->b[off + i] = (unsigned char)(v >> (8 * i));
}

/*
 * A line program (of VERSION 2 to 4) of two sequences, the second at
 * lower addresses than the first, so the decoder has to sort:
 *
 *   0x1000 a.c:10:3, 0x1004 a.c:11:3, 0x100c b.h:6:3, end at 0x1010;
 *   0x800 a.c:1, end at 0x810.
 *
 * b.h is in the include directory /usr/include, a.c in the unit's
 * directory; a third file has an absolute name.  *PROGRAM is where the
 * opcodes start.
 */
static void
sample_program_v(struct buf *b, size_t *program, unsigned version)
{
	static const unsigned char std_len[12] = {
		0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1
	};
	size_t hlen_at, hstart;

	memset(b, 0, sizeof(*b));
	put(b, 0, 4);			/* unit_length, patched below */
	put(b, version, 2);		/* version */
	hlen_at = b->n;
	put(b, 0, 4);			/* header_length, patched below */
	hstart = b->n;
	put(b, 1, 1);			/* minimum_instruction_length */
	if (version >= 4)	/* maximum_operations_per_instruction */
		put(b, 1, 1);
	put(b, 1, 1);			/* default_is_stmt */
	put(b, (uint8_t)-5, 1);		/* line_base */
	put(b, 14, 1);			/* line_range */
	put(b, 13, 1);			/* opcode_base */
	memcpy(b->b + b->n, std_len, sizeof(std_len));
	b->n += sizeof(std_len);
	put_str(b, "/usr/include");
	put(b, 0, 1);
	put_str(b, "a.c");
	put_uleb(b, 0);
	put_uleb(b, 0);
	put_uleb(b, 0);
	put_str(b, "b.h");
	put_uleb(b, 1);
	put_uleb(b, 0);
	put_uleb(b, 0);
	put_str(b, "/abs/c.h");	/* absolute: its directory is not used */
	put_uleb(b, 1);
	put_uleb(b, 0);
	put_uleb(b, 0);
	put(b, 0, 1);
	patch32(b, hlen_at, (uint32_t)(b->n - hstart));
	*program = b->n;

	put(b, 0, 1);			/* DW_LNE_set_address 0x1000 */
	put(b, 9, 1);
	put(b, DW_LNE_set_address, 1);
	put(b, 0x1000, 8);
	put(b, DW_LNS_set_column, 1);
	put_uleb(b, 3);
	put(b, DW_LNS_advance_line, 1);
	put(b, 9, 1);			/* line 10 */
	put(b, DW_LNS_copy, 1);
	/* Special opcode: line + 1, address + 4. */
	put(b, (1 - -5) + 14 * 4 + 13, 1);
	put(b, DW_LNS_set_file, 1);
	put_uleb(b, 2);
	put(b, DW_LNS_advance_pc, 1);
	put_uleb(b, 8);
	put(b, DW_LNS_advance_line, 1);
	put(b, 0x7b, 1);		/* -5: line 6 */
	put(b, DW_LNS_copy, 1);
	put(b, DW_LNS_advance_pc, 1);
	put_uleb(b, 4);
	put(b, 0, 1);			/* DW_LNE_end_sequence */
	put(b, 1, 1);
	put(b, DW_LNE_end_sequence, 1);

	put(b, 0, 1);			/* DW_LNE_set_address 0x800 */
	put(b, 9, 1);
	put(b, DW_LNE_set_address, 1);
	put(b, 0x800, 8);
	put(b, DW_LNS_copy, 1);
	put(b, DW_LNS_advance_pc, 1);
	put_uleb(b, 0x10);
	put(b, 0, 1);
	put(b, 1, 1);
	put(b, DW_LNE_end_sequence, 1);
	patch32(b, 0, (uint32_t)(b->n - 4));
}

static void
sample_program(struct buf *b, size_t *program)
{
	sample_program_v(b, program, 4);
}

/* The sections decoded by the test: a table's file names may point into
 * its section, as into libdw's, so they live until the test ends. */
static unsigned char **sections;
static size_t nsections;

static void
free_sections(void)
{
	while (nsections > 0)
		free(sections[--nsections]);
	free(sections);
	sections = NULL;
}

/* Decode the N bytes at P as a .debug_line section of its own. */
static int
decode(struct pc_linetab *t, struct pc_rawpool *names,
    const unsigned char *p, size_t n, unsigned address_size)
{
	struct pc_line_sections sec = { 0 };
	/* An exact-size copy: reading past it is a sanitizer report. */
	unsigned char *copy = malloc(n > 0 ? n : 1);
	unsigned char **grown = realloc(sections,
	    (nsections + 1) * sizeof(*sections));

	cr_assert(not(zero(ptr, copy)));
	cr_assert(not(zero(ptr, grown)));
	sections = grown;
	memcpy(copy, p, n);
	sections[nsections++] = copy;
	sec.line = copy;
	sec.line_size = n;
	return profconv__linetab_decode(t, &sec, 0, "/src", address_size,
	    names);
}

struct want_row {
	uint64_t addr;
	uint32_t file;
	int32_t line;
	uint16_t column;
	bool end;
};

static void
expect_rows(const struct pc_linetab *t, const struct want_row *w, size_t n)
{
	size_t i;

	cr_assert(eq(sz, t->nrows, n));
	for (i = 0; i < n; i++) {
		cr_expect(eq(u64, t->rows[i].addr, w[i].addr), "row %zu", i);
		cr_expect(eq(u32, t->rows[i].file, w[i].file), "row %zu", i);
		cr_expect(eq(i32, t->rows[i].line, w[i].line), "row %zu", i);
		cr_expect(eq(u16, t->rows[i].column, w[i].column), "row %zu",
		    i);
		cr_expect(eq(int, t->rows[i].end, w[i].end), "row %zu", i);
	}
}

TestSuite(linetable, .fini = free_sections);

/* --- a known program ------------------------------------------------------ */

static void
decodes_a_known_program_into_sorted_rows(void)
{
	static const struct want_row want[] = {
		{ 0x800, 1, 1, 0, false },
		{ 0x810, 1, 1, 0, true },
		{ 0x1000, 1, 10, 3, false },
		{ 0x1004, 1, 11, 3, false },
		{ 0x100c, 2, 6, 3, false },
		{ 0x1010, 2, 6, 3, true },
	};
	struct pc_rawpool names = { 0 };
	struct pc_linetab t;
	struct buf b;
	size_t program;

	sample_program(&b, &program);
	cr_assert(eq(int, decode(&t, &names, b.b, b.n, 8), 0));
	expect_rows(&t, want, sizeof(want) / sizeof(want[0]));
	/* Slot 0 is libdw's "???"; names join their directory. */
	cr_assert(eq(sz, t.nfiles, 4));
	cr_expect(eq(str, STR(profconv__linetab_file(&t, 0)), "???"));
	cr_expect(eq(str, STR(profconv__linetab_file(&t, 1)), "/src/a.c"));
	cr_expect(eq(str, STR(profconv__linetab_file(&t, 2)),
	    "/usr/include/b.h"));
	cr_expect(eq(str, STR(profconv__linetab_file(&t, 3)), "/abs/c.h"));
	cr_expect(zero(ptr, (void *)profconv__linetab_file(&t, 4)));
	profconv__linetab_free(&t);
	profconv__rawpool_free(&names);
	free_sections();
}

/* Versions 2 and 3 have no maximum_operations_per_instruction. */
static void
reads_versions_2_and_3_like_4(void)
{
	struct pc_rawpool names = { 0 };
	struct pc_linetab t4, t;
	unsigned version;
	struct buf b;
	size_t program, i;

	sample_program(&b, &program);
	cr_assert(eq(int, decode(&t4, &names, b.b, b.n, 8), 0));
	for (version = 2; version <= 3; version++) {
		sample_program_v(&b, &program, version);
		cr_assert(eq(int, decode(&t, &names, b.b, b.n, 8), 0),
		    "version %u", version);
		cr_assert(eq(sz, t.nrows, t4.nrows), "version %u", version);
		for (i = 0; i < t.nrows; i++)
			cr_expect(t.rows[i].addr == t4.rows[i].addr &&
			    t.rows[i].seq == t4.rows[i].seq &&
			    t.rows[i].file == t4.rows[i].file &&
			    t.rows[i].line == t4.rows[i].line &&
			    t.rows[i].column == t4.rows[i].column &&
			    t.rows[i].end == t4.rows[i].end,
			    "version %u row %zu", version, i);
		profconv__linetab_free(&t);
	}
	profconv__linetab_free(&t4);
	profconv__rawpool_free(&names);
	free_sections();
}

static void
finds_the_row_of_an_address_as_dwarf_getsrc_die_does(void)
{
	struct pc_rawpool names = { 0 };
	const struct pc_linerow *row;
	struct pc_linetab t;
	struct buf b;
	size_t program;

	sample_program(&b, &program);
	cr_assert(eq(int, decode(&t, &names, b.b, b.n, 8), 0));
	/* Before the first row, at an end of sequence, in the gap after
	 * it and past the last row: no row. */
	cr_expect(zero(ptr, (void *)profconv__linetab_find(&t, 0x7ff)));
	cr_expect(zero(ptr, (void *)profconv__linetab_find(&t, 0x810)));
	cr_expect(zero(ptr, (void *)profconv__linetab_find(&t, 0x900)));
	cr_expect(zero(ptr, (void *)profconv__linetab_find(&t, 0x1010)));
	cr_expect(zero(ptr, (void *)profconv__linetab_find(&t, 0x2000)));
	row = profconv__linetab_find(&t, 0x80f);
	cr_assert(not(zero(ptr, (void *)row)));
	cr_expect(eq(i32, row->line, 1));
	row = profconv__linetab_find(&t, 0x1007);
	cr_assert(not(zero(ptr, (void *)row)));
	cr_expect(eq(i32, row->line, 11));
	row = profconv__linetab_find(&t, 0x100c);
	cr_assert(not(zero(ptr, (void *)row)));
	cr_expect(eq(i32, row->line, 6));
	cr_expect(eq(u32, row->file, 2));
	profconv__linetab_free(&t);
	profconv__rawpool_free(&names);
	free_sections();
}

Test(linetable, decodes_a_known_program)
{
	decodes_a_known_program_into_sorted_rows();
	reads_versions_2_and_3_like_4();
	finds_the_row_of_an_address_as_dwarf_getsrc_die_does();
}

/* --- what is refused ------------------------------------------------------ */

/* Decoding must refuse B, leaving an empty table. */
static void
expect_refused(const struct buf *b, unsigned address_size, const char *why)
{
	struct pc_rawpool names = { 0 };
	struct pc_linetab t;

	cr_expect(eq(int, decode(&t, &names, b->b, b->n, address_size),
	    PC_LINES_LIBDW), "%s", why);
	cr_expect(zero(ptr, t.rows), "%s", why);
	cr_expect(eq(sz, t.nrows, 0), "%s", why);
	profconv__linetab_free(&t);
	profconv__rawpool_free(&names);
}

static void
refuses_malformed_programs(void)
{
	struct buf b, bad;
	size_t program;

	sample_program(&b, &program);
	bad = b;
	patch32(&bad, 0, (uint32_t)b.n);	/* one byte past the end */
	expect_refused(&bad, 8, "unit_length past the section");
	/* Well-formed but for the version: libdw reads 2 to 5 only. */
	sample_program_v(&bad, &program, 1);
	expect_refused(&bad, 8, "version 1");
	sample_program_v(&bad, &program, 6);
	expect_refused(&bad, 8, "version 6");
	sample_program(&b, &program);
	bad = b;
	patch32(&bad, 6, (uint32_t)(program - 10 + 1));
	expect_refused(&bad, 8, "header_length one too long");
	expect_refused(&b, 3, "address size 3");
	/* The program ends inside DW_LNE_set_address's operand. */
	bad = b;
	bad.n = program + 6;
	patch32(&bad, 0, (uint32_t)(bad.n - 4));
	expect_refused(&bad, 8, "cut inside an opcode");
	/* set_file's opcode length changed from 1 to 2. */
	bad = b;
	bad.b[10 + 6 + DW_LNS_set_file - 1] = 2;
	expect_refused(&bad, 8, "a standard opcode of the wrong length");
	bad.n = 0;
	expect_refused(&bad, 8, "an empty section");
	free_sections();
}

static void
refuses_an_offset_past_the_section(void)
{
	struct pc_line_sections sec = { 0 };
	struct pc_rawpool names = { 0 };
	struct pc_linetab t;
	struct buf b;
	size_t program;

	sample_program(&b, &program);
	sec.line = b.b;
	sec.line_size = b.n;
	cr_expect(eq(int, profconv__linetab_decode(&t, &sec, b.n, NULL, 8,
	    &names), PC_LINES_LIBDW));
	sec.line = NULL;
	cr_expect(eq(int, profconv__linetab_decode(&t, &sec, 0, NULL, 8,
	    &names), PC_LINES_LIBDW));
	profconv__rawpool_free(&names);
	free_sections();
}

/*
 * Every byte of the program changed to each of a few values: the
 * decoder either refuses or gives rows sorted as libdw sorts them,
 * never crashes or reads outside the section.
 */
static void
survives_every_single_byte_change(void)
{
	static const unsigned char values[] = {
		0x00, 0x01, 0x02, 0x05, 0x0c, 0x7f, 0x80, 0xfe, 0xff
	};
	struct pc_rawpool names = { 0 };
	struct pc_linetab t;
	struct buf b, bad;
	size_t program, i, k, r, decoded = 0;
	int rc;

	sample_program(&b, &program);
	for (i = 0; i < b.n; i++) {
		for (k = 0; k < sizeof(values); k++) {
			bad = b;
			bad.b[i] = values[k];
			rc = decode(&t, &names, bad.b, bad.n, 8);
			cr_assert(rc == 0 || rc == PC_LINES_LIBDW,
			    "byte %zu = %#x: %d", i, values[k], rc);
			for (r = 1; rc == 0 && r < t.nrows; r++)
				cr_assert(le(u64, t.rows[r - 1].addr,
				    t.rows[r].addr), "byte %zu", i);
			if (rc == 0 && t.nrows > 0)
				cr_assert(t.rows[t.nrows - 1].end);
			decoded += rc == 0;
			profconv__linetab_free(&t);
		}
	}
	/* Most changes of an operand still make a program. */
	cr_expect(gt(sz, decoded, 0));
	profconv__rawpool_free(&names);
	free_sections();
}

Test(linetable, refuses_or_survives_damaged_programs)
{
	refuses_malformed_programs();
	refuses_an_offset_past_the_section();
	survives_every_single_byte_change();
}

/* --- against libdw, on a program compiled here ---------------------------- */

static const char test_source[] =
	"#include <stdio.h>\n"
	"#include \"inc.h\"\n"
	"static int __attribute__((noinline))\n"
	"twice(int x)\n"
	"{\n"
	"\treturn 2 * x;\n"
	"}\n"
	"int\n"
	"main(int argc, char **argv)\n"
	"{\n"
	"\tint i, s = 0;\n"
	"\n"
	"\t(void)argv;\n"
	"\tfor (i = 0; i < argc; i++)\n"
	"\t\ts += twice(plus(i));\n"
	"\tprintf(\"%d\\n\", s);\n"
	"\treturn 0;\n"
	"}\n";

static const char test_header[] =
	"static inline int\n"
	"plus(int x)\n"
	"{\n"
	"\treturn x + 1;\n"
	"}\n";

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert(not(zero(ptr, f)), "cannot write '%s'", path);
	cr_assert(eq(int, fputs(text, f) >= 0, 1));
	cr_assert(eq(int, fclose(f), 0));
}

/*
 * Compile the test program with gcc and FLAGS into a new directory;
 * the binary's path goes to OUT.  Skips the test without gcc.
 */
/*
 * A second unit for compile_more: a function the linker drops with
 * --gc-sections (its line sequence then starts at address 0, as do
 * those of discarded inline functions in C++), and one split into a hot
 * and a cold part, which the linker places far apart.
 */
static const char test_more[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"int\n"
	"unused_one(int x)\n"
	"{\n"
	"\treturn x * 7 + 1;\n"
	"}\n"
	"int\n"
	"unused_two(int x)\n"
	"{\n"
	"\treturn x * 5 - 3;\n"
	"}\n"
	"__attribute__((noinline)) int\n"
	"checked(int x)\n"
	"{\n"
	"\tif (__builtin_expect(x > 1000, 0)) {\n"
	"\t\tfprintf(stderr, \"too big: %d\\n\", x);\n"
	"\t\tabort();\n"
	"\t}\n"
	"\treturn x + 2;\n"
	"}\n";

static void compile_units(const char *flags, bool more, char *out,
    size_t size);

static void
compile(const char *flags, char *out, size_t size)
{
	compile_units(flags, false, out, size);
}

/* As compile, with the unit test_more linked in when MORE. */
static void
compile_units(const char *flags, bool more, char *out, size_t size)
{
	char dir[] = "/tmp/test_linetable.XXXXXX", path[512], cmd[1024];

	if (system("command -v gcc >/dev/null 2>&1") != 0)
		cr_skip_test("no gcc");
	cr_assert(not(zero(ptr, mkdtemp(dir))));
	snprintf(path, sizeof(path), "%s/inc.h", dir);
	write_file(path, test_header);
	snprintf(path, sizeof(path), "%s/prog.c", dir);
	write_file(path, test_source);
	if (more) {
		snprintf(path, sizeof(path), "%s/more.c", dir);
		write_file(path, test_more);
	}
	snprintf(out, size, "%s/prog", dir);
	snprintf(cmd, sizeof(cmd), "cd %s && gcc %s -o prog prog.c%s", dir,
	    flags, more ? " more.c" : "");
	cr_assert(eq(int, system(cmd), 0), "%s", cmd);
}

static void
remove_compiled(const char *prog)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "rm -rf '%.*s'",
	    (int)(strrchr(prog, '/') - prog), prog);
	cr_expect(eq(int, system(cmd), 0), "%s", cmd);
}

/* The bytes of section NAME of ELF, or NULL. */
static const unsigned char *
section(Elf *elf, const char *name, size_t *size)
{
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	size_t shstrndx;
	const char *sn;
	GElf_Shdr sh;

	*size = 0;
	cr_assert(eq(int, elf_getshdrstrndx(elf, &shstrndx), 0));
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL ||
		    sh.sh_type == SHT_NOBITS)
			continue;
		sn = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sn == NULL || strcmp(sn, name) != 0)
			continue;
		d = elf_getdata(scn, NULL);
		if (d == NULL)
			return NULL;
		*size = d->d_size;
		return d->d_buf;
	}
	return NULL;
}

/* Our rows of unit CUDIE against libdw's; the rows compared. */
static size_t
compare_unit(Dwarf_Die *cudie, const struct pc_line_sections *sec)
{
	struct pc_rawpool names = { 0 };
	const struct pc_linerow *row;
	const char *ours, *theirs;
	Dwarf_Attribute attr;
	struct pc_linetab t;
	Dwarf_Lines *lines;
	Dwarf_Line *line;
	Dwarf_Die cu;
	Dwarf_Word off;
	Dwarf_Addr addr;
	uint8_t asize;
	size_t n, i;
	bool end;
	int v;

	cr_assert(not(zero(ptr, dwarf_diecu(cudie, &cu, &asize, NULL))));
	cr_assert(eq(int, dwarf_formudata(dwarf_attr(cudie, DW_AT_stmt_list,
	    &attr), &off), 0));
	cr_assert(eq(int, profconv__linetab_decode(&t, sec, off,
	    dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &attr)),
	    asize, &names), 0), "unit at %#llx", (unsigned long long)off);
	cr_assert(eq(int, dwarf_getsrclines(cudie, &lines, &n), 0));
	cr_assert(eq(sz, t.nrows, n));
	for (i = 0; i < n; i++) {
		line = dwarf_onesrcline(lines, i);
		row = &t.rows[i];
		cr_assert(eq(int, dwarf_lineaddr(line, &addr), 0));
		cr_assert(eq(u64, row->addr, addr), "row %zu", i);
		cr_assert(eq(int, dwarf_lineendsequence(line, &end), 0));
		cr_assert(eq(int, row->end, end), "row %zu", i);
		cr_assert(eq(int, dwarf_lineno(line, &v), 0));
		cr_assert(eq(i32, row->line, v), "row %zu", i);
		cr_assert(eq(int, dwarf_linecol(line, &v), 0));
		cr_assert(eq(i32, row->column, v), "row %zu", i);
		ours = profconv__linetab_file(&t, row->file);
		theirs = dwarf_linesrc(line, NULL, NULL);
		cr_assert(not(zero(ptr, (void *)ours)), "row %zu", i);
		cr_assert(not(zero(ptr, (void *)theirs)), "row %zu", i);
		cr_assert(eq(str, STR(ours), STR(theirs)), "row %zu", i);
		/* And the lookup agrees with dwarf_getsrc_die's. */
		if (!end) {
			row = profconv__linetab_find(&t, addr);
			line = dwarf_getsrc_die(cudie, addr);
			cr_assert(not(zero(ptr, (void *)row)));
			cr_assert(not(zero(ptr, line)));
			cr_assert(eq(int, dwarf_lineno(line, &v), 0));
			cr_assert(eq(i32, row->line, v), "at %#llx",
			    (unsigned long long)addr);
		}
	}
	profconv__linetab_free(&t);
	profconv__rawpool_free(&names);
	return n;
}

/* Every unit of PROG: our decoding against libdw's; the rows compared. */
static size_t
compare_file(const char *prog)
{
	struct pc_line_sections sec = { 0 };
	Dwarf_Off off = 0, next;
	Dwarf_Die cudie;
	size_t hsize, rows = 0, units = 0;
	Dwarf *dw;
	Elf *elf;
	int fd;

	fd = open(prog, O_RDONLY);
	cr_assert(ge(int, fd, 0));
	dw = dwarf_begin(fd, DWARF_C_READ);
	cr_assert(not(zero(ptr, dw)), "%s", dwarf_errmsg(-1));
	elf = dwarf_getelf(dw);
	sec.line = section(elf, ".debug_line", &sec.line_size);
	sec.line_str = section(elf, ".debug_line_str", &sec.line_str_size);
	sec.str = section(elf, ".debug_str", &sec.str_size);
	cr_assert(not(zero(ptr, (void *)sec.line)));
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		cr_assert(not(zero(ptr, dwarf_offdie(dw, off + hsize,
		    &cudie))));
		rows += compare_unit(&cudie, &sec);
		units++;
		off = next;
	}
	cr_assert(ge(sz, units, 1));
	dwarf_end(dw);
	close(fd);
	return rows;
}

Test(linetable, matches_libdw_on_dwarf5_from_gcc)
{
	char prog[512];

	compile("-g -gdwarf-5 -O2", prog, sizeof(prog));
	/* prog.c and inc.h each give several rows. */
	cr_expect(ge(sz, compare_file(prog), 8));
	remove_compiled(prog);
}

/*
 * Sequences out of address order, and sequences of dropped functions
 * that all start at 0: the rows are sorted by sequence then, and must
 * still be libdw's, row for row.
 */
Test(linetable, matches_libdw_with_sequences_out_of_order)
{
	char prog[512];

	compile_units("-g -gdwarf-5 -O2 -ffunction-sections "
	    "-Wl,--gc-sections", true, prog, sizeof(prog));
	cr_expect(ge(sz, compare_file(prog), 16));
	remove_compiled(prog);
}

Test(linetable, matches_libdw_on_dwarf4_from_gcc)
{
	char prog[512];

	compile("-g -gdwarf-4 -O0", prog, sizeof(prog));
	cr_expect(ge(sz, compare_file(prog), 8));
	remove_compiled(prog);
}
