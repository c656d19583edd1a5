/* SPDX-License-Identifier: MIT */
/*
 * test_elffacts.c - profconv_elf_facts_read() on programs built now (a
 * dynamic one linking libjemalloc, a static one, a PIE and a non-PIE, a
 * set-user-ID copy) and on scripts, checked against what readelf(1)
 * says of the same files; and on hostile ELF files made here.
 */

#include "config.h"

#include <elf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "helpers.h"

#define STR(s) ((char *)(s))

static char dir[64];
static struct profconv_elf_facts *facts;

static void
setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/test_elffacts.XXXXXX");
	cr_assert(not(zero(ptr, mkdtemp(dir))));
}

static void
teardown(void)
{
	char cmd[128];

	profconv_elf_facts_free(facts);
	facts = NULL;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	(void)system(cmd);
}

TestSuite(elffacts, .init = setup, .fini = teardown);

/* DIR/NAME, in a static buffer of its own per SLOT. */
static const char *
in_dir(int slot, const char *name)
{
	static char buf[4][256];

	snprintf(buf[slot], sizeof(buf[slot]), "%s/%s", dir, name);
	return buf[slot];
}

/* Build DIR/NAME from a small C program with cc FLAGS; false when the
 * compiler cannot (a static libc or a library missing). */
static bool
build(const char *name, const char *flags)
{
	char cmd[1024];
	FILE *fp;

	fp = fopen(in_dir(3, "prog.c"), "w");
	cr_assert(not(zero(ptr, fp)));
	fputs("#include <stdlib.h>\n#include <stdio.h>\n"
	    "int main(void) { char *p = malloc(10); printf(\"%p\\n\", "
	    "(void *)p); free(p); return 0; }\n", fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "cc -O1 %s -o '%s' '%s' 2>/dev/null",
	    flags, in_dir(2, name), in_dir(3, "prog.c"));
	return system(cmd) == 0;
}

/* The output of the shell command CMD (formatted), into OUT. */
static void
sh_output(char *out, size_t n, const char *fmt, ...)
{
	char cmd[1024];
	size_t len;
	va_list ap;
	FILE *fp;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	fp = popen(cmd, "r");
	cr_assert(not(zero(ptr, fp)));
	len = fread(out, 1, n - 1, fp);
	out[len] = '\0';
	cr_assert(eq(int, pclose(fp), 0), "%s", cmd);
}

/* The facts' DT_NEEDED names, one a line. */
static void
needed_lines(char *out, size_t n)
{
	size_t i, len = 0;

	out[0] = '\0';
	for (i = 0; i < facts->nneeded; i++)
		len += (size_t)snprintf(out + len, n - len, "%s\n",
		    facts->needed[i]);
}

/* The facts of PATH agree with what readelf(1) says of it: the program
 * interpreter, the DT_NEEDED names in order, class, type, build id. */
static void
expect_as_readelf(const char *path)
{
	char want[4096], got[4096];

	sh_output(want, sizeof(want), "LC_ALL=C readelf -lW '%s' | sed -n "
	    "'s/.*Requesting program interpreter: \\(.*\\)]$/\\1/p'", path);
	if (want[0] == '\0') {
		cr_assert(zero(ptr, (void *)facts->interpreter), "%s",
		    facts->interpreter);
	} else {
		cr_assert(not(zero(ptr, (void *)facts->interpreter)));
		snprintf(got, sizeof(got), "%s\n", facts->interpreter);
		cr_assert(eq(str, got, want));
	}
	sh_output(want, sizeof(want), "LC_ALL=C readelf -dW '%s' | sed -n "
	    "'s/.*(NEEDED).*Shared library: \\[\\(.*\\)]$/\\1/p'", path);
	needed_lines(got, sizeof(got));
	cr_assert(eq(str, got, want));
	sh_output(want, sizeof(want), "LC_ALL=C readelf -hW '%s' | sed -n "
	    "'s/^ *Class: *ELF\\([0-9]*\\)$/\\1/p'", path);
	cr_assert(eq(int, facts->elf_class, atoi(want)));
	sh_output(want, sizeof(want), "LC_ALL=C readelf -hW '%s' | sed -n "
	    "'s/^ *Type: *\\([A-Z]*\\) .*/\\1/p'", path);
	cr_assert(eq(int, facts->elf_type, strcmp(want, "DYN\n") == 0 ?
	    ET_DYN : strcmp(want, "EXEC\n") == 0 ? ET_EXEC : -1), "%s", want);
	sh_output(want, sizeof(want), "LC_ALL=C readelf -nW '%s' | sed -n "
	    "'s/.*Build ID: *\\([0-9a-f]*\\)$/\\1/p'", path);
	snprintf(got, sizeof(got), "%s%s", facts->build_id,
	    facts->build_id[0] != '\0' ? "\n" : "");
	cr_assert(eq(str, got, want));
}

/* --- programs built now ---------------------------------------------------- */

/* A program linking libjemalloc: it is dynamic, and says so. */
Test(elffacts, dynamic_program_linking_jemalloc)
{
	const char *prog = in_dir(0, "dyn");
	size_t i;

	if (!build("dyn", "-Wl,--no-as-needed -Wl,--build-id=sha1 -ljemalloc"))
		cr_skip_test("cannot link with -ljemalloc");
	cr_assert(eq(int, profconv_elf_facts_read(&facts, prog), 0), "%s",
	    ERRMSG);
	expect_as_readelf(prog);
	cr_assert(eq(str, STR(facts->path), STR(prog)));
	cr_assert(zero(ptr, (void *)facts->script_interpreter));
	cr_assert(eq(int, facts->set_id, 0));
	cr_assert(eq(sz, strlen(facts->build_id), 40));
	for (i = 0; i < facts->nneeded; i++)
		if (strncmp(facts->needed[i], "libjemalloc.so", 14) == 0)
			break;
	cr_assert(lt(sz, i, facts->nneeded), "no libjemalloc in DT_NEEDED");
	ASSERT_NO_LEAKS();
}

/* A static program has no program interpreter (nor DT_NEEDED). */
Test(elffacts, static_program)
{
	const char *prog = in_dir(0, "static");

	if (!build("static", "-static -no-pie"))
		cr_skip_test("cannot link statically (no libc.a)");
	cr_assert(eq(int, profconv_elf_facts_read(&facts, prog), 0), "%s",
	    ERRMSG);
	expect_as_readelf(prog);
	cr_assert(zero(ptr, (void *)facts->interpreter));
	cr_assert(eq(sz, facts->nneeded, 0));
	cr_assert(eq(int, facts->pie, 0));
	cr_assert(eq(int, facts->elf_type, ET_EXEC));
}

/* A static PIE: ET_DYN, position independent, and still static. */
Test(elffacts, static_pie_program)
{
	const char *prog = in_dir(0, "static-pie");

	if (!build("static-pie", "-static-pie -fPIE"))
		cr_skip_test("cannot link a static PIE");
	cr_assert(eq(int, profconv_elf_facts_read(&facts, prog), 0), "%s",
	    ERRMSG);
	expect_as_readelf(prog);
	cr_assert(zero(ptr, (void *)facts->interpreter));
	cr_assert(eq(int, facts->elf_type, ET_DYN));
	cr_assert(eq(int, facts->pie, 1));
}

/* A PIE and a program that is not one. */
Test(elffacts, pie_and_not)
{
	const char *pie = in_dir(0, "pie"), *nopie = in_dir(1, "nopie");

	cr_assert(build("pie", "-fPIE -pie -Wl,--build-id=none"));
	cr_assert(build("nopie", "-fno-PIE -no-pie"));
	cr_assert(eq(int, profconv_elf_facts_read(&facts, pie), 0), "%s",
	    ERRMSG);
	expect_as_readelf(pie);
	cr_assert(eq(int, facts->pie, 1));
	cr_assert(eq(int, facts->elf_type, ET_DYN));
	cr_assert(eq(str, STR(facts->build_id), ""));
	cr_assert(not(zero(ptr, (void *)facts->interpreter)));
	profconv_elf_facts_free(facts);
	cr_assert(eq(int, profconv_elf_facts_read(&facts, nopie), 0), "%s",
	    ERRMSG);
	expect_as_readelf(nopie);
	cr_assert(eq(int, facts->pie, 0));
	cr_assert(eq(int, facts->elf_type, ET_EXEC));
	ASSERT_NO_LEAKS();
}

/* Set-user-ID and set-group-ID bits are said. */
Test(elffacts, set_id_bits)
{
	const char *prog = in_dir(0, "suid");

	cr_assert(build("suid", ""));
	cr_assert(eq(int, chmod(prog, 04755), 0));
	cr_assert(eq(int, profconv_elf_facts_read(&facts, prog), 0), "%s",
	    ERRMSG);
	cr_assert(eq(int, facts->set_id, 1));
	profconv_elf_facts_free(facts);
	cr_assert(eq(int, chmod(prog, 02755), 0));
	cr_assert(eq(int, profconv_elf_facts_read(&facts, prog), 0), "%s",
	    ERRMSG);
	cr_assert(eq(int, facts->set_id, 1));
	profconv_elf_facts_free(facts);
	cr_assert(eq(int, chmod(prog, 0755), 0));
	cr_assert(eq(int, profconv_elf_facts_read(&facts, prog), 0), "%s",
	    ERRMSG);
	cr_assert(eq(int, facts->set_id, 0));
}

/* --- scripts ----------------------------------------------------------------- */

static void
write_file(const char *path, const char *text, mode_t mode)
{
	FILE *fp = fopen(path, "w");

	cr_assert(not(zero(ptr, fp)));
	fputs(text, fp);
	fclose(fp);
	cr_assert(eq(int, chmod(path, mode), 0));
}

/* A "#!" script: the facts are its interpreter's, as the kernel runs it;
 * blanks and an argument on the line are the kernel's way too. */
Test(elffacts, script_is_its_interpreter)
{
	const char *script = in_dir(0, "script.sh");

	write_file(script, "#! \t/bin/sh -e\necho hello\n", 0755);
	cr_assert(eq(int, profconv_elf_facts_read(&facts, script), 0), "%s",
	    ERRMSG);
	cr_assert(eq(str, STR(facts->script_interpreter), "/bin/sh"));
	cr_assert(eq(str, STR(facts->path), "/bin/sh"));
	expect_as_readelf("/bin/sh");
	cr_assert(not(zero(ptr, (void *)facts->interpreter)));
	ASSERT_NO_LEAKS();
}

/* A script run by a script run by a static program: followed to the
 * end; the first interpreter is the one the script names. */
Test(elffacts, scripts_are_followed)
{
	char text[512];

	if (!build("static", "-static"))
		cr_skip_test("cannot link statically (no libc.a)");
	snprintf(text, sizeof(text), "#!%s\n", in_dir(0, "static"));
	write_file(in_dir(0, "inner"), text, 0755);
	snprintf(text, sizeof(text), "#!%s\n", in_dir(0, "inner"));
	write_file(in_dir(1, "outer"), text, 0755);
	cr_assert(eq(int, profconv_elf_facts_read(&facts, in_dir(1, "outer")),
	    0), "%s", ERRMSG);
	cr_assert(eq(str, STR(facts->script_interpreter),
	    STR(in_dir(0, "inner"))));
	cr_assert(eq(str, STR(facts->path), STR(in_dir(2, "static"))));
	cr_assert(zero(ptr, (void *)facts->interpreter));
}

/* Scripts that name each other: refused after the kernel's depth. */
static void
script_loop_is_refused(void)
{
	char text[512], want[600];

	snprintf(text, sizeof(text), "#!%s\n", in_dir(0, "a"));
	write_file(in_dir(0, "a"), text, 0755);
	cr_assert(eq(int, profconv_elf_facts_read(&facts, in_dir(1, "a")),
	    PROFCONV_EFORMAT));
	snprintf(want, sizeof(want), "'%s': scripts nested more than 4 deep",
	    in_dir(0, "a"));
	cr_assert(eq(str, ERRMSG, want));
	cr_assert(zero(ptr, facts));
	profconv_elf_facts_free(facts);
	facts = NULL;
}

/* Bad "#!" lines, a missing interpreter, a text file, a directory. */
static void
refusals_name_the_file(void)
{
	char line[400], want[600];

	write_file(in_dir(0, "empty"), "#!   \nx\n", 0755);
	cr_assert(eq(int, profconv_elf_facts_read(&facts, in_dir(0, "empty")),
	    PROFCONV_EFORMAT));
	snprintf(want, sizeof(want), "'%s': the '#!' line names no "
	    "interpreter", in_dir(0, "empty"));
	cr_assert(eq(str, ERRMSG, want));

	memset(line, 'x', sizeof(line));
	memcpy(line, "#!/", 3);
	line[sizeof(line) - 1] = '\0';
	write_file(in_dir(0, "long"), line, 0755);
	cr_assert(eq(int, profconv_elf_facts_read(&facts, in_dir(0, "long")),
	    PROFCONV_EFORMAT));
	snprintf(want, sizeof(want), "'%s': the '#!' line has no end within "
	    "its first 256 bytes", in_dir(0, "long"));
	cr_assert(eq(str, ERRMSG, want));

	write_file(in_dir(0, "gone"), "#!/no/such/interpreter\n", 0755);
	cr_assert(eq(int, profconv_elf_facts_read(&facts, in_dir(0, "gone")),
	    PROFCONV_ENOTFOUND));
	cr_assert(eq(str, ERRMSG, "cannot open '/no/such/interpreter': No "
	    "such file or directory"));

	write_file(in_dir(0, "text"), "echo hello\n", 0755);
	cr_assert(eq(int, profconv_elf_facts_read(&facts, in_dir(0, "text")),
	    PROFCONV_EFORMAT));
	snprintf(want, sizeof(want), "'%s' is neither an ELF file nor a "
	    "script ('#!')", in_dir(0, "text"));
	cr_assert(eq(str, ERRMSG, want));

	cr_assert(eq(int, profconv_elf_facts_read(&facts, dir),
	    PROFCONV_EFORMAT));
	snprintf(want, sizeof(want), "'%s' is not a regular file", dir);
	cr_assert(eq(str, ERRMSG, want));
	cr_assert(zero(ptr, facts));
	ASSERT_NO_LEAKS();
	profconv_elf_facts_free(facts);
	facts = NULL;
}

Test(elffacts, refuses_scripts_and_other_files)
{
	script_loop_is_refused();
	refusals_name_the_file();
}

/* --- hostile ELF files --------------------------------------------------- */

/* How craft() makes its file. */
struct craft {
	size_t needed;		/* DT_NEEDED entries */
	uint64_t needed_off;	/* their string's offset in DT_STRTAB */
	size_t debug;		/* DT_DEBUG entries after them */
	bool no_null;		/* no DT_NULL at the end */
	bool interp_open;	/* PT_INTERP without its NUL */
	size_t truncate;	/* cut the file here; 0: not */
};

/*
 * An ELF64 shared object at PATH: its header, three program headers
 * (a PT_LOAD of the whole file at 0x400000, PT_INTERP, PT_DYNAMIC), the
 * interpreter's name at 256, the string table at 512, the dynamic
 * section at 1024.
 */
static void
craft(const char *path, const struct craft *c)
{
	static const char strtab[] = "\0libx.so";
	size_t ndyn = 2 + c->needed + c->debug + !c->no_null, size, i, k = 0;
	Elf64_Ehdr *eh;
	Elf64_Phdr *ph;
	Elf64_Dyn *dyn;
	unsigned char *img;
	FILE *fp;

	size = 1024 + ndyn * sizeof(Elf64_Dyn);
	img = calloc(1, size);
	cr_assert(not(zero(ptr, img)));
	eh = (Elf64_Ehdr *)img;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_DYN;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = 3;
	ph = (Elf64_Phdr *)(img + sizeof(*eh));
	ph[0].p_type = PT_LOAD;
	ph[0].p_vaddr = 0x400000;
	ph[0].p_filesz = ph[0].p_memsz = size;
	ph[0].p_flags = PF_R | PF_X;
	ph[1].p_type = PT_INTERP;
	ph[1].p_offset = 256;
	memcpy(img + 256, "/lib/ld.so", 11);
	ph[1].p_filesz = c->interp_open ? 10 : 11;
	ph[2].p_type = PT_DYNAMIC;
	ph[2].p_offset = 1024;
	ph[2].p_filesz = ndyn * sizeof(Elf64_Dyn);
	memcpy(img + 512, strtab, sizeof(strtab));
	dyn = (Elf64_Dyn *)(img + 1024);
	dyn[k].d_tag = DT_STRTAB;
	dyn[k++].d_un.d_ptr = 0x400000 + 512;
	dyn[k].d_tag = DT_STRSZ;
	dyn[k++].d_un.d_val = sizeof(strtab);
	for (i = 0; i < c->needed; i++) {
		dyn[k].d_tag = DT_NEEDED;
		dyn[k++].d_un.d_val = c->needed_off;
	}
	for (i = 0; i < c->debug; i++)
		dyn[k++].d_tag = DT_DEBUG;
	if (!c->no_null)
		dyn[k++].d_tag = DT_NULL;
	fp = fopen(path, "wb");
	cr_assert(not(zero(ptr, fp)));
	cr_assert(eq(sz, fwrite(img, 1, c->truncate != 0 ? c->truncate : size,
	    fp), c->truncate != 0 ? c->truncate : size));
	fclose(fp);
	free(img);
}

/* The crafted file itself reads right: the hostile ones below differ
 * from it in one thing each. */
static void
crafted_file_reads(void)
{
	struct craft c = { .needed = 3, .needed_off = 1 };
	const char *path = in_dir(0, "crafted");
	size_t i;

	craft(path, &c);
	cr_assert(eq(int, profconv_elf_facts_read(&facts, path), 0), "%s",
	    ERRMSG);
	cr_assert(eq(str, STR(facts->interpreter), "/lib/ld.so"));
	cr_assert(eq(sz, facts->nneeded, 3));
	for (i = 0; i < 3; i++)
		cr_assert(eq(str, STR(facts->needed[i]), "libx.so"));
	cr_assert(eq(int, facts->pie, 1));
	ASSERT_NO_LEAKS();
	profconv_elf_facts_free(facts);
	facts = NULL;
}

/* CRAFT's file is refused with WANT (after the file's quoted name). */
static void
expect_refused(const struct craft *c, const char *want)
{
	const char *path = in_dir(0, "hostile");
	char msg[600];

	craft(path, c);
	cr_assert(eq(int, profconv_elf_facts_read(&facts, path),
	    PROFCONV_EFORMAT), "%s", want);
	cr_assert(zero(ptr, facts));
	snprintf(msg, sizeof(msg), "'%s'%s", path, want);
	cr_assert(eq(str, ERRMSG, msg));
	ASSERT_NO_LEAKS();
}

static void
too_many_needed(void)
{
	struct craft c = { .needed = 1025, .needed_off = 1 };

	expect_refused(&c, ": more than 1024 DT_NEEDED entries");
	/* 1024 of them are fine. */
	c.needed = 1024;
	craft(in_dir(0, "hostile"), &c);
	cr_assert(eq(int, profconv_elf_facts_read(&facts,
	    in_dir(0, "hostile")), 0), "%s", ERRMSG);
	cr_assert(eq(sz, facts->nneeded, 1024));
	profconv_elf_facts_free(facts);
	facts = NULL;
}

static void
needed_outside_strtab(void)
{
	struct craft c = { .needed = 1, .needed_off = 100 };

	expect_refused(&c, ": DT_NEEDED 100 lies outside DT_STRTAB's 9 bytes");
}

static void
dynamic_section_without_end(void)
{
	struct craft c = { .needed = 1, .needed_off = 1, .debug = 5000,
		.no_null = true };

	expect_refused(&c, ": no DT_NULL in the first 4096 entries of the "
	    "dynamic section at offset 0x400");
}

static void
interpreter_without_nul(void)
{
	struct craft c = { .needed = 1, .needed_off = 1, .interp_open = true };

	expect_refused(&c, ": PT_INTERP at offset 0x100 is not a string of "
	    "at most 4096 bytes");
}

static void
truncated_file(void)
{
	struct craft c = { .needed = 1, .needed_off = 1, .truncate = 100 };

	/* libelf would count the program headers that fit: none. */
	expect_refused(&c, ": the program headers at offset 0x40 are cut "
	    "short");
}

Test(elffacts, crafted_files_read_or_are_refused)
{
	crafted_file_reads();
	too_many_needed();
	needed_outside_strtab();
	dynamic_section_without_end();
	interpreter_without_nul();
	truncated_file();
}
