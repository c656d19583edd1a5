/* SPDX-License-Identifier: MIT */
/*
 * bigkeep.c - batches of 4 KiB temporaries come and go for STEPS steps
 * (default 40); at step STEPS - 6 one buffer of 1 MiB is kept to the
 * end.  Under jemalloc's default sampling (a sample every 512 KiB) the
 * buffer is one sampled object larger than the period: sampled nearly
 * always (86%), and its row a new high in the last quarter of the run.
 */
#include <stdlib.h>
#include <string.h>

static char *kept, *batch[400];

__attribute__((noinline)) static char *
keep_buffer(size_t n)
{
	char *p = malloc(n);

	if (p != NULL)
		memset(p, 1, n);
	return p;
}

__attribute__((noinline)) static void
scratch(size_t step)
{
	size_t j;

	for (j = 0; j < 400; j++) {
		batch[j] = malloc(4096 + 16 * (step % 7));
		if (batch[j] != NULL)
			memset(batch[j], 2, 4096);
	}
	for (j = 0; j < 400; j++)
		free(batch[j]);
}

int
main(int argc, char **argv)
{
	size_t steps = argc > 1 ? strtoul(argv[1], NULL, 10) : 40, i;

	for (i = 0; i < steps; i++) {
		if (i + 6 == steps)
			kept = keep_buffer(1 << 20);
		scratch(i);
	}
	return kept != NULL && kept[0] == 1 ? 0 : 1;
}
