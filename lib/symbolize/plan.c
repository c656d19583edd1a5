/* SPDX-License-Identifier: MIT */
/*
 * plan.c - a run of the symbolizer over one profile (its session), and
 * the plan made first: for every mapping with locations to symbolize, a
 * binary on disk and the mapping's load bias, or why there is none.
 *
 * Cut here because planning only finds files and reads their ELF
 * headers: no debug info is read until lookup.c opens the modules.
 */

#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/symbolizer.h"

/* --- a run: one profile --------------------------------------------------- */

void
profconv__sym_warn(struct session *s, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (s->opts->warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	s->opts->warn(msg, s->opts->payload);
}

int
profconv__sym_session_init(struct session *s, struct profconv_symbolizer *sz,
    struct profconv_profile *prof, struct profconv_symbolize_stats *stats)
{
	memset(s, 0, sizeof(*s));
	s->sz = sz;
	s->prof = prof;
	s->opts = &sz->opts;
	s->stats = stats;
	s->find.sysroot = sz->opts.sysroot;
	s->find.search_path = sz->opts.search_path;
	s->find.pid = sz->opts.pid;
	s->maps = calloc(prof->nmappings + 1, sizeof(*s->maps));
	if (s->maps == NULL)
		return profconv__nomem();
	return profconv__funcset_init(&s->funcs, prof);
}

/* Forget libdw's string addresses: modules may be closed after this. */
void
profconv__sym_forget_strings(struct session *s)
{
	profconv__u64map_free(&s->name_by_ptr);
	memset(&s->name_by_ptr, 0, sizeof(s->name_by_ptr));
	profconv__u64map_free(&s->file_by_ptr);
	memset(&s->file_by_ptr, 0, sizeof(s->file_by_ptr));
	s->nname_pairs = 0;
}

void
profconv__sym_session_free(struct session *s)
{
	size_t i;

	profconv__sym_forget_strings(s);
	for (i = 0; i < s->nbins; i++) {
		profconv__u64map_free(&s->bins[i]->results);
		profconv__found_free(&s->bins[i]->found);
		free(s->bins[i]);
	}
	free(s->bins);
	profconv__u64map_free(&s->bin_by_key);
	free(s->maps);
	free(s->tasks);
	free(s->results);
	free(s->rlines);
	profconv__funcset_free(&s->funcs);
	free(s->name_pairs);
	free(s->fixed);
}

/* --- planning: a binary and a bias per mapping ---------------------------- */

/* The binary already found at PATH, or nbins. */
static size_t
binary_at(const struct session *s, const char *path)
{
	size_t i;

	for (i = 0; i < s->nbins; i++)
		if (strcmp(s->bins[i]->found.path, path) == 0)
			return i;
	return s->nbins;
}

/* Keep FOUND as a binary (or reuse the same file); its index to *IDX. */
static int
add_binary(struct session *s, struct pc_found *found, uint64_t bias,
    uint32_t *idx)
{
	struct sym_binary *b;
	size_t i = binary_at(s, found->path);
	int rc;

	if (i < s->nbins) {
		profconv__found_free(found);
		*idx = (uint32_t)i;
		return 0;
	}
	b = calloc(1, sizeof(*b));
	if (b == NULL || PC_GROW(s->bins, s->bins_cap, s->nbins, 1) < 0) {
		free(b);
		profconv__found_free(found);
		return profconv__nomem();
	}
	b->found = *found;
	b->base = bias;
	rc = profconv__sym_module_for(s->sz, &b->found, bias, &b->m);
	/* Opened again when it is looked up: a profile may map more
	 * files than the process may have open. */
	if (b->found.fd >= 0)
		close(b->found.fd);
	b->found.fd = -1;
	if (rc < 0) {
		profconv__found_free(&b->found);
		free(b);
		return rc;
	}
	*idx = (uint32_t)s->nbins;
	s->bins[s->nbins++] = b;
	return 0;
}

/*
 * A file was found for a mapping but is no ELF file libdw can use (not
 * ELF, truncated): an error in strict mode, else a warning and a count.
 */
int
profconv__sym_unusable(struct session *s, const char *path, const char *why,
    uint32_t *code)
{
	*code = MAP_UNUSABLE;
	/* The reason may name the file already. */
	if (strstr(why, path) != NULL) {
		if (s->opts->strict)
			return profconv__fail(PROFCONV_EFORMAT, "%s", why);
		profconv__sym_warn(s, "%s", why);
		return 0;
	}
	if (s->opts->strict)
		return profconv__fail(PROFCONV_EFORMAT, "cannot use '%s': %s",
		    path, why);
	profconv__sym_warn(s, "cannot use '%s': %s", path, why);
	return 0;
}

/*
 * Look for the binary of mapping M's file FILE with BUILD_ID; the
 * outcome, coded as binary index << 3 | state, goes to *CODE.
 */
static int
locate(struct session *s, const struct pc_mapping *m, const char *file,
    const char *build_id, uint32_t *code)
{
	char path[4096];
	struct pc_find how = s->find;
	struct pc_found found;
	size_t len = profconv__deleted_file(file);
	uint32_t idx = 0;
	int rc;

	if (len == 0 && (m->flags & PC_MAP_DELETED) != 0)
		len = strlen(file);
	/*
	 * A file deleted since it was mapped: what sits at its path now is
	 * another file (a rebuild, an upgrade), used only when its build id
	 * is the mapping's.  Skipped quietly otherwise, as pprof does.
	 */
	if (len > 0) {
		if (!profconv__build_id_valid(build_id) || len >= sizeof(path)) {
			*code = MAP_UNSYMBOLIZABLE;
			return 0;
		}
		memcpy(path, file, len);
		path[len] = '\0';
		file = path;
		how.require_id = true;
	}
	rc = profconv__find_binary(&how, file, build_id, &found);
	if (len > 0 && rc == PROFCONV_ENOTFOUND) {
		profconv__found_free(&found);
		*code = MAP_UNSYMBOLIZABLE;
		return 0;
	}
	if (rc == PROFCONV_ENOTFOUND && found.mismatch_id[0] == '\0' &&
	    found.bad_path[0] != '\0')
		return profconv__sym_unusable(s, found.bad_path, found.bad_why,
		    code);
	if (rc == PROFCONV_ENOTFOUND) {
		if (found.mismatch_id[0] == '\0') {
			*code = MAP_NO_BINARY;
			return 0;
		}
		profconv__sym_warn(s, "'%s' has build id %s, not %s as in "
		    "the profile; not used", found.mismatch_path,
		    found.mismatch_id, build_id);
		*code = MAP_MISMATCH;
		return 0;
	}
	if (rc == 0)
		rc = add_binary(s, &found, profconv__load_bias(&found.info,
		    m->start, m->limit, m->offset), &idx);
	if (rc < 0)
		return rc;
	*code = idx << 3 | MAP_OK;
	return 0;
}

static int
plan_mapping(struct session *s, uint32_t id)
{
	struct pc_mapping *m = pc_mapping_mut(s->prof, id);
	struct sym_map *sm = &s->maps[id - 1];
	const char *file = profconv__pstr(s->prof, m->file);
	uint64_t key = (uint64_t)m->file << 32 | m->build_id;
	struct sym_binary *b;
	uint32_t code;
	int rc;

	if (profconv__unsymbolizable(file)) {
		sm->state = MAP_UNSYMBOLIZABLE;
		return 0;
	}
	if (!profconv__u64map_get(&s->bin_by_key, key, &code)) {
		rc = locate(s, m, file, profconv__pstr(s->prof, m->build_id),
		    &code);
		if (rc == 0)
			rc = profconv__u64map_put(&s->bin_by_key, key, code);
		if (rc < 0)
			return rc;
	}
	sm->state = code & 7;
	sm->binary = code >> 3;
	if (sm->state != MAP_OK)
		return 0;
	b = s->bins[sm->binary];
	sm->bias = profconv__load_bias(&b->found.info, m->start, m->limit,
	    m->offset);
	/* For names of what stays unnamed: the ELF address of a runtime
	 * one (profconv__unnamed_frame()). */
	m->vaddr_delta = m->start - m->offset - sm->bias;
	m->flags |= PC_MAP_VADDR;
	sm->layout = !profconv__load_matches(&b->found.info, m->start,
	    m->limit, m->offset);
	/* Record what the file says when the profile did not know. */
	if (m->build_id == 0 && b->found.info.build_id[0] != '\0')
		return profconv__intern(s->prof, b->found.info.build_id,
		    &m->build_id);
	return 0;
}

int
profconv__sym_plan(struct session *s)
{
	const struct pc_location *loc;
	size_t i;
	int rc;

	for (i = 0; i < s->prof->nlocations; i++) {
		loc = pc_location(s->prof, (uint32_t)i + 1);
		if (!sym_needs_lines(s->prof, (uint32_t)i + 1) || s->maps[loc->mapping - 1].state !=
		    MAP_TODO)
			continue;
		rc = plan_mapping(s, loc->mapping);
		if (rc < 0)
			return rc;
	}
	return 0;
}
