/* SPDX-License-Identifier: MIT */
/*
 * frames.c - pprof's default drop_frames and keep_frames for a profile's
 * sample types (its addLegacyFrameInfo): the allocator, CPU-profiler and
 * lock frames that no one wants at a stack's leaf.  The legacy readers
 * store them in the profile they build; the view falls back on them for a
 * profile that names none.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
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


bool
profconv__counts_allocations(const struct profconv_profile *prof)
{
	size_t i;

	for (i = 0; i < prof->nsample_types; i++) {
		const char *t = profconv__pstr(prof, prof->sample_types[i].type);
		const char *u = profconv__pstr(prof, prof->sample_types[i].unit);

		if (strncmp(t, "alloc_", 6) == 0 ||
		    strncmp(t, "inuse_", 6) == 0 ||
		    strcmp(t, "space") == 0 || strcmp(t, "objects") == 0 ||
		    strcmp(u, "bytes") == 0)
			return true;
	}
	return false;
}

bool
profconv__allocator_library(const char *file)
{
	const char *base = strrchr(file, '/');

	base = base != NULL ? base + 1 : file;
	return strncmp(base, "libjemalloc", 11) == 0 ||
	    strncmp(base, "libtcmalloc", 11) == 0 ||
	    strncmp(base, "libmimalloc", 11) == 0;
}

/* POSIX ERE and RE2 alike; pprof anchors it whole. */
const char profconv__allocator_library_rx[] =
	"lib(jemalloc|tcmalloc|mimalloc)[^+]*\\+0x[0-9a-f]+";

/* Location L's module (its file's base name) and ELF address there; false
 * without a mapped file. */
static bool
module_address(const struct profconv_profile *prof,
    const struct pc_location *l, const char **module, uint64_t *at)
{
	const struct pc_mapping *m;
	const char *file, *base;

	if (l->mapping == 0)
		return false;
	m = pc_mapping(prof, l->mapping);
	file = profconv__pstr(prof, m->file);
	base = strrchr(file, '/');
	base = base != NULL ? base + 1 : file;
	if (*base == '\0' || l->address < m->start)
		return false;
	/* The file offset, then where the linker put it. */
	*at = l->address - m->start + m->offset;
	if ((m->flags & PC_MAP_VADDR) != 0)
		*at += m->vaddr_delta;
	*module = base;
	return true;
}

const char *
profconv__unnamed_frame(const struct profconv_profile *prof, uint32_t id,
    char *buf, size_t size)
{
	const struct pc_location *l = pc_location(prof, id);
	const char *module;
	uint64_t at;

	if (module_address(prof, l, &module, &at))
		snprintf(buf, size, "%s+0x%" PRIx64, module, at);
	else
		snprintf(buf, size, "%#" PRIx64, l->address);
	return buf;
}

const char *
profconv__address_suffix(const struct profconv_profile *prof, uint32_t id,
    char *buf, size_t size)
{
	const struct pc_location *l = pc_location(prof, id);
	char at[PC_UNNAMED_MAX];

	if (l->has_fn_offset)
		snprintf(buf, size, "+0x%" PRIx32, l->fn_offset);
	else
		snprintf(buf, size, " [%s]",
		    profconv__unnamed_frame(prof, id, at, sizeof(at)));
	return buf;
}

bool
profconv__named_unnamed(const struct profconv_profile *prof, uint32_t id)
{
	const struct pc_location *l = pc_location(prof, id);
	const struct pc_function *f;
	const char *name, *file, *base;
	size_t n;

	if (l->nlines != 1 || l->mapping == 0)
		return false;
	f = pc_function(prof, pc_location_lines(prof, l)[0].function);
	if (f->file != 0 || pc_location_lines(prof, l)[0].line != 0)
		return false;
	file = profconv__pstr(prof, pc_mapping(prof, l->mapping)->file);
	base = strrchr(file, '/');
	base = base != NULL ? base + 1 : file;
	name = profconv__pstr(prof, f->name);
	n = strlen(base);
	if (n == 0 || strncmp(name, base, n) != 0 ||
	    strncmp(name + n, "+0x", 3) != 0 || name[n + 3] == '\0')
		return false;
	return strspn(name + n + 3, "0123456789abcdef") == strlen(name + n + 3);
}

/*
 * The allocation wrappers of common runtimes and libraries, cut like
 * malloc: a row named after one says nothing about who allocated.
 * POSIX ERE and RE2 alike; matched whole, as drop_frames is.
 */
const char profconv__wrappers_rx[] =
	/* GCC, binutils (libiberty), git, coreutils (gnulib) */
	"xmalloc|xcalloc|xrealloc|xzalloc|xmallocz|xmallocz_gently|do_xmalloc|"
	"xstrdup|xstrndup|xmemdup|xmemdupz|xnmalloc|xnrealloc|x2realloc|"
	"x2nrealloc|xcharalloc|"
	/* redis (zmalloc.c); zlib's zcalloc */
	"z(try)?(malloc|calloc|realloc)(_[a-z_]+)?|zstrdup|zcalloc_num|"
	/* CPython */
	"_?PyObject_(Malloc|Calloc|Realloc)|_?PyMem_(Raw)?(Malloc|Calloc|Realloc)|"
	"_PyMem_Debug(Raw)?(Malloc|Calloc|Realloc|Alloc)|"
	"_PyObject_GC_(Alloc|Malloc|Calloc|New|NewVar|Link)|"
	"PyObject_GC_(Malloc|Calloc)|gc_alloc|_PyObject_(New|NewVar)|"
	"PyType_GenericAlloc|pymalloc_alloc|pymalloc_realloc|"
	/* SQLite */
	"sqlite3(Mem|Db)?(Malloc|Realloc)[A-Za-z0-9]*|sqlite3_(malloc|realloc)(64)?|"
	"mallocWithAlarm|dbMallocRawFinish|dbReallocFinish|sqlite3DbStrN?Dup|"
	/* GLib */
	"g_(try_)?(malloc0?|realloc)(_n)?|g_slice_alloc0?|g_memdup2?|g_strn?dup|"
	/* Perl */
	"Perl_safesys(malloc|calloc|realloc)|"
	/* Lua 5.1-5.4 (lmem.c) and lauxlib's default allocator */
	"luaM_(malloc_|realloc_|saferealloc_|growaux_|shrinkvector_)|"
	"l_alloc|"
	/* Ruby (gc.c) */
	"ruby_x(malloc|calloc|realloc)2?(_body)?|objspace_x(malloc0|calloc|"
	"realloc)|ruby_mimmalloc|"
	/* PHP (Zend) */
	"_e(malloc|calloc|realloc2?)(_[0-9]+|_large|_huge)?|"
	"_safe_e?(malloc|realloc)|__zend_(malloc|calloc|realloc)|_estrn?dup|"
	"zend_mm_(alloc|realloc)_(heap|small|large|huge)|"
	/* OpenSSL */
	"CRYPTO_(malloc|zalloc|realloc|clear_realloc|strn?dup|memdup|"
	"secure_(malloc|zalloc))|"
	/* LLVM */
	"llvm::safe_(malloc|calloc|realloc)|llvm::allocate_buffer|"
	"llvm::MallocAllocator::Allocate|"
	"llvm::SmallVectorBase(<.*>)?::(grow_pod|mallocForGrow)|"
	"llvm::BumpPtrAllocatorImpl(<.*>)?::(Allocate|AllocateSlow|"
	"StartNewSlab)|"
	/* nginx pools */
	"ngx_(alloc|calloc|memalign|palloc|pnalloc|pcalloc|pmemalign|"
	"palloc_small|palloc_large|palloc_block)|"
	/* APR pools */
	"apr_p(c)?alloc|apr_pstrn?dup|apr_pstrmemdup|apr_pmemdup|"
	"apr_allocator_alloc|allocator_alloc|"
	/* PostgreSQL memory contexts */
	"palloc(0|_extended)?|repalloc(_huge|_extended)?|"
	"MemoryContextAlloc(Zero|ZeroAligned|Extended|Huge|Aligned)?|"
	"AllocSet(Alloc|Realloc)[A-Za-z]*|GenerationAlloc[A-Za-z]*|"
	"SlabAlloc[A-Za-z]*|BumpAlloc[A-Za-z]*|pn?strdup|"
	/* libxml2 */
	"xmlMem(Malloc|Realloc|Strdup)(Loc)?|xml(Malloc|MallocAtomic|"
	"Realloc)Loc|xmlStrn?dup|"
	/* Tcl */
	"Tcl_(Attempt)?(Alloc|Realloc)|Tcl_(Attempt)?DbCk(alloc|realloc)|"
	"Tclp(Alloc|Realloc)|"
	/* C++ standard library allocators */
	"std::(__new_allocator|allocator|allocator_traits)(<.*>)?::allocate|"
	"__gnu_cxx::(__)?new_allocator(<.*>)?::allocate|"
	"std::_Vector_base(<.*>)?::_M_allocate|"
	/* Rust */
	"__rust_(alloc|alloc_zeroed|realloc)|__r[dg]l_(alloc|alloc_zeroed|realloc)|"
	"alloc::alloc::(alloc|alloc_zeroed|realloc|exchange_malloc)|"
	"alloc::alloc::Global::(alloc_impl|grow_impl)|"
	"<alloc::alloc::Global as core::alloc::Allocator>::"
	"(allocate|allocate_zeroed|grow|grow_zeroed)";

char *
profconv__drop_with(const char *drop, const char *alt, bool with)
{
	size_t n = strlen(drop), k = strlen(alt);
	const char *at = NULL, *p;
	char *out;

	/* ALT as one whole alternative of DROP. */
	for (p = strstr(drop, alt); p != NULL; p = strstr(p + 1, alt))
		if ((p == drop || p[-1] == '|') &&
		    (p[k] == '\0' || p[k] == '|')) {
			at = p;
			break;
		}
	out = malloc(n + k + 2);
	if (out == NULL)
		return NULL;
	if (at != NULL && !with) {
		size_t head = (size_t)(at - drop), tail = head + k;

		/* Its '|' goes with it: the one before, or else after. */
		if (head > 0)
			head--;
		else if (drop[tail] == '|')
			tail++;
		memcpy(out, drop, head);
		memcpy(out + head, drop + tail, n - tail + 1);
	} else if (at == NULL && with) {
		snprintf(out, n + k + 2, "%s%s%s", drop, n != 0 ? "|" : "", alt);
	} else {
		memcpy(out, drop, n + 1);
	}
	return out;
}
