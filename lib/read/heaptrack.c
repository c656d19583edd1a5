/* SPDX-License-Identifier: MIT */
/*
 * heaptrack.c - reader of heaptrack's data files: the text heaptrack_interpret
 * writes (file formats 1 to 3, usually zstd-compressed), replayed event by
 * event into alloc, in-use, peak and temporary values per stack, with
 * heaptrack_print's semantics (heaptrack-massif.md, Part A).
 *
 * Memory is bounded by what the file declares (strings, instruction
 * pointers, trace nodes, allocation infos), never by the number of events:
 * each '+' and '-' updates counters and is forgotten.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/lex.h"
#include "read/readers.h"

/* The newest file format this reader knows. */
#define HT_FORMAT_MAX 3

enum {
	V_ALLOC_OBJECTS, V_ALLOC_SPACE, V_INUSE_OBJECTS, V_INUSE_SPACE,
	V_PEAK_SPACE, V_TEMPORARY_OBJECTS, V_COUNT
};

static const struct profconv_value_type value_types[V_COUNT] = {
	{ "alloc_objects", "count" }, { "alloc_space", "bytes" },
	{ "inuse_objects", "count" }, { "inuse_space", "bytes" },
	{ "peak_space", "bytes" }, { "temporary_objects", "count" },
};

/* A trace node: an instruction pointer, the node it was called from, and
 * the frames of its stack (nodes without an ip add none). */
struct ht_trace {
	uint32_t ip, parent, depth;
};

/* An allocation info: one (size, trace) pair, and its live blocks. */
struct ht_info {
	uint64_t size;
	uint32_t slot;
	uint64_t live;
};

/*
 * What one trace allocated.  PEAK is its live bytes at the latest global
 * maximum, saved the first time the slot changes after that maximum
 * (EPOCH says which maximum it belongs to): O(1) per event, no replay.
 */
struct ht_slot {
	uint32_t trace;
	int64_t v[V_COUNT];
	int64_t peak;
	uint64_t epoch;
};

/* A module (mapping), numbered in the order ips first name it. */
struct ht_module {
	uint32_t file;			/* profile string index */
	uint8_t flags;			/* PC_MAP_HAS_* */
};

struct ht_reader {
	struct profconv_profile *prof;
	struct pc_input *in;
	unsigned format;		/* file format, from the 'v' line */
	uint64_t version;		/* heaptrack's, major<<16|minor<<8|patch */

	uint32_t *strs;			/* heaptrack string - 1 -> profile's */
	size_t nstrs, strs_cap;
	struct pc_u64map mod_by_str;	/* heaptrack string -> module + 1 */
	struct ht_module *mods;
	size_t nmods, mods_cap;
	struct pc_u64map fn_by_key;	/* name << 32 | file -> function id */
	size_t nips;
	struct ht_trace *traces;	/* trace - 1 */
	size_t ntraces, traces_cap;
	uint32_t *slot_by_trace;	/* trace -> slot + 1, 0: none yet */
	size_t slot_by_trace_cap;
	struct ht_info *infos;
	size_t ninfos, infos_cap;
	struct ht_slot *slots;
	size_t nslots, slots_cap;

	int64_t live, peak;		/* live bytes now, and at most */
	uint64_t epoch;			/* how many times PEAK grew */
	uint64_t last;			/* info of the latest '+', for temporary */
	uint64_t events;

	uint64_t last_time, max_rss, page_size, suppressions;
	char *cmdline;
	bool attached;
	int64_t trailer_strings, trailer_ips;	/* -1: not seen */

	uint64_t *fields;		/* the numbers of the current line */
	size_t fields_cap;
	struct pc_line *lines;		/* scratch for one location */
	size_t lines_cap;
	uint32_t *stack;		/* scratch for one sample */
	size_t stack_cap;
};

/* A failure naming the current line: "line N: ...". */
#define bad(r, ...) profconv__fail_line((r)->in->lineno, __VA_ARGS__)

/*
 * The numbers after the record letter: lower-case hex without 0x, one
 * space before each, as heaptrack's LineReader accepts them.
 */
static int
parse_fields(struct ht_reader *r, const char *line, size_t len, size_t *n)
{
	const char *p = line + 1, *end = line + len, *q;
	int rc;

	*n = 0;
	while (p < end) {
		if (*p != ' ' || p + 1 == end || p[1] == ' ')
			return bad(r, "expected one space before each field");
		for (q = ++p; q < end && pc_is_lower_hex(*q); q++)
			;
		if (q < end && *q != ' ')
			return bad(r, "unexpected character '%c' in a hex field",
			    *q >= 0x20 && *q < 0x7f ? *q : '?');
		rc = PC_GROW(r->fields, r->fields_cap, *n, 1);
		if (rc < 0)
			return rc;
		if (!profconv__parse_hex(&p, q, &r->fields[*n]))
			return bad(r, "number '%.*s' does not fit in 64 bits",
			    (int)(q - p < 32 ? q - p : 32), p);
		(*n)++;
	}
	return 0;
}

/* Exactly WANT fields. */
static int
parse_n(struct ht_reader *r, const char *line, size_t len, size_t want)
{
	size_t n;
	int rc;

	rc = parse_fields(r, line, len, &n);
	if (rc == 0 && n != want)
		rc = bad(r, "'%c' record with %zu fields, expected %zu", line[0],
		    n, want);
	return rc;
}

/* --- header records ------------------------------------------------------ */

/* "v HTVER FILEVER", or the one-field "v 10200" of heaptrack 1.0. */
static int
on_version(struct ht_reader *r, const char *line, size_t len)
{
	size_t n;
	int rc;

	if (r->format != 0)
		return bad(r, "a second 'v' record");
	rc = parse_fields(r, line, len, &n);
	if (rc < 0)
		return rc;
	if (n == 1 && r->fields[0] == 0x10200)
		r->fields[1] = 1;
	else if (n != 2)
		return bad(r, "malformed version record, expected "
		    "'v HEAPTRACK_VERSION FILE_FORMAT'");
	r->version = r->fields[0];
	if (r->fields[1] == 0)
		return profconv__fail(PROFCONV_EUNSUPPORTED,
		    "heaptrack file format 0 (development builds before "
		    "1.0) is not supported");
	if (r->fields[1] > HT_FORMAT_MAX)
		return profconv__fail(PROFCONV_EUNSUPPORTED,
		    "heaptrack file format %" PRIu64 " is newer than this "
		    "reader knows (%d)", r->fields[1], HT_FORMAT_MAX);
	r->format = (unsigned)r->fields[1];
	return 0;
}

/*
 * A string field: in format 3 "LEN TEXT" with LEN hex bytes of TEXT,
 * before that the rest of the line.
 */
static int
string_field(struct ht_reader *r, const char *line, size_t len,
    const char **s, size_t *slen)
{
	const char *p = line + 2, *end = line + len, *q;
	uint64_t n;

	if (len < 2 || line[1] != ' ')
		return bad(r, "'%c' record without a string", line[0]);
	if (r->format < 3) {
		*s = p;
		*slen = (size_t)(end - p);
		return 0;
	}
	for (q = p; q < end && pc_is_lower_hex(*q); q++)
		;
	if (q == p || q == end || *q != ' ' ||
	    !profconv__parse_hex(&p, q, &n))
		return bad(r, "malformed string, expected 'LENGTH TEXT'");
	q++;
	if (n != (uint64_t)(end - q))
		return bad(r, "string of %zu bytes, its length says %" PRIu64,
		    (size_t)(end - q), n);
	*s = q;
	*slen = (size_t)n;
	return 0;
}

static int
on_string(struct ht_reader *r, const char *line, size_t len)
{
	const char *s = NULL;
	size_t n = 0;
	int rc;

	rc = string_field(r, line, len, &s, &n);
	if (rc == 0 && r->nstrs >= UINT32_MAX - 1)
		rc = bad(r, "too many strings");
	if (rc == 0)
		rc = PC_GROW(r->strs, r->strs_cap, r->nstrs, 1);
	if (rc == 0)
		rc = profconv__strtab_intern(&r->prof->strings, s, n,
		    &r->strs[r->nstrs]);
	if (rc == 0)
		r->nstrs++;
	return rc;
}

/* The debuggee's command line, the rest of the line in every format. */
static int
on_command(struct ht_reader *r, const char *line, size_t len)
{
	if (r->cmdline != NULL)
		return bad(r, "a second 'X' record");
	r->cmdline = len > 2 ? strndup(line + 2, len - 2) : strdup("");
	return r->cmdline != NULL ? 0 : profconv__nomem();
}

/* "# strings: N" and "# ips: N", decimal: the interpreter's last words. */
static int
on_comment(struct ht_reader *r, const char *line, size_t len)
{
	const char *p, *end = line + len, *colon;
	int64_t *slot = NULL;
	uint64_t v;

	if (pc_has_prefix(line, len, "# strings: "))
		slot = &r->trailer_strings;
	else if (pc_has_prefix(line, len, "# ips: "))
		slot = &r->trailer_ips;
	if (slot == NULL)
		return 0;
	colon = memchr(line, ':', len);
	p = colon + 2;
	if (!profconv__parse_u64(&p, end, &v) || p != end || v > INT64_MAX)
		return bad(r, "malformed '%.*s' trailer", (int)(colon - line),
		    line);
	*slot = (int64_t)v;
	return 0;
}

/* --- instruction pointers -> locations ------------------------------------ */

/* The profile string of heaptrack string IDX (0: none, ""). */
static int
str_of(struct ht_reader *r, uint64_t idx, uint32_t *out)
{
	if (idx > r->nstrs)
		return bad(r, "string %" PRIu64 " is not defined (%zu so far)",
		    idx, r->nstrs);
	*out = idx == 0 ? 0 : r->strs[idx - 1];
	return 0;
}

/* The mapping id of module string IDX, numbered by first use. */
static int
module_of(struct ht_reader *r, uint64_t idx, uint32_t *id)
{
	uint32_t v, file = 0;
	int rc;

	*id = 0;
	if (idx == 0)
		return 0;
	if (profconv__u64map_get(&r->mod_by_str, idx, &v)) {
		*id = v + 1;
		return 0;
	}
	rc = str_of(r, idx, &file);
	if (rc == 0)
		rc = PC_GROW(r->mods, r->mods_cap, r->nmods, 1);
	if (rc == 0)
		rc = profconv__u64map_put(&r->mod_by_str, idx,
		    (uint32_t)r->nmods);
	if (rc < 0)
		return rc;
	r->mods[r->nmods].file = file;
	r->mods[r->nmods].flags = 0;
	*id = (uint32_t)++r->nmods;
	return 0;
}

/* The function (NAME, FILE), both profile strings, added once. */
static int
function_of(struct ht_reader *r, uint32_t name, uint32_t file, uint32_t *id)
{
	struct profconv_function f = { 0 };
	uint64_t key = (uint64_t)name << 32 | file;
	int rc;

	if (profconv__u64map_get(&r->fn_by_key, key, id))
		return 0;
	f.name = profconv__pstr(r->prof, name);
	f.system_name = f.name;
	f.file = profconv__pstr(r->prof, file);
	rc = profconv_profile_add_function(r->prof, &f, id);
	if (rc == 0)
		rc = profconv__u64map_put(&r->fn_by_key, key, *id);
	return rc;
}

/*
 * One frame triple (FUNC FILE LINE) as a line.  A frame with a file but
 * no function is named after its address, as heaptrack_print names it.
 */
static int
frame_line(struct ht_reader *r, uint64_t addr, const uint64_t *t,
    bool has_file, struct pc_line *out, uint8_t *flags)
{
	uint32_t name, file = 0;
	char buf[24];
	int rc;

	rc = str_of(r, t[0], &name);
	if (rc == 0 && has_file)
		rc = str_of(r, t[1], &file);
	if (rc == 0 && name == 0) {
		snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);
		rc = profconv__intern(r->prof, buf, &name);
	} else if (rc == 0)
		*flags |= PC_MAP_HAS_FUNCTIONS;
	if (rc < 0)
		return rc;
	if (file != 0)
		*flags |= PC_MAP_HAS_FILENAMES;
	out->line = has_file ? (int64_t)(t[2] & INT64_MAX) : 0;
	out->column = 0;
	if (out->line != 0)
		*flags |= PC_MAP_HAS_LINE_NUMBERS;
	return function_of(r, name, file, &out->function);
}

/*
 * "i IP MODULE [FUNC [FILE LINE [FUNC FILE LINE]...]]": one location, its
 * id the ip's index.  The triples run innermost first, as pprof's lines.
 */
static int
on_ip(struct ht_reader *r, const char *line, size_t len)
{
	size_t n, nlines, k;
	uint32_t mapping, id;
	uint8_t flags = 0;
	uint64_t addr;
	int rc;

	rc = parse_fields(r, line, len, &n);
	if (rc < 0)
		return rc;
	if (n < 2 || n == 4 || (n > 3 && (n - 2) % 3 != 0))
		return bad(r, "malformed 'i' record, expected 'i IP MODULE "
		    "[FUNCTION [FILE LINE]...]'");
	if (r->nips >= UINT32_MAX - 1)
		return bad(r, "too many instruction pointers");
	/* Before format 3 addresses are return addresses: move onto the call. */
	addr = r->fields[0] - (r->format < 3 && r->fields[0] != 0);
	/*
	 * Before its first ip the interpreter interns every loaded module,
	 * the executable first: string 1 becomes mapping 1, the main binary
	 * for pprof.
	 */
	rc = r->nips == 0 && r->nstrs != 0 ? module_of(r, 1, &mapping) : 0;
	if (rc == 0)
		rc = module_of(r, r->fields[1], &mapping);
	nlines = n == 3 ? 1 : (n - 2) / 3;
	if (rc == 0)
		rc = PC_GROW(r->lines, r->lines_cap, 0, nlines);
	for (k = 0; rc == 0 && k < nlines; k++)
		rc = frame_line(r, addr, &r->fields[2 + 3 * k], n > 3,
		    &r->lines[k], &flags);
	if (rc == 0)
		rc = profconv__add_location_raw(r->prof, mapping, addr,
		    r->lines, nlines, false, &id);
	if (rc < 0)
		return rc;
	if (id != ++r->nips)
		return profconv__fail(PROFCONV_EINVAL,
		    "heaptrack reader: location ids out of step");
	if (nlines > 1)
		flags |= PC_MAP_HAS_INLINE_FRAMES;
	if (mapping != 0)
		r->mods[mapping - 1].flags |= flags;
	return 0;
}

/* --- traces, allocation infos and events ----------------------------------- */

/* "t IP PARENT": the next trace node; parents come first. */
static int
on_trace(struct ht_reader *r, const char *line, size_t len)
{
	int rc;

	rc = parse_n(r, line, len, 2);
	if (rc < 0)
		return rc;
	if (r->fields[0] > r->nips)
		return bad(r, "trace refers to instruction pointer %" PRIu64
		    " (%zu defined)", r->fields[0], r->nips);
	if (r->fields[1] > r->ntraces)
		return bad(r, "trace refers to parent %" PRIu64 ", not "
		    "defined before it", r->fields[1]);
	if (r->ntraces >= UINT32_MAX - 1)
		return bad(r, "too many traces");
	rc = PC_GROW(r->traces, r->traces_cap, r->ntraces, 1);
	if (rc < 0)
		return rc;
	r->traces[r->ntraces].ip = (uint32_t)r->fields[0];
	r->traces[r->ntraces].parent = (uint32_t)r->fields[1];
	r->traces[r->ntraces].depth = (r->fields[1] != 0 ?
	    r->traces[r->fields[1] - 1].depth : 0) + (r->fields[0] != 0);
	r->ntraces++;
	return 0;
}

/* The slot (1-based) that sums the allocations of TRACE. */
static int
slot_of(struct ht_reader *r, uint32_t trace, uint32_t *slot)
{
	size_t have = r->slot_by_trace_cap;
	int rc;

	if (trace >= have) {
		rc = PC_GROW(r->slot_by_trace, r->slot_by_trace_cap, have,
		    (size_t)trace + 1 - have);
		if (rc < 0)
			return rc;
		memset(r->slot_by_trace + have, 0,
		    (r->slot_by_trace_cap - have) * sizeof(uint32_t));
	}
	if (r->slot_by_trace[trace] == 0) {
		rc = PC_GROW(r->slots, r->slots_cap, r->nslots, 1);
		if (rc < 0)
			return rc;
		memset(&r->slots[r->nslots], 0, sizeof(r->slots[0]));
		r->slots[r->nslots].trace = trace;
		r->slot_by_trace[trace] = (uint32_t)++r->nslots;
	}
	*slot = r->slot_by_trace[trace];
	return 0;
}

/* "a SIZE TRACE": the next allocation info. */
static int
on_info(struct ht_reader *r, const char *line, size_t len)
{
	uint32_t slot;
	int rc;

	rc = parse_n(r, line, len, 2);
	if (rc < 0)
		return rc;
	if (r->fields[1] > r->ntraces)
		return bad(r, "allocation info refers to trace %" PRIu64
		    " (%zu defined)", r->fields[1], r->ntraces);
	if (r->fields[0] > INT64_MAX)
		return bad(r, "allocation size %" PRIu64 " is too large",
		    r->fields[0]);
	rc = slot_of(r, (uint32_t)r->fields[1], &slot);
	if (rc == 0)
		rc = PC_GROW(r->infos, r->infos_cap, r->ninfos, 1);
	if (rc < 0)
		return rc;
	r->infos[r->ninfos].size = r->fields[0];
	r->infos[r->ninfos].slot = slot;
	r->infos[r->ninfos].live = 0;
	r->ninfos++;
	return 0;
}

/* Before SLOT changes: keep its bytes at the latest peak, once. */
static inline void
touch(struct ht_reader *r, struct ht_slot *s)
{
	if (s->epoch != r->epoch) {
		s->peak = s->v[V_INUSE_SPACE];
		s->epoch = r->epoch;
	}
}

/* The info of a '+' or '-' line: one field, already defined. */
static int
event_info(struct ht_reader *r, const char *line, size_t len,
    struct ht_info **info)
{
	size_t n;
	int rc;

	rc = parse_fields(r, line, len, &n);
	if (rc < 0)
		return rc;
	if (n != 1)
		return n == 3 || (line[0] == '-' && r->ninfos == 0) ?
		    profconv__fail(PROFCONV_EUNSUPPORTED, "line %llu: raw "
		    "heaptrack data (not interpreted); run it through "
		    "heaptrack_interpret first",
		    (unsigned long long)r->in->lineno) :
		    bad(r, "'%c' record with %zu fields, expected 1", line[0],
		    n);
	if (r->fields[0] >= r->ninfos)
		return bad(r, "allocation info %" PRIu64 " is not defined "
		    "(%zu so far)", r->fields[0], r->ninfos);
	*info = &r->infos[r->fields[0]];
	return 0;
}

/* A '+' or '-' event: its info, its stack's slot (touched: its values
 * are about to change) and the size of its block. */
struct ht_event {
	struct ht_info *info;
	struct ht_slot *s;
	int64_t size;
};

static int
event_get(struct ht_reader *r, const char *line, size_t len,
    struct ht_event *e)
{
	int rc = event_info(r, line, len, &e->info);

	if (rc < 0)
		return rc;
	e->s = &r->slots[e->info->slot - 1];
	e->size = (int64_t)e->info->size;
	touch(r, e->s);
	return 0;
}

static int
on_alloc(struct ht_reader *r, const char *line, size_t len)
{
	struct ht_event e;
	int rc = event_get(r, line, len, &e);

	if (rc < 0)
		return rc;
	e.info->live++;
	e.s->v[V_ALLOC_OBJECTS]++;
	pc_add_sat(&e.s->v[V_ALLOC_SPACE], e.size);
	e.s->v[V_INUSE_OBJECTS]++;
	pc_add_sat(&e.s->v[V_INUSE_SPACE], e.size);
	pc_add_sat(&r->live, e.size);
	/* heaptrack_print: the first time the total is highest wins. */
	if (r->live > r->peak) {
		r->peak = r->live;
		r->epoch++;
	}
	r->last = r->fields[0];
	r->events++;
	return 0;
}

/*
 * A '-' frees one live block of the info.  heaptrack_print counts it as
 * temporary when the info is the one of the latest '+' and no '-' came in
 * between; the latest info starts as, and goes back to, 0, so a '-' of
 * info 0 after another '-' counts too.  We count as it does.
 */
static int
on_free(struct ht_reader *r, const char *line, size_t len)
{
	struct ht_event e;
	int rc = event_get(r, line, len, &e);

	if (rc < 0)
		return rc;
	if (e.info->live == 0)
		return bad(r, "free of allocation info %" PRIu64 ", which has "
		    "no live block", r->fields[0]);
	e.info->live--;
	e.s->v[V_INUSE_OBJECTS]--;
	e.s->v[V_INUSE_SPACE] -= e.size;
	r->live -= e.size;
	if (r->fields[0] == r->last)
		e.s->v[V_TEMPORARY_OBJECTS]++;
	r->last = 0;
	r->events++;
	return 0;
}

/* "c MS", "R PAGES", "I PAGESIZE PAGES": time and memory of the run. */
static int
on_stats(struct ht_reader *r, const char *line, size_t len)
{
	int rc;

	rc = parse_n(r, line, len, line[0] == 'I' ? 2 : 1);
	if (rc < 0)
		return rc;
	if (line[0] == 'c' && r->fields[0] > r->last_time)
		r->last_time = r->fields[0];
	else if (line[0] == 'R' && r->fields[0] > r->max_rss)
		r->max_rss = r->fields[0];
	else if (line[0] == 'I')
		r->page_size = r->fields[0];
	return 0;
}

static int
on_line(struct ht_reader *r, const char *line, size_t len)
{
	if (len == 0 || line[0] == '#')
		return on_comment(r, line, len);
	if (len > 1 && line[1] != ' ')
		return bad(r, "malformed record, expected a letter and a "
		    "space");
	if (r->format == 0 && line[0] != 'v')
		return bad(r, "heaptrack data must start with a 'v' record");
	switch (line[0]) {
	case '+':
		return on_alloc(r, line, len);
	case '-':
		return on_free(r, line, len);
	case 'i':
		return on_ip(r, line, len);
	case 't':
		return on_trace(r, line, len);
	case 'a':
		return on_info(r, line, len);
	case 's':
		return on_string(r, line, len);
	case 'c':
	case 'R':
	case 'I':
		return on_stats(r, line, len);
	case 'v':
		return on_version(r, line, len);
	case 'X':
		return on_command(r, line, len);
	case 'A':
		r->attached = true;
		return len == 1 ? 0 : bad(r, "'A' record with fields");
	case 'S':
		r->suppressions++;
		return 0;
	case 'x':
	case 'm':
		return profconv__fail(PROFCONV_EUNSUPPORTED, "line %llu: raw "
		    "heaptrack data (not interpreted); run it through "
		    "heaptrack_interpret first",
		    (unsigned long long)r->in->lineno);
	default:
		return bad(r, "unknown heaptrack record '%c'",
		    line[0] >= 0x20 && line[0] < 0x7f ? line[0] : '?');
	}
}

/* --- the profile ------------------------------------------------------------ */

static int
add_header(struct ht_reader *r)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < V_COUNT && rc == 0; i++)
		rc = profconv_profile_add_sample_type(r->prof,
		    value_types[i].type, value_types[i].unit);
	if (rc == 0)
		rc = profconv_profile_set_default_sample_type(r->prof,
		    "inuse_space");
	if (rc == 0)
		rc = profconv_profile_set_period(r->prof, "space", "bytes", 1);
	/* heaptrack_print starts its stacks at operator new's caller. */
	if (rc == 0)
		rc = profconv_profile_set_drop_frames(r->prof,
		    "operator new(\\[\\])?");
	return rc;
}

static int
add_comments(struct ht_reader *r)
{
	struct profconv_profile *prof = r->prof;
	int rc;

	rc = profconv__add_commentf(prof,
	    "heaptrack %u.%u.%u, file format %u",
	    (unsigned)(r->version >> 16), (unsigned)(r->version >> 8 & 0xff),
	    (unsigned)(r->version & 0xff), r->format);
	if (rc == 0 && r->cmdline != NULL)
		rc = profconv__add_commentf(prof, "command: %.400s",
		    r->cmdline);
	if (rc == 0)
		rc = profconv__add_commentf(prof, "peak heap: %" PRId64
		    " bytes", r->peak);
	if (rc == 0 && r->max_rss != 0 && r->page_size != 0)
		rc = profconv__add_commentf(prof, "peak RSS (with "
		    "heaptrack's overhead): %" PRIu64 " bytes",
		    r->max_rss * r->page_size);
	if (rc == 0 && r->attached)
		rc = profconv__add_commentf(prof, "attached to a running "
		    "process: allocations made before are not included");
	profconv_profile_set_time(prof, 0,
	    r->last_time > INT64_MAX / 1000000 ? INT64_MAX :
	    (int64_t)r->last_time * 1000000);
	return rc;
}

/* Mappings are added at the end, when their has_* flags are known. */
static int
add_mappings(struct ht_reader *r)
{
	struct profconv_mapping m;
	size_t i;
	int rc;

	for (i = 0; i < r->nmods; i++) {
		memset(&m, 0, sizeof(m));
		m.file = profconv__pstr(r->prof, r->mods[i].file);
		m.has_functions = !!(r->mods[i].flags & PC_MAP_HAS_FUNCTIONS);
		m.has_filenames = !!(r->mods[i].flags & PC_MAP_HAS_FILENAMES);
		m.has_line_numbers =
		    !!(r->mods[i].flags & PC_MAP_HAS_LINE_NUMBERS);
		m.has_inline_frames =
		    !!(r->mods[i].flags & PC_MAP_HAS_INLINE_FRAMES);
		rc = profconv_profile_add_mapping(r->prof, &m, NULL);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * A chain of N trace nodes with an allocation each is N lines of input
 * and N * N / 2 frames of samples: the samples' bytes in the model are
 * bounded by the input bound, as the pprof decoder bounds them, and
 * counted before any is made.
 */
static int
check_budget(struct ht_reader *r)
{
	uint64_t bytes, frames = 0;
	size_t i;

	for (i = 0; i < r->nslots; i++)
		if (r->slots[i].trace != 0)
			frames += r->traces[r->slots[i].trace - 1].depth;
	bytes = (uint64_t)r->nslots * (sizeof(struct pc_sample) +
	    V_COUNT * sizeof(int64_t)) + frames * sizeof(uint32_t);
	if (bytes <= r->in->max)
		return 0;
	return profconv__fail(PROFCONV_EFORMAT, "heaptrack data (%llu "
	    "bytes) expands to %zu stacks of %llu frames, more than the "
	    "input bound, %llu MiB, of memory",
	    (unsigned long long)r->in->total, r->nslots,
	    (unsigned long long)frames, (unsigned long long)(r->in->max >> 20));
}

/* One sample per trace: its ips from the allocation site outwards. */
static int
add_samples(struct ht_reader *r)
{
	struct ht_slot *s;
	uint32_t t;
	size_t i, n;
	int rc;

	rc = check_budget(r);
	if (rc < 0)
		return rc;
	for (i = 0; i < r->nslots; i++) {
		s = &r->slots[i];
		s->v[V_PEAK_SPACE] = s->epoch == r->epoch ? s->peak :
		    s->v[V_INUSE_SPACE];
		n = 0;
		for (t = s->trace; t != 0; t = r->traces[t - 1].parent) {
			/* A node without an ip (address 1) adds no frame. */
			if (r->traces[t - 1].ip == 0)
				continue;
			rc = PC_GROW(r->stack, r->stack_cap, n, 1);
			if (rc < 0)
				return rc;
			r->stack[n++] = r->traces[t - 1].ip;
		}
		rc = profconv__add_sample_raw(r->prof, r->stack, n, s->v,
		    NULL, 0);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The interpreter's trailer counts what it wrote; without it, data is lost. */
static int
check_end(struct ht_reader *r)
{
	if (r->format == 0)
		return profconv__fail(PROFCONV_EFORMAT,
		    "no heaptrack data (no 'v' record)");
	if (r->format >= 3 && (r->trailer_strings < 0 || r->trailer_ips < 0))
		return profconv__fail(PROFCONV_EFORMAT,
		    "truncated heaptrack data: the '# strings:' and '# ips:' "
		    "trailer is missing after line %llu",
		    (unsigned long long)r->in->lineno);
	if ((r->trailer_strings >= 0 &&
	    (uint64_t)r->trailer_strings != r->nstrs) ||
	    (r->trailer_ips >= 0 && (uint64_t)r->trailer_ips != r->nips))
		return profconv__fail(PROFCONV_EFORMAT,
		    "heaptrack data is inconsistent: its trailer counts %"
		    PRId64 " strings and %" PRId64 " ips, the file has %zu "
		    "and %zu", r->trailer_strings, r->trailer_ips, r->nstrs,
		    r->nips);
	return 0;
}

static int
read_all(struct ht_reader *r)
{
	const char *line;
	size_t len;
	int rc;

	while ((rc = profconv__input_getline(r->in, &line, &len)) == 1) {
		rc = on_line(r, line, len);
		if (rc < 0)
			return rc;
	}
	if (rc == 0)
		rc = check_end(r);
	if (rc == 0)
		rc = add_mappings(r);
	if (rc == 0)
		rc = add_samples(r);
	if (rc == 0)
		rc = add_comments(r);
	return rc;
}

static void
reader_free(struct ht_reader *r)
{
	free(r->strs);
	profconv__u64map_free(&r->mod_by_str);
	free(r->mods);
	profconv__u64map_free(&r->fn_by_key);
	free(r->traces);
	free(r->slot_by_trace);
	free(r->infos);
	free(r->slots);
	free(r->cmdline);
	free(r->fields);
	free(r->lines);
	free(r->stack);
}

static int
read_heaptrack(struct profconv_profile **out, struct pc_input *in,
    const struct profconv_read_options *opts)
{
	struct ht_reader r;
	int rc;

	(void)opts;
	*out = NULL;
	memset(&r, 0, sizeof(r));
	r.in = in;
	r.trailer_strings = r.trailer_ips = -1;
	rc = profconv_profile_new(&r.prof);
	if (rc == 0)
		rc = add_header(&r);
	if (rc == 0)
		rc = read_all(&r);
	if (rc == 0) {
		*out = r.prof;
		r.prof = NULL;
	}
	profconv_profile_free(r.prof);
	reader_free(&r);
	return rc;
}

/* The first line: "v HTVER FILEVER" (or "v 10200"), lower-case hex. */
static bool
sniff_heaptrack(const unsigned char *head, size_t len, bool whole)
{
	const char *p, *end;
	size_t n;
	int fields = 0;

	(void)whole;
	profconv__head_first_line(head, len, &p, &n);
	end = p + n;
	if (!pc_has_prefix(p, n, "v "))
		return false;
	for (p++; p < end; fields++) {
		if (*p != ' ' || ++p == end || !pc_is_lower_hex(*p))
			return false;
		while (p < end && pc_is_lower_hex(*p))
			p++;
	}
	return fields == 1 || fields == 2;
}

const struct pc_reader profconv__reader_heaptrack = {
	PROFCONV_FORMAT_HEAPTRACK, "heaptrack", sniff_heaptrack, read_heaptrack,
	NULL
};
