/* SPDX-License-Identifier: MIT */
/* massif-leak.c - one steady leak and one allocation freed each round, for
 * proftrend over the detailed snapshots of one massif file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *kept[100];

__attribute__((noinline)) void
leak_step(int i)
{
	kept[i] = malloc(20000);
	memset(kept[i], 1, 20000);
}

__attribute__((noinline)) void
churn(void)
{
	char *p = malloc(50000);

	memset(p, 2, 50000);
	printf("%d", p[7]);
	free(p);
}

int
main(void)
{
	for (int i = 0; i < 40; i++) {
		leak_step(i);
		churn();
	}
	printf("\n%p\n", kept[3]);
	return 0;
}
