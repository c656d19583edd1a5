/* SPDX-License-Identifier: MIT */
/*
 * symbolizer.c - profconv_symbolize() and the symbolizer that outlives a
 * profile: give a profile's locations their functions, files, lines and
 * inline chains from the binaries and debug info of their mappings.
 *
 * This file holds the public entry points and function deduplication;
 * the run they start is cut into its passes (plan.c, lookup.c,
 * convert.c) over the modules a symbolizer keeps (modules.c), as
 * symbolizer.h describes.
 *
 * Nothing here touches process-wide state: debuginfod stays off through
 * the session's own find_debuginfo callback (modules.c), not by hiding
 * $DEBUGINFOD_URLS, so different symbolizers may run in parallel.
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolizer.h"

/* --- function deduplication ----------------------------------------------- */

static uint64_t
func_key(const struct pc_function *f)
{
	uint64_t k[4];

	k[0] = f->name;
	k[1] = f->system_name;
	k[2] = f->file;
	k[3] = (uint64_t)f->start_line;
	return profconv__hash_bytes(k, sizeof(k), 0x9e3779b97f4a7c15ULL);
}

static bool
same_function(const struct pc_function *a, const struct pc_function *b)
{
	return a->name == b->name && a->system_name == b->system_name &&
	    a->file == b->file && a->start_line == b->start_line;
}

/*
 * Find F under its hash key, or the first free key after it: keys of
 * different functions that collide are told apart by comparing them.
 */
static bool
funcset_find(const struct pc_funcset *set,
    const struct profconv_profile *prof, const struct pc_function *f,
    uint64_t *key, uint32_t *id)
{
	for (*key = func_key(f); profconv__u64map_get(&set->ids, *key, id);
	    (*key)++)
		if (same_function(pc_function(prof, *id), f))
			return true;
	return false;
}

int
profconv__funcset_init(struct pc_funcset *set, struct profconv_profile *prof)
{
	uint64_t key;
	uint32_t id;
	size_t i;
	int rc;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < prof->nfunctions; i++) {
		if (funcset_find(set, prof, pc_function(prof, (uint32_t)i + 1),
		    &key, &id))
			continue;	/* a duplicate: the first one wins */
		rc = profconv__u64map_put(&set->ids, key, (uint32_t)i + 1);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void
profconv__funcset_free(struct pc_funcset *set)
{
	profconv__u64map_free(&set->ids);
}

int
profconv__funcset_get(struct pc_funcset *set, struct profconv_profile *prof,
    const struct pc_function *f, uint32_t *id_out)
{
	uint64_t key;
	int rc;

	if (funcset_find(set, prof, f, &key, id_out))
		return 0;
	rc = profconv__add_function_raw(prof, f, id_out);
	if (rc == 0)
		rc = profconv__u64map_put(&set->ids, key, *id_out);
	return rc;
}

/* --- the symbolizer ------------------------------------------------------ */

static int
check_options(const struct profconv_symbolize_options *opts)
{
	if (opts->pid < 0)
		return profconv__fail(PROFCONV_EINVAL, "invalid process id %d",
		    opts->pid);
	if (opts->pid > 0 && opts->maps_file != NULL)
		return profconv__fail(PROFCONV_EINVAL,
		    "a process and a maps file cannot both be given");
	return 0;
}

/* Copy the string option *FIELD into SZ; NULL stays NULL. */
static int
copy_string(struct profconv_symbolizer *sz, size_t slot, const char **field)
{
	if (*field == NULL)
		return 0;
	sz->strs[slot] = strdup(*field);
	if (sz->strs[slot] == NULL)
		return profconv__nomem();
	*field = sz->strs[slot];
	return 0;
}

int
profconv_symbolizer_new(struct profconv_symbolizer **out,
    const struct profconv_symbolize_options *opts)
{
	struct profconv_symbolize_options o;
	struct profconv_symbolizer *sz;
	int rc;

	*out = NULL;
	if ((rc = profconv__options_take(&o, opts,
	    &profconv__options_symbolize)) < 0)
		return rc;
	opts = &o;
	rc = check_options(opts);
	if (rc < 0)
		return rc;
	sz = calloc(1, sizeof(*sz));
	if (sz == NULL)
		return profconv__nomem();
	sz->opts = *opts;
	sz->jobs = opts->jobs;
	rc = copy_string(sz, 0, &sz->opts.sysroot);
	if (rc == 0)
		rc = copy_string(sz, 1, &sz->opts.search_path);
	if (rc == 0)
		rc = copy_string(sz, 2, &sz->opts.debuginfo_path);
	if (rc == 0)
		rc = copy_string(sz, 3, &sz->opts.maps_file);
	if (rc == 0)
		rc = profconv__sym_dwfl_setup(sz);
	if (rc < 0) {
		profconv_symbolizer_free(sz);
		return rc;
	}
	profconv__libelf_init();
	*out = sz;
	return 0;
}

void
profconv_symbolizer_free(struct profconv_symbolizer *sz)
{
	size_t i;

	if (sz == NULL)
		return;
	for (i = 0; i < sz->nmods; i++)
		profconv__sym_module_free(sz->mods[i]);
	free(sz->mods);
	for (i = 0; i < sizeof(sz->strs) / sizeof(sz->strs[0]); i++)
		free(sz->strs[i]);
	free(sz->debuginfo_path);
	free(sz);
}

int
profconv_symbolizer_run(struct profconv_symbolizer *sz,
    struct profconv_profile *prof, struct profconv_symbolize_stats *stats)
{
	struct profconv_symbolize_stats ignored;
	struct session s;
	int rc = 0;

	stats = stats != NULL ? stats : &ignored;
	memset(stats, 0, sizeof(*stats));
	if (sz->opts.maps_file != NULL || sz->opts.pid > 0)
		rc = profconv__symbolize_remap(prof, sz->opts.maps_file,
		    sz->opts.pid);
	if (rc < 0)
		return rc;
	rc = profconv__sym_session_init(&s, sz, prof, stats);
	if (rc == 0)
		rc = profconv__sym_plan(&s);
	if (rc == 0)
		rc = profconv__sym_symbolize_locations(&s);
	profconv__sym_session_free(&s);
	return rc;
}

int
profconv_symbolize(struct profconv_profile *prof,
    const struct profconv_symbolize_options *opts,
    struct profconv_symbolize_stats *stats)
{
	struct profconv_symbolizer *sz;
	int rc;

	if (stats != NULL)
		memset(stats, 0, sizeof(*stats));
	rc = profconv_symbolizer_new(&sz, opts);
	if (rc == 0)
		rc = profconv_symbolizer_run(sz, prof, stats);
	profconv_symbolizer_free(sz);
	return rc;
}
