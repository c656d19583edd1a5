// SPDX-License-Identifier: MIT
// tcmalloc.cc - a program for the tcmalloc producer tests: allocations on
// several call paths (kept, leaked, freed), a worker thread, and from that
// thread tcmalloc's own heap sample and growth stacks written to the files
// named on the command line.  The heap profiler (HEAPPROFILE=...) writes
// its own dumps meanwhile.
//
// usage: tcmalloc SAMPLE-FILE GROWTH-FILE [ROUNDS]

#include <gperftools/malloc_extension.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <string>
#include <vector>

static std::vector<void *> kept;

__attribute__((noinline)) static void *
alloc_small(size_t n)
{
	void *p = malloc(n);
	memset(p, 1, n);
	return p;
}

__attribute__((noinline)) static void *
alloc_large(size_t n)
{
	char *p = new char[n];
	memset(p, 2, n);
	return p;
}

__attribute__((noinline)) static void
churn(int i)
{
	void *p = alloc_small(64 + (size_t)(i % 13) * 48);
	free(p);
}

__attribute__((noinline)) static void
work(int rounds)
{
	for (int i = 0; i < rounds; i++) {
		churn(i);
		if (i % 4 == 0)
			kept.push_back(alloc_small(200 + (size_t)(i % 7) * 100));
		if (i % 50 == 0)
			(void)alloc_large(32768);	// leaked
	}
}

struct files {
	const char *sample, *growth;
	int rounds;
};

static void
save(const char *path, const std::string &text)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL) {
		perror(path);
		exit(1);
	}
	fwrite(text.data(), 1, text.size(), fp);
	fclose(fp);
}

// tcmalloc samples the main thread only after 16 MiB (legacy-producers.md
// §1.4), so the heap sample is taken from a thread of its own.
static void *
worker(void *arg)
{
	const files *f = static_cast<const files *>(arg);
	std::string s;

	work(f->rounds);
	MallocExtension::instance()->GetHeapSample(&s);
	save(f->sample, s);
	s.clear();
	MallocExtension::instance()->GetHeapGrowthStacks(&s);
	save(f->growth, s);
	return NULL;
}

int
main(int argc, char **argv)
{
	files f;
	pthread_t t;

	if (argc < 3) {
		fprintf(stderr, "usage: tcmalloc SAMPLE GROWTH [ROUNDS]\n");
		return 2;
	}
	f.sample = argv[1];
	f.growth = argv[2];
	f.rounds = argc > 3 ? atoi(argv[3]) : 20000;
	work(f.rounds);
	// An mmap region, for HEAP_PROFILE_MMAP=true runs.
	void *m = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	pthread_create(&t, NULL, worker, &f);
	pthread_join(t, NULL);
	return 0;
}
