/*
 * dump_now.h - mallctl("prof.dump") when the program runs under a
 * profiling jemalloc (LD_PRELOAD or linked), nothing otherwise.  The
 * test producers that write a dump at a moment of their choosing
 * include it; each is built alone with gcc at test time, so this is a
 * header with one static function, not a library.
 */
#ifndef PRODUCERS_DUMP_NOW_H
#define PRODUCERS_DUMP_NOW_H

#include <dlfcn.h>
#include <stddef.h>

static void
dump_now(void)
{
	int (*ctl)(const char *, void *, size_t *, void *, size_t);

	*(void **)&ctl = dlsym(RTLD_DEFAULT, "mallctl");
	if (ctl != NULL)
		(void)ctl("prof.dump", NULL, NULL, NULL, 0);
}

#endif
