/* SPDX-License-Identifier: MIT */
/*
 * sigbus.c - a file truncated while it is mapped: an error, not a crash.
 *
 * A command that installs this handler tells libprofconv so
 * (profconv_symbolize_options.handles_sigbus), and the library then maps
 * binaries and debug files as they are instead of reading them into
 * private copies (the split DWARF (.dwo) files libdw opens on its own
 * are always mapped); a rebuild that copies over one of them while it
 * is read makes the next access past its new end raise SIGBUS.  A file
 * rewritten in place without shrinking is caught by the library, which
 * checks each file's identity after reading it.
 * The library may not touch signal dispositions; a command may.  While a
 * command symbolizes, SIGBUS on an address inside a mapped file prints
 * one line naming the file and the offset that vanished, removes the
 * temporary output file, and exits 1, as for any input that could not
 * be read.  Any other SIGBUS (a real fault) keeps its default action.
 *
 * Everything in the handler is async-signal-safe: open, read, write,
 * unlink (through cmd_output_abandon()), _exit.
 */

#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* A line of /proc/self/maps: "start-end perms offset dev inode path". */
#define MAPS_LINE 8192

static char maps_line[MAPS_LINE];

/* The hexadecimal number at *P, advancing P past it. */
static uint64_t
hex(const char **p)
{
	uint64_t v = 0;

	for (;; (*p)++) {
		char c = **p;

		if (c >= '0' && c <= '9')
			v = v * 16 + (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (uint64_t)(c - 'a' + 10);
		else
			return v;
	}
}

/*
 * Whether LINE maps ADDR from a file: then *PATH points into LINE at the
 * file's name and *OFF is ADDR's offset in the file.
 */
static bool
line_maps(const char *line, uintptr_t addr, const char **path, uint64_t *off)
{
	const char *p = line;
	uint64_t start, end, foff;
	int field;

	start = hex(&p);
	if (*p++ != '-')
		return false;
	end = hex(&p);
	if (addr < start || addr >= end)
		return false;
	/* perms, then the offset. */
	while (*p == ' ')
		p++;
	while (*p != ' ' && *p != '\0')
		p++;
	while (*p == ' ')
		p++;
	foff = hex(&p);
	/* dev and inode, then the path (absent for anonymous memory). */
	for (field = 0; field < 2; field++) {
		while (*p == ' ')
			p++;
		while (*p != ' ' && *p != '\0')
			p++;
	}
	while (*p == ' ')
		p++;
	if (*p != '/')
		return false;
	*path = p;
	*off = foff + (addr - start);
	return true;
}

static void
put(const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(STDERR_FILENO, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void
put_str(const char *s)
{
	put(s, strlen(s));
}

/* PATH with control bytes shown as '?': a name is data, not a command
 * to the terminal. */
static void
put_path(const char *path)
{
	for (const char *p = path; *p != '\0'; p++) {
		char c = (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p;

		put(&c, 1);
	}
}

static void
put_u64(uint64_t v)
{
	char buf[24];
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	put(buf + i, sizeof(buf) - i);
}

/* Find ADDR's file in /proc/self/maps and report it; false when ADDR is
 * not in a mapped file. */
static bool
report(uintptr_t addr)
{
	const char *path;
	uint64_t off;
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	for (;;) {
		char *nl;

		n = read(fd, maps_line + len, sizeof(maps_line) - 1 - len);
		if (n <= 0)
			break;
		len += (size_t)n;
		maps_line[len] = '\0';
		while ((nl = strchr(maps_line, '\n')) != NULL) {
			*nl = '\0';
			if (line_maps(maps_line, addr, &path, &off)) {
				close(fd);
				put_str(cmd_name);
				put_str(": '");
				/* The kernel marks a replaced file. */
				n = (ssize_t)strlen(path);
				if (n > 10 && strcmp(path + n - 10, " (deleted)") == 0)
					maps_line[(path - maps_line) + n - 10] = '\0';
				put_path(path);
				put_str("' changed while it was read (no data "
				    "at offset ");
				put_u64(off);
				put_str(" any more)\n");
				return true;
			}
			len -= (size_t)(nl + 1 - maps_line);
			memmove(maps_line, nl + 1, len + 1);
		}
		if (len == sizeof(maps_line) - 1)
			len = 0;	/* an overlong line: skip it */
	}
	close(fd);
	return false;
}

static void
on_sigbus(int sig, siginfo_t *si, void *context)
{
	(void)context;
	if (si->si_code == BUS_ADRERR && report((uintptr_t)si->si_addr)) {
		cmd_output_abandon();
		_exit(EXIT_FAIL);
	}
	/* A fault of another kind: the default action, on return. */
	signal(sig, SIG_DFL);
}

bool
cmd_catch_sigbus(void)
{
	static bool done, caught;
	struct sigaction sa, old;

	if (done)
		return caught;
	done = true;
	/* Someone else's handler (a sanitizer's, say) stays. */
	if (sigaction(SIGBUS, NULL, &old) != 0 ||
	    ((old.sa_flags & SA_SIGINFO) == 0 && old.sa_handler != SIG_DFL))
		return false;
	if ((old.sa_flags & SA_SIGINFO) != 0)
		return false;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	caught = sigaction(SIGBUS, &sa, NULL) == 0;
	return caught;
}
