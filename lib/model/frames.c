/* SPDX-License-Identifier: MIT */
/*
 * frames.c - pprof's default drop_frames and keep_frames for a profile's
 * sample types (its addLegacyFrameInfo): the allocator, CPU-profiler and
 * lock frames that no one wants at a stack's leaf.  The legacy readers
 * store them in the profile they build; the view falls back on them for a
 * profile that names none.
 */

#include "config.h"

#include <string.h>

#include "model/model.h"

static const char alloc_rx[] =
	"calloc|cfree|malloc|free|memalign|do_memalign|(__)?posix_memalign|"
	"pvalloc|valloc|realloc|tcmalloc::.*|tc_calloc|tc_cfree|tc_malloc|"
	"tc_free|tc_memalign|tc_posix_memalign|tc_pvalloc|tc_valloc|"
	"tc_realloc|tc_new|tc_delete|tc_newarray|tc_deletearray|"
	"tc_new_nothrow|tc_newarray_nothrow|malloc_zone_malloc|"
	"malloc_zone_calloc|malloc_zone_valloc|malloc_zone_realloc|"
	"malloc_zone_memalign|malloc_zone_free|runtime\\..*|BaseArena::.*|"
	"(::)?do_malloc_no_errno|(::)?do_malloc_pages|(::)?do_malloc|"
	"DoSampledAllocation|MallocedMemBlock::MallocedMemBlock|_M_allocate|"
	"__builtin_(vec_)?delete|__builtin_(vec_)?new|"
	"__gnu_cxx::new_allocator::allocate|__libc_malloc|"
	"__malloc_alloc_template::allocate|allocate|cpp_alloc|"
	"operator new(\\[\\])?|simple_alloc::allocate";
static const char alloc_skip_rx[] =
	"runtime\\.panic|runtime\\.reflectcall|runtime\\.call[0-9]*";
static const char cpu_profiler_rx[] =
	"ProfileData::Add|ProfileData::prof_handler|CpuProfiler::prof_handler|"
	"__pthread_sighandler|__restore";
static const char lock_rx[] =
	"RecordLockProfileData|(base::)?RecordLockProfileData.*|"
	"(base::)?SubmitMutexProfileData.*|(base::)?SubmitSpinLockProfileData.*|"
	"(base::Mutex::)?AwaitCommon.*|(base::Mutex::)?Unlock.*|"
	"(base::Mutex::)?UnlockSlow.*|(base::Mutex::)?ReaderUnlock.*|"
	"(base::MutexLock::)?~MutexLock.*|(Mutex::)?AwaitCommon.*|"
	"(Mutex::)?Unlock.*|(Mutex::)?UnlockSlow.*|(Mutex::)?ReaderUnlock.*|"
	"(MutexLock::)?~MutexLock.*|(SpinLock::)?Unlock.*|"
	"(SpinLock::)?SlowUnlock.*|(SpinLockHolder::)?~SpinLockHolder.*";

/* Do the sample type names equal the NAMES list (NULL-terminated)? */
static bool
types_are(const struct profconv_profile *prof, const char *const *names)
{
	size_t i;

	for (i = 0; names[i] != NULL; i++)
		if (i >= prof->nsample_types || strcmp(profconv__pstr(prof,
		    prof->sample_types[i].type), names[i]) != 0)
			return false;
	return i == prof->nsample_types;
}

/* pprof's addLegacyFrameInfo: the frames PROF's sample types drop. */
void
profconv__default_frames(const struct profconv_profile *prof,
    const char **drop, const char **keep)
{
	static const char *const heap[][5] = {
		{ "allocations", "size", NULL },
		{ "objects", "space", NULL },
		{ "inuse_objects", "inuse_space", NULL },
		{ "alloc_objects", "alloc_space", NULL },
		{ "alloc_objects", "alloc_space", "inuse_objects",
		    "inuse_space", NULL },
	};
	static const char *const contention[] = { "contentions", "delay", NULL };
	size_t i;

	*keep = NULL;
	for (i = 0; i < PC_ARRAY_LEN(heap); i++) {
		if (types_are(prof, heap[i])) {
			*drop = alloc_rx;
			*keep = alloc_skip_rx;
			return;
		}
	}
	*drop = types_are(prof, contention) ? lock_rx : cpu_profiler_rx;
}

