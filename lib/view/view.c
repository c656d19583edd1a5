/* SPDX-License-Identifier: MIT */
/*
 * view.c - what a profile shows: the one place that turns a profile into
 * the stacks, frame names and totals every writer prints.
 *
 * A view is built once per output.  Each location becomes one or more
 * frames (inline calls expanded, outermost first, unless no_inline); the
 * innermost lines that drop_frames removes, and whole allocator frames at
 * the leaf end, are cut off (prune.c); focus and ignore pick whole stacks;
 * names follow the demangle mode (names/simplify.c).  Frames are identified by
 * their text, so two locations of one function are one frame; stacks by
 * their frame sequence.  The summary, the diff table, folded stacks, SVG,
 * speedscope and the trend table all read this, and so agree.
 */

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/bounds.h"
#include "names/names.h"
#include "view/view.h"

struct vframe {
	uint32_t text, function, file, module;	/* indexes in view->strs */
	int64_t line;
	int64_t start_line;		/* the function's first line, 0 */
};

struct vstack {
	size_t off;		/* into view->sframes */
	uint32_t n;
};

struct profconv_view {
	const struct profconv_profile *prof;
	struct profconv_view_options opts;
	size_t ntypes;
	unsigned int jobs;		/* for the writers too */

	struct pc_strtab strs;		/* frame texts and their parts */
	uint32_t *frame_of_text;	/* text index -> frame id */
	size_t frame_of_text_cap;
	struct vframe *frames;		/* frame id - 1 */
	size_t nframes, frames_cap;

	struct vstack *stacks;
	size_t nstacks, stacks_cap;
	uint32_t *sframes;		/* frame ids of all stacks, root first */
	size_t nsframes, sframes_cap;
	uint8_t *sinline;		/* per sframes entry: 1 when the frame
					 * is an inlined line of the location
					 * the previous frame belongs to */
	int64_t *vals;			/* nstacks * ntypes */
	size_t nvals, vals_cap;
	int64_t *totals;		/* ntypes */
	uint32_t *sample_stack;		/* sample -> stack + 1, 0: not shown */
	uint32_t cut_frame;		/* PC_VIEW_CUT_FRAME's id, 0: none yet */
	char *focus_text, *ignore_text;	/* copies, for legends; NULL: none */
	unsigned filters, matched;	/* PROFCONV_FILTER_* given, and
					 * those that matched something */

	/* Scratch while building. */
	struct pc_pruner pruner;
	regex_t focus, ignore;
	bool has_focus, has_ignore;
	/* pprof's -hide, -show, -show_from, -prune_from. */
	regex_t hide, show, show_from, prune_from;
	bool has_hide, has_show, has_show_from, has_prune_from;
	struct pc_labels *labels;	/* tag filters, pseudo-frames */
	struct pc_suppress *supp;	/* leak suppressions */
	size_t npseudo, nroot;		/* pseudo-frames per sample */
	uint32_t *pseudo;		/* sample -> its npseudo frame ids */
	size_t *loc_off;		/* location id -> frames + 1 (0: unknown) */
	uint32_t *loc_n;
	uint8_t *loc_match;		/* 1 focus, 2 ignore, 4 known,
					 * LOC_SHOW_FROM, LOC_PRUNE_FROM */
	uint32_t *loc_frames;
	size_t nloc_frames, loc_frames_cap;
	uint32_t *fn_name;		/* function id -> text index + 1 */
	struct pc_namer namer;
	char *buf;
	size_t buf_cap;
};


/* --- names ----------------------------------------------------------------- */

/*
 * S (LEN bytes) cut to at most PC_VIEW_MAX_NAME bytes in place: its
 * beginning and end around "...", cut between UTF-8 characters.  Returns
 * the new length.
 */
static size_t
elide(char *s, size_t len)
{
	size_t head = (PC_VIEW_MAX_NAME - 3) / 2, tail;

	if (len <= PC_VIEW_MAX_NAME)
		return len;
	while (head > 0 && ((unsigned char)s[head] & 0xc0) == 0x80)
		head--;
	tail = len - (PC_VIEW_MAX_NAME - 3 - head);
	while (tail < len && ((unsigned char)s[tail] & 0xc0) == 0x80)
		tail++;
	/* TAIL > HEAD + 3: the dots overwrite nothing that stays. */
	memcpy(s + head, "...", 3);
	memmove(s + head + 3, s + tail, len - tail);
	return head + 3 + len - tail;
}

/* Does model string IDX hold a NUL before its end? */
static bool
has_nul(const struct profconv_profile *prof, uint32_t idx)
{
	return strlen(profconv__pstr(prof, idx)) != prof->strings.lens[idx];
}

/*
 * The name of a function whose name holds a NUL, into V->buf (*LEN
 * bytes): each NUL written "\x00", as the text writers write control
 * bytes, so that names that differ only after one stay apart (C strings
 * would end there).  Such a name is no linker's: it is not demangled.
 */
static int
nul_name(struct profconv_view *v, const struct pc_function *f, size_t *len)
{
	const struct profconv_profile *prof = v->prof;
	uint32_t idx = f->name;
	const char *s;
	size_t n, i;
	int rc;

	if (prof->strings.lens[idx] == 0 ||
	    (v->opts.demangle == PROFCONV_DEMANGLE_NONE &&
	    prof->strings.lens[f->system_name] != 0))
		idx = f->system_name;
	s = profconv__pstr(prof, idx);
	n = prof->strings.lens[idx];
	*len = 0;
	rc = PC_GROW(v->buf, v->buf_cap, 0, 4 * n + 1);
	for (i = 0; rc == 0 && i < n; i++) {
		if (s[i] == '\0') {
			memcpy(v->buf + *len, "\\x00", 4);
			*len += 4;
		} else {
			v->buf[(*len)++] = s[i];
		}
	}
	return rc;
}

/* The name of function FID in the view's demangle mode, interned; at
 * most PC_VIEW_MAX_NAME bytes. */
static int
function_name(struct profconv_view *v, uint32_t fid, uint32_t *out)
{
	const struct pc_function *f = pc_function(v->prof, fid);
	const char *name;
	size_t len;
	int rc;

	if (v->fn_name[fid] != 0) {
		*out = v->fn_name[fid] - 1;
		return 0;
	}
	if (has_nul(v->prof, f->name) || has_nul(v->prof, f->system_name)) {
		rc = nul_name(v, f, &len);
		name = v->buf;
	} else {
		rc = profconv__namer_name(&v->namer, v->prof, fid, &name,
		    &len);
	}
	if (rc == 0 && len > PC_VIEW_MAX_NAME && name != v->buf) {
		rc = PC_GROW(v->buf, v->buf_cap, 0, len + 1);
		if (rc == 0)
			memcpy(v->buf, name, len);
		name = v->buf;
	}
	if (rc == 0 && len > PC_VIEW_MAX_NAME)
		len = elide(v->buf, len);
	if (rc == 0)
		rc = profconv__strtab_intern(&v->strs, name, len, out);
	if (rc == 0)
		v->fn_name[fid] = *out + 1;
	return rc;
}

/* Bits of loc_match: the location matches show_from, prune_from. */
#define LOC_SHOW_FROM 8
#define LOC_PRUNE_FROM 16

static int
append(struct profconv_view *v, size_t *len, const char *s, size_t n)
{
	int rc = PC_GROW(v->buf, v->buf_cap, *len, n + 1);

	if (rc == 0) {
		memcpy(v->buf + *len, s, n);
		*len += n;
	}
	return rc;
}

static const char *
base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b != NULL ? b + 1 : path;
}

/* Intern the frame whose text is V->buf[0, LEN) (cut to
 * PC_VIEW_MAX_NAME bytes); its parts go with it the first time the text
 * is seen. */
static int
intern_frame(struct profconv_view *v, size_t len, uint32_t function,
    uint32_t file, int64_t line, int64_t start_line, uint32_t module,
    uint32_t *id)
{
	size_t old = v->frame_of_text_cap;
	uint32_t t;
	int rc;

	len = elide(v->buf, len);
	rc = profconv__strtab_intern(&v->strs, v->buf, len, &t);
	if (rc == 0 && t >= v->frame_of_text_cap) {
		rc = PC_GROW(v->frame_of_text, v->frame_of_text_cap, 0, t + 1);
		if (rc == 0)
			memset(v->frame_of_text + old, 0,
			    (v->frame_of_text_cap - old) *
			    sizeof(*v->frame_of_text));
	}
	if (rc < 0)
		return rc;
	if (v->frame_of_text[t] == 0) {
		rc = PC_GROW(v->frames, v->frames_cap, v->nframes, 1);
		if (rc < 0)
			return rc;
		v->frames[v->nframes] = (struct vframe){ t, function, file,
			module, line, start_line };
		v->frame_of_text[t] = (uint32_t)++v->nframes;
	}
	*id = v->frame_of_text[t];
	return 0;
}

/* The module a location lies in, interned ("" when none). */
static int
module_of(struct profconv_view *v, const struct pc_location *l, uint32_t *out)
{
	const struct profconv_profile *prof = v->prof;
	const char *file = "";

	if (l->mapping != 0)
		file = base_name(profconv__pstr(prof,
		    pc_mapping(prof, l->mapping)->file));
	return profconv__strtab_intern_cstr(&v->strs, file, out);
}

/* The frame of a location in module MODULE (interned) when the
 * granularity is files or filefunctions and it has neither a file nor,
 * for filefunctions, a function name: pprof's "[module]", or
 * "<unknown>" without a mapped file.  NAME and FILEI (interned) go
 * with it. */
static int
module_frame(struct profconv_view *v, uint32_t module, uint32_t name,
    uint32_t filei, int64_t line, int64_t start_line, uint32_t *id)
{
	const char *m = profconv__str(&v->strs, module);
	size_t len = 0;
	int rc;

	if (*m == '\0') {
		rc = append(v, &len, "<unknown>", 9);
	} else {
		rc = append(v, &len, "[", 1);
		if (rc == 0)
			rc = append(v, &len, m, strlen(m));
		if (rc == 0)
			rc = append(v, &len, "]", 1);
	}
	if (rc == 0)
		rc = intern_frame(v, len, name, filei, line, start_line,
		    module, id);
	return rc;
}

/* One frame for line LN of location L by file or by function and file
 * (pprof's -files, -filefunctions): "FILE", "NAME FILE", "NAME",
 * "[MODULE]"; FILE cleaned as Go's filepath.Clean. */
static int
file_frame(struct profconv_view *v, const struct pc_function *f,
    uint32_t name, const char *file, uint32_t filei, int64_t line,
    uint32_t module, uint32_t *id)
{
	const char *fname = profconv__str(&v->strs, name);
	bool by_file = v->opts.granularity == PROFCONV_BY_FILE;
	char *clean = NULL;
	size_t len = 0;
	int rc = 0;

	if (*file == '\0' && (by_file || *fname == '\0'))
		return module_frame(v, module, name, filei, line,
		    f->start_line, id);
	if (!by_file && *fname != '\0')
		rc = append(v, &len, fname, strlen(fname));
	if (rc == 0 && *file != '\0') {
		clean = profconv__clean_path(file);
		if (clean == NULL)
			return profconv__nomem();
		if (len != 0)
			rc = append(v, &len, " ", 1);
		if (rc == 0)
			rc = append(v, &len, clean, strlen(clean));
		free(clean);
	}
	if (rc == 0)
		rc = intern_frame(v, len, name, filei, line, f->start_line,
		    module, id);
	return rc;
}

/* One frame for line LN of location L. */
static int
line_frame(struct profconv_view *v, const struct pc_location *l,
    const struct pc_line *ln, uint32_t module, uint32_t *id)
{
	const struct profconv_profile *prof = v->prof;
	const struct pc_function *f = pc_function(prof, ln->function);
	const char *fname, *file = profconv__pstr(prof, f->file);
	uint32_t name, filei;
	char tmp[64];
	size_t len = 0;
	int rc;

	rc = function_name(v, ln->function, &name);
	if (rc == 0)
		rc = profconv__strtab_intern_cstr(&v->strs, file, &filei);
	if (rc < 0)
		return rc;
	if (v->opts.granularity == PROFCONV_BY_FILE ||
	    v->opts.granularity == PROFCONV_BY_FILE_FUNCTION)
		return file_frame(v, f, name, file, filei, ln->line, module,
		    id);
	fname = profconv__str(&v->strs, name);
	if (*fname == '\0') {
		snprintf(tmp, sizeof(tmp), "%#" PRIx64, l->address);
		fname = tmp;
	}
	rc = append(v, &len, fname, strlen(fname));
	if (rc == 0 && v->opts.granularity == PROFCONV_BY_LINE &&
	    *file != '\0') {
		snprintf(tmp, sizeof(tmp), ":%" PRId64, ln->line);
		rc = append(v, &len, " ", 1);
		if (rc == 0)
			rc = append(v, &len, base_name(file),
			    strlen(base_name(file)));
		if (rc == 0)
			rc = append(v, &len, tmp, strlen(tmp));
	}
	if (rc == 0)
		rc = intern_frame(v, len, name, filei, ln->line, f->start_line,
		    module, id);
	return rc;
}

static unsigned location_match(struct profconv_view *v, uint32_t id);

/* Does RE find a match in the function name or source file of frame F
 * (pprof's Function.name and filename)? */
static bool
frame_matches(const struct profconv_view *v, const regex_t *re, uint32_t f)
{
	const struct vframe *fr = &v->frames[f - 1];

	return regexec(re, profconv__str(&v->strs, fr->function), 0, NULL,
	    0) == 0 || regexec(re, profconv__str(&v->strs, fr->file), 0,
	    NULL, 0) == 0;
}

/*
 * pprof's location filters on location ID's frames (outermost first),
 * once, in its order: focus and ignore see them all; hide drops the
 * matching ones and show keeps only those (the whole location when its
 * mapped file matches: kept by show, dropped by hide; a location
 * without LINES has no names to match); show_from drops the frames
 * outside its outermost match, prune_from those inside its innermost
 * one, and each marks the location for its cut of the stacks.
 */
static void
filter_location(struct profconv_view *v, const struct pc_location *l,
    uint32_t id, bool lines)
{
	uint32_t *f = v->loc_frames + v->loc_off[id] - 1;
	uint32_t n = v->loc_n[id], i, k, j;
	const char *file = l->mapping != 0 ? profconv__pstr(v->prof,
	    pc_mapping(v->prof, l->mapping)->file) : "";
	bool in_file;

	if (v->has_focus || v->has_ignore)
		location_match(v, id);
	if (v->has_hide) {
		in_file = *file != '\0' && regexec(&v->hide, file, 0, NULL,
		    0) == 0;
		for (i = k = 0; i < n; i++)
			if (!in_file && (!lines || !frame_matches(v, &v->hide,
			    f[i])))
				f[k++] = f[i];
		if (k != n)
			v->matched |= PROFCONV_FILTER_HIDE;
		n = k;
	}
	if (v->has_show && !(*file != '\0' && regexec(&v->show, file, 0,
	    NULL, 0) == 0)) {
		for (i = k = 0; i < n; i++)
			if (lines && frame_matches(v, &v->show, f[i]))
				f[k++] = f[i];
		n = k;
	}
	if (v->has_show && n != 0)
		v->matched |= PROFCONV_FILTER_SHOW;
	if (v->has_show_from && n != 0) {
		if (*file != '\0' && regexec(&v->show_from, file, 0, NULL,
		    0) == 0) {
			v->loc_match[id] |= LOC_SHOW_FROM;
		} else if (lines) {
			for (j = 0; j < n && !frame_matches(v, &v->show_from,
			    f[j]); j++)
				;
			if (j < n) {
				memmove(f, f + j, (n - j) * sizeof(*f));
				n -= j;
				v->loc_match[id] |= LOC_SHOW_FROM;
			}
		}
		if ((v->loc_match[id] & LOC_SHOW_FROM) != 0)
			v->matched |= PROFCONV_FILTER_SHOW_FROM;
	}
	if (v->has_prune_from && lines) {
		for (j = n; j > 0; j--) {
			const struct vframe *fr = &v->frames[f[j - 1] - 1];

			if (regexec(&v->prune_from, profconv__str(&v->strs,
			    fr->function), 0, NULL, 0) == 0) {
				n = j;
				v->loc_match[id] |= LOC_PRUNE_FROM;
				v->matched |= PROFCONV_FILTER_PRUNE_FROM;
				break;
			}
		}
	}
	v->loc_n[id] = n;
}

/* The frames of location ID, outermost first, computed once. */
static int
location_frames(struct profconv_view *v, uint32_t id)
{
	const struct profconv_profile *prof = v->prof;
	const struct pc_location *l = pc_location(prof, id);
	uint32_t skip = profconv__prune_skip(&v->pruner, id);
	uint32_t module, fid, empty;
	size_t i, first, len = 0, start = v->nloc_frames;
	char tmp[PC_UNNAMED_MAX];
	const char *t;
	int rc;

	if (v->loc_off[id] != 0)
		return 0;
	rc = module_of(v, l, &module);
	if (rc == 0)
		rc = profconv__strtab_intern_cstr(&v->strs, "", &empty);
	first = v->opts.no_inline && l->nlines > skip ? l->nlines - 1 : skip;
	for (i = l->nlines; rc == 0 && i > first; i--) {
		rc = PC_GROW(v->loc_frames, v->loc_frames_cap, v->nloc_frames, 1);
		if (rc == 0)
			rc = line_frame(v, l, &pc_location_lines(prof, l)[i - 1],
			    module, &fid);
		if (rc == 0 && v->opts.granularity == PROFCONV_BY_ADDRESS) {
			/* One frame per location: the outermost function's
			 * name and where in it (profconv__address_suffix()). */
			struct vframe *f = &v->frames[fid - 1];

			len = 0;
			t = profconv__str(&v->strs, f->text);
			profconv__address_suffix(prof, id, tmp, sizeof(tmp));
			rc = append(v, &len, t, strlen(t));
			if (rc == 0)
				rc = append(v, &len, tmp, strlen(tmp));
			if (rc == 0)
				rc = intern_frame(v, len, f->function, f->file,
				    f->line, f->start_line, module, &fid);
			i = first + 1;	/* the outermost line only */
		}
		if (rc == 0)
			v->loc_frames[v->nloc_frames++] = fid;
	}
	if (rc == 0 && l->nlines <= skip) {
		/* No lines (or all of them pruned): module+offset; by file,
		 * the module, as pprof (its addresses are dropped). */
		t = profconv__unnamed_frame(prof, id, tmp, sizeof(tmp));
		rc = PC_GROW(v->loc_frames, v->loc_frames_cap, v->nloc_frames, 1);
		if (rc == 0 && (v->opts.granularity == PROFCONV_BY_FILE ||
		    v->opts.granularity == PROFCONV_BY_FILE_FUNCTION))
			rc = module_frame(v, module, empty, empty, 0, 0, &fid);
		else if (rc == 0)
			rc = append(v, &len, t, strlen(t));
		if (rc == 0 && len != 0)
			rc = intern_frame(v, len, empty, empty, 0, 0, module,
			    &fid);
		if (rc == 0)
			v->loc_frames[v->nloc_frames++] = fid;
	}
	if (rc == 0) {
		v->loc_off[id] = start + 1;
		v->loc_n[id] = (uint32_t)(v->nloc_frames - start);
		filter_location(v, l, id, l->nlines > skip &&
		    !profconv__named_unnamed(prof, id));
	}
	return rc;
}

/* --- building --------------------------------------------------------------- */

static int
compile(regex_t *re, const char *rx, bool *ok, const char *what)
{
	char msg[128], why[192];
	int err;

	*ok = false;
	if (rx == NULL)
		return 0;
	/* The bounds a profile's own drop_frames has (bounds.h): regcomp's
	 * time and memory follow counted repetitions, not the text. */
	if (profconv__rx_check(rx, why, sizeof(why)) < 0)
		return profconv__fail(PROFCONV_EINVAL,
		    "invalid %s expression '%s': %s", what, rx, why);
	err = regcomp(re, rx, REG_EXTENDED | REG_NOSUB);
	if (err != 0) {
		regerror(err, re, msg, sizeof(msg));
		return profconv__fail(PROFCONV_EINVAL,
		    "invalid %s expression '%s': %s", what, rx, msg);
	}
	*ok = true;
	return 0;
}

/* Does any frame of location ID match focus (1) or ignore (2)? */
static unsigned
location_match(struct profconv_view *v, uint32_t id)
{
	uint8_t *m = &v->loc_match[id];
	size_t i;

	if ((*m & 4) != 0)
		return *m & 3;
	*m |= 4;
	for (i = 0; i < v->loc_n[id]; i++) {
		const char *t = profconv__str(&v->strs,
		    v->frames[v->loc_frames[v->loc_off[id] - 1 + i] - 1].text);

		if (v->has_focus && regexec(&v->focus, t, 0, NULL, 0) == 0)
			*m |= 1;
		if (v->has_ignore && regexec(&v->ignore, t, 0, NULL, 0) == 0)
			*m |= 2;
	}
	if ((*m & 1) != 0)
		v->matched |= PROFCONV_FILTER_FOCUS;
	if ((*m & 2) != 0)
		v->matched |= PROFCONV_FILTER_IGNORE;
	return *m & 3;
}

/* The filters on frames' names. */
#define NAME_FILTERS (PROFCONV_FILTER_FOCUS | PROFCONV_FILTER_IGNORE | \
	PROFCONV_FILTER_HIDE | PROFCONV_FILTER_SHOW | \
	PROFCONV_FILTER_SHOW_FROM | PROFCONV_FILTER_PRUNE_FROM)

/* Bit of loc_match: the location was matched by dropped_match(). */
#define LOC_SEEN_DROPPED 32

/*
 * The name filters (focus, ignore, hide, show, show_from, prune_from)
 * that have not matched yet, matched against the locations of STK (N)
 * of a sample the label filters or suppressions left out: pprof applies
 * the name filters first and says which matched none, so that a label
 * filter keeping nothing is not blamed on them.  Names as pprof's
 * matchesName(): each line's function and file, the mapped file.  Only
 * the bits of v->matched change; no frame is made.
 */
static void
dropped_match(struct profconv_view *v, const uint32_t *stk, size_t n)
{
	const struct profconv_profile *prof = v->prof;
	const struct {
		bool has;
		const regex_t *re;
		unsigned bit;
	} f[] = {
		{ v->has_focus, &v->focus, PROFCONV_FILTER_FOCUS },
		{ v->has_ignore, &v->ignore, PROFCONV_FILTER_IGNORE },
		{ v->has_hide, &v->hide, PROFCONV_FILTER_HIDE },
		{ v->has_show, &v->show, PROFCONV_FILTER_SHOW },
		{ v->has_show_from, &v->show_from, PROFCONV_FILTER_SHOW_FROM },
		{ v->has_prune_from, &v->prune_from,
		    PROFCONV_FILTER_PRUNE_FROM },
	};
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		const struct pc_location *l = pc_location(prof, stk[i]);
		const struct pc_line *ln = pc_location_lines(prof, l);
		const char *mfile = l->mapping != 0 ? profconv__pstr(prof,
		    pc_mapping(prof, l->mapping)->file) : "";

		if ((v->loc_match[stk[i]] & LOC_SEEN_DROPPED) != 0)
			continue;
		v->loc_match[stk[i]] |= LOC_SEEN_DROPPED;
		for (k = 0; k < sizeof(f) / sizeof(f[0]); k++) {
			if (!f[k].has || (v->matched & f[k].bit) != 0)
				continue;
			if (*mfile != '\0' && f[k].bit !=
			    PROFCONV_FILTER_PRUNE_FROM &&
			    regexec(f[k].re, mfile, 0, NULL, 0) == 0)
				v->matched |= f[k].bit;
			for (j = 0; j < l->nlines && (v->matched &
			    f[k].bit) == 0; j++) {
				const struct pc_function *fn;

				if (ln[j].function == 0)
					continue;
				fn = pc_function(prof, ln[j].function);
				if (regexec(f[k].re, profconv__pstr(prof,
				    fn->name), 0, NULL, 0) == 0 ||
				    (f[k].bit != PROFCONV_FILTER_PRUNE_FROM &&
				    regexec(f[k].re, profconv__pstr(prof,
				    fn->file), 0, NULL, 0) == 0))
					v->matched |= f[k].bit;
			}
		}
	}
}

/* --- building: which samples show, and their frames ------------------------ */

/*
 * The view is built in passes, so that the work per sample can run on
 * the job threads and still give the same view whatever their number:
 *
 *  1. in sample order (frames are numbered as they are first met): cut
 *     the allocator frames, make each new location's frames, apply focus
 *     and ignore, and place each shown sample's frames in one array
 *     (for most views the per-sample work of this pass runs on the
 *     threads too: plan_threads());
 *  2. per range of samples: write those frames, root first;
 *  3. sort the shown samples by their frames (stacksort.c): samples with
 *     the same frames come together, in sample order;
 *  4. per range of that order: each run of samples is a stack, its
 *     values their sum in sample order (saturating sums depend on it),
 *     its frames the first sample's.
 */

#define RANGE 16384		/* samples per task, in passes 2 and 4 */
#define NOT_SHOWN UINT32_MAX
#define PREFETCH_AHEAD 16	/* stacks, in profconv_view_stack() */
#define SAMPLES_AHEAD 48	/* samples, in pass 4 */

struct build {
	struct profconv_view *v;
	unsigned int jobs;
	uint32_t *first;	/* sample -> frames cut off, or NOT_SHOWN */
	uint32_t *last;		/* sample -> end of its locations shown */
	size_t *off;		/* sample -> its frames in path */
	uint32_t *path;		/* every shown sample's frames, root first */
	uint8_t *pinl;		/* per path entry: an inlined line */
	uint32_t *shown;	/* the shown samples, in order (NULL:
				 * every sample is) */
	size_t nshown;
	uint32_t *order;	/* place -> index into shown */
	uint8_t *same;		/* place -> same frames as the place before */
	void *scratch[2];	/* the sort's arrays, for the stacks' */
	size_t scratch_size;
	size_t nranges;		/* of places, in pass 4 */
	size_t *range_at;	/* range -> its first place */
	size_t *range_stack;	/* range -> its first stack */
};

/* The frame at the root of a stack cut to PC_VIEW_MAX_DEPTH frames. */
static int
cut_frame(struct profconv_view *v)
{
	size_t len = 0;
	uint32_t empty;
	int rc;

	rc = profconv__strtab_intern_cstr(&v->strs, "", &empty);
	if (rc == 0)
		rc = append(v, &len, PC_VIEW_CUT_FRAME,
		    strlen(PC_VIEW_CUT_FRAME));
	if (rc == 0)
		rc = intern_frame(v, len, empty, empty, 0, 0, empty,
		    &v->cut_frame);
	return rc;
}

/* Does frame ID's text match focus (1) or ignore (2)? */
static unsigned
frame_match(struct profconv_view *v, uint32_t id)
{
	const char *t = profconv__str(&v->strs, v->frames[id - 1].text);
	unsigned m = 0;

	if (v->has_focus && regexec(&v->focus, t, 0, NULL, 0) == 0)
		m |= 1;
	if (v->has_ignore && regexec(&v->ignore, t, 0, NULL, 0) == 0)
		m |= 2;
	return m;
}

/* The pseudo-frames --tagroot and --tagleaf give sample SI, which focus
 * and ignore see as pprof's do (added before they are applied). */
static int
pseudo_frames(struct profconv_view *v, size_t si, unsigned *match)
{
	uint32_t *ids = v->pseudo + si * v->npseudo, empty, key;
	const char *text, *k;
	size_t k_i, len;
	int rc = 0;

	for (k_i = 0; rc == 0 && k_i < v->npseudo; k_i++) {
		rc = profconv__labels_pseudo_text(v->labels, si, k_i, &text,
		    &len, &k);
		if (rc == 0)
			rc = profconv__strtab_intern_cstr(&v->strs, "", &empty);
		if (rc == 0)
			rc = profconv__strtab_intern_cstr(&v->strs, k, &key);
		if (rc == 0)
			rc = PC_GROW(v->buf, v->buf_cap, 0, len + 1);
		if (rc == 0) {
			memcpy(v->buf, text, len);
			rc = intern_frame(v, len, empty, key, 0, 0, empty,
			    &ids[k_i]);
		}
		if (rc == 0 && (v->has_focus || v->has_ignore))
			*match |= frame_match(v, ids[k_i]);
	}
	if ((*match & 1) != 0)
		v->matched |= PROFCONV_FILTER_FOCUS;
	if ((*match & 2) != 0)
		v->matched |= PROFCONV_FILTER_IGNORE;
	return rc;
}

/* Pass 1 for sample SI: is it shown, and with how many frames? */
static int
plan_sample(struct build *b, size_t si, size_t *at)
{
	struct profconv_view *v = b->v;
	const struct profconv_profile *prof = v->prof;
	const struct pc_sample *s = pc_sample(prof, si);
	const uint32_t *stk = pc_sample_stack(prof, s);
	const int64_t *vals = pc_sample_values(prof, si);
	size_t i, n = 0, first, end = s->nlocs, t;
	unsigned match = 0;
	int rc = 0;

	b->first[si] = NOT_SHOWN;
	b->off[si] = *at;
	for (t = 0; t < v->ntypes && vals[t] == 0; t++)
		;
	if (t == v->ntypes)
		return 0;	/* all zero: nothing to show */
	if (!profconv__labels_keep(v->labels, si) ||
	    profconv__suppress_sample(v->supp, si)) {
		if ((v->filters & NAME_FILTERS & ~v->matched) != 0)
			dropped_match(v, stk, s->nlocs);
		return 0;
	}
	rc = pseudo_frames(v, si, &match);
	if (rc < 0)
		return rc;
	n = v->npseudo;
	first = profconv__prune_stack(&v->pruner, stk, s->nlocs);
	for (i = first; rc == 0 && i < s->nlocs; i++) {
		if (v->loc_off[stk[i]] == 0)
			rc = location_frames(v, stk[i]);
		if (rc == 0 && (v->has_focus || v->has_ignore))
			match |= location_match(v, stk[i]);
	}
	if (rc < 0)
		return rc;
	if ((v->has_focus && (match & 1) == 0) || (match & 2) != 0)
		return 0;
	/* show_from: from the outermost match, or nothing; prune_from: from
	 * the innermost match. */
	if (v->has_show_from) {
		for (; end > first && (v->loc_match[stk[end - 1]] &
		    LOC_SHOW_FROM) == 0; end--)
			;
		if (end == first)
			return 0;
	}
	for (i = first; v->has_prune_from && i < end; i++)
		if ((v->loc_match[stk[i]] & LOC_PRUNE_FROM) != 0) {
			first = i;
			break;
		}
	for (i = first; i < end; i++)
		n += v->loc_n[stk[i]];
	/* As pprof: a stack whose frames were all hidden goes. */
	if (n == 0 && (v->has_hide || v->has_show))
		return 0;
	/* Too deep: the innermost frames under one that says so. */
	if (n > PC_VIEW_MAX_DEPTH) {
		n = PC_VIEW_MAX_DEPTH;
		if (v->cut_frame == 0)
			rc = cut_frame(v);
		if (rc < 0)
			return rc;
	}
	b->first[si] = (uint32_t)first;
	b->last[si] = (uint32_t)end;
	*at += n;
	for (t = 0; t < v->ntypes; t++)
		pc_add_sat(&v->totals[t], vals[t]);
	return 0;
}

/*
 * Pass 1 on the threads, for the common view (no pseudo-frames, label
 * filters, suppressions, show_from or prune_from; stacks too short to
 * be cut): the same result as plan_sample() in sample order.
 *  a. per range of samples: which pass the values and the allocator
 *     cut, and the locations the range meets, in the order it first
 *     meets them (the pruner's classes are made beforehand);
 *  b. in range order: each location's frames, made as the serial pass
 *     would first meet them, so that frames are numbered the same;
 *  c. per range: focus and ignore, the frame count of each sample;
 *  d. in sample order: totals (saturating sums depend on the order) and
 *     where each sample's frames go.
 */
struct plan_range {
	uint32_t *met;		/* locations first met in the range */
	size_t nmet;
	uint32_t maxlocs;	/* most locations in a sample kept */
	int rc;
};

struct plan_par {
	struct build *b;
	struct plan_range *ranges;
	size_t nlocations;
};

static int
plan_meet_task(void *arg, size_t r)
{
	struct plan_par *pp = arg;
	struct build *b = pp->b;
	struct profconv_view *v = b->v;
	const struct profconv_profile *prof = v->prof;
	struct plan_range *pr = &pp->ranges[r];
	size_t si, i, t, lo = r * RANGE, hi = lo + RANGE, cap = 0;
	uint8_t *seen;

	if (hi > prof->nsamples)
		hi = prof->nsamples;
	seen = calloc(pp->nlocations / 8 + 1, 1);
	if (seen == NULL)
		return profconv__nomem();
	for (si = lo; si < hi; si++) {
		const struct pc_sample *s = pc_sample(prof, si);
		const uint32_t *stk = pc_sample_stack(prof, s);
		const int64_t *vals = pc_sample_values(prof, si);
		size_t first;

		b->first[si] = NOT_SHOWN;
		for (t = 0; t < v->ntypes && vals[t] == 0; t++)
			;
		if (t == v->ntypes)
			continue;
		first = profconv__prune_stack(&v->pruner, stk, s->nlocs);
		b->first[si] = (uint32_t)first;
		if (s->nlocs - first > pr->maxlocs)
			pr->maxlocs = (uint32_t)(s->nlocs - first);
		for (i = first; i < s->nlocs; i++) {
			uint32_t id = stk[i];

			if ((seen[id / 8] & (1u << (id % 8))) != 0)
				continue;
			seen[id / 8] |= (uint8_t)(1u << (id % 8));
			if (pr->nmet == cap && PC_GROW(pr->met, cap, pr->nmet,
			    1) < 0) {
				free(seen);
				return PROFCONV_ENOMEM;
			}
			pr->met[pr->nmet++] = id;
		}
	}
	free(seen);
	return 0;
}

static int
plan_count_task(void *arg, size_t r)
{
	struct plan_par *pp = arg;
	struct build *b = pp->b;
	const struct profconv_view *v = b->v;
	const struct profconv_profile *prof = v->prof;
	size_t si, i, lo = r * RANGE, hi = lo + RANGE;

	if (hi > prof->nsamples)
		hi = prof->nsamples;
	for (si = lo; si < hi; si++) {
		const struct pc_sample *s = pc_sample(prof, si);
		const uint32_t *stk = pc_sample_stack(prof, s);
		unsigned match = 0;
		size_t n = 0;

		if (b->first[si] == NOT_SHOWN)
			continue;
		for (i = b->first[si]; i < s->nlocs; i++) {
			n += v->loc_n[stk[i]];
			match |= v->loc_match[stk[i]] & 3;
		}
		if ((v->has_focus && (match & 1) == 0) || (match & 2) != 0 ||
		    (n == 0 && (v->has_hide || v->has_show))) {
			b->first[si] = NOT_SHOWN;
			continue;
		}
		b->last[si] = s->nlocs;
		b->off[si] = n;
	}
	return 0;
}

/* Can pass 1 run on the threads for V's samples? */
static bool
plan_on_threads(const struct build *b)
{
	const struct profconv_view *v = b->v;

	return profconv__jobs_count(b->jobs) > 1 &&
	    v->prof->nsamples >= 2 * RANGE && v->npseudo == 0 &&
	    !profconv__labels_filter(v->labels) &&
	    profconv__suppress_count(v->supp) == 0 &&
	    !v->has_show_from && !v->has_prune_from;
}

/* Pass 1 on the threads: 1 when done, 0 when the stacks may be too
 * deep for it (nothing made yet: the serial pass takes over). */
static int
plan_threads(struct build *b, size_t *at)
{
	struct profconv_view *v = b->v;
	const struct profconv_profile *prof = v->prof;
	struct plan_par pp = { b, NULL, prof->nlocations + 1 };
	size_t nranges = (prof->nsamples + RANGE - 1) / RANGE, r, i, t;
	uint32_t maxlocs = 0, maxlines = 1, id;
	int rc = 0;

	/* The allocator cut of every location, made once, here. */
	for (id = 1; id <= prof->nlocations; id++) {
		(void)profconv__prune_skip(&v->pruner, id);
		if (pc_location(prof, id)->nlines > maxlines)
			maxlines = pc_location(prof, id)->nlines;
	}
	pp.ranges = calloc(nranges, sizeof(*pp.ranges));
	if (pp.ranges == NULL)
		return profconv__nomem();
	rc = profconv__jobs_run(b->jobs, nranges, plan_meet_task, &pp);
	if (rc == PROFCONV_ENOMEM)
		rc = profconv__nomem();
	for (r = 0; rc == 0 && r < nranges; r++)
		if (pp.ranges[r].maxlocs > maxlocs)
			maxlocs = pp.ranges[r].maxlocs;
	/* A location gives at most MAXLINES frames: no stack reaches the
	 * depth that makes the serial pass cut it (and make a frame). */
	if (rc == 0 && (uint64_t)maxlocs * maxlines > PC_VIEW_MAX_DEPTH) {
		for (r = 0; r < nranges; r++)
			free(pp.ranges[r].met);
		free(pp.ranges);
		return 0;
	}
	for (r = 0; rc == 0 && r < nranges; r++)
		for (i = 0; rc == 0 && i < pp.ranges[r].nmet; i++)
			if (v->loc_off[pp.ranges[r].met[i]] == 0)
				rc = location_frames(v, pp.ranges[r].met[i]);
	for (r = 0; r < nranges; r++)
		free(pp.ranges[r].met);
	free(pp.ranges);
	if (rc == 0)
		rc = profconv__jobs_run(b->jobs, nranges, plan_count_task,
		    &pp);
	if (rc < 0)
		return rc;
	for (i = 0; i < prof->nsamples; i++) {
		size_t n;

		if (b->first[i] == NOT_SHOWN) {
			b->off[i] = *at;
			continue;
		}
		n = b->off[i];
		b->off[i] = *at;
		*at += n;
		for (t = 0; t < v->ntypes; t++)
			pc_add_sat(&v->totals[t], pc_sample_values(prof, i)[t]);
	}
	return 1;
}

static int
plan(struct build *b)
{
	size_t i, at = 0, n = b->v->prof->nsamples;
	int rc = 0;

	if (n >= UINT32_MAX)
		return profconv__fail(PROFCONV_ENOMEM, "too many samples to "
		    "show: %zu", n);
	b->first = malloc((n + 1) * sizeof(*b->first));
	b->last = malloc((n + 1) * sizeof(*b->last));
	b->off = malloc((n + 1) * sizeof(*b->off));
	b->v->pseudo = malloc((n * b->v->npseudo + 1) *
	    sizeof(*b->v->pseudo));
	if (b->first == NULL || b->last == NULL || b->off == NULL ||
	    b->v->pseudo == NULL)
		return profconv__nomem();
	if (plan_on_threads(b))
		rc = plan_threads(b, &at);
	for (i = 0; rc == 0 && i < n; i++)
		rc = plan_sample(b, i, &at);
	if (rc < 0)
		return rc;
	b->off[n] = at;
	b->path = malloc((at + 1) * sizeof(*b->path));
	if (b->path == NULL)
		return profconv__nomem();
	/* Inline marks only where a location has more than one frame:
	 * zero pages, written where a mark is 1. */
	for (i = 1; i <= b->v->prof->nlocations; i++)
		if (b->v->loc_n[i] > 1) {
			b->pinl = calloc(at + 1, 1);
			return b->pinl == NULL ? profconv__nomem() : 0;
		}
	return 0;
}

/* Pass 2: the frames of samples [R * RANGE, ...), root first. */
static int
path_task(void *arg, size_t r)
{
	struct build *b = arg;
	const struct profconv_view *v = b->v;
	const struct profconv_profile *prof = v->prof;
	size_t si, i, j, lo = r * RANGE, hi = lo + RANGE;

	if (hi > prof->nsamples)
		hi = prof->nsamples;
	for (si = lo; si < hi; si++) {
		const struct pc_sample *s = pc_sample(prof, si);
		const uint32_t *stk = pc_sample_stack(prof, s);
		uint32_t *p = b->path + b->off[si];
		size_t all = 0, skip = 0;

		if (b->first[si] == NOT_SHOWN)
			continue;
		const uint32_t *ps = v->pseudo + si * v->npseudo;

		/* A stack cut by plan_sample() (when any was): the frames
		 * nearest the root give way to the one that says so. */
		for (i = b->first[si]; v->cut_frame != 0 && i < b->last[si];
		    i++)
			all += v->loc_n[stk[i]];
		all += v->npseudo;
		if (v->cut_frame != 0 && all > b->off[si + 1] - b->off[si]) {
			skip = all - (b->off[si + 1] - b->off[si]) + 1;
			*p++ = v->cut_frame;
		}
		for (j = 0; j < v->nroot; j++) {
			if (skip != 0)
				skip--;
			else
				*p++ = ps[j];
		}
		for (i = b->last[si]; i > b->first[si]; i--) {
			uint32_t id = stk[i - 1];
			const uint32_t *lf = v->loc_frames + v->loc_off[id] - 1;

			for (j = 0; j < v->loc_n[id]; j++) {
				if (skip != 0) {
					skip--;
					continue;
				}
				if (j != 0)	/* b->pinl is there */
					b->pinl[p - b->path] = 1;
				*p++ = lf[j];
			}
		}
		for (j = v->nroot; j < v->npseudo; j++)
			*p++ = ps[j];
	}
	return 0;
}

/* --- order: folded text, byte order ------------------------------------------ */

/* A frame where another follows (';' after its text in the folded form)
 * or where its stack ends. */
struct fkey {
	uint32_t frame;
	int after;		/* ';', or -1 at the end */
};

/*
 * The folded text's byte order on a frame's text and what follows it,
 * which is all that decides between two stacks at the first frame where
 * they differ.
 */
static int
by_folded(const void *a, const void *b, void *payload)
{
	const struct profconv_view *v = payload;
	const struct fkey *x = a, *y = b;
	uint32_t tx = v->frames[x->frame - 1].text;
	uint32_t ty = v->frames[y->frame - 1].text;
	size_t lx = v->strs.lens[tx], ly = v->strs.lens[ty];
	size_t n = lx < ly ? lx : ly;
	int c = memcmp(profconv__str(&v->strs, tx), profconv__str(&v->strs, ty),
	    n), cx, cy;

	if (c != 0)
		return c;
	cx = n < lx ? (unsigned char)profconv__str(&v->strs, tx)[n] : x->after;
	cy = n < ly ? (unsigned char)profconv__str(&v->strs, ty)[n] : y->after;
	if (cx != cy)
		return cx < cy ? -1 : 1;
	/* One text and what follows it begins the other's. */
	return lx < ly ? -1 : lx > ly;
}

/* cont[f] and end[f]: frame F's place among all frames' two keys. */
static int
frame_keys(const struct profconv_view *v, uint32_t **cont, uint32_t **end)
{
	size_t n = 2 * v->nframes, i;
	struct fkey *k = malloc((n + 1) * sizeof(*k));

	*cont = calloc(v->nframes + 1, sizeof(**cont));
	*end = calloc(v->nframes + 1, sizeof(**end));
	if (k == NULL || *cont == NULL || *end == NULL) {
		free(k);
		return profconv__nomem();
	}
	for (i = 0; i < v->nframes; i++) {
		k[2 * i] = (struct fkey){ (uint32_t)i + 1, ';' };
		k[2 * i + 1] = (struct fkey){ (uint32_t)i + 1, -1 };
	}
	qsort_r(k, n, sizeof(*k), by_folded, (void *)v);
	for (i = 0; i < n; i++)
		(k[i].after == -1 ? *end : *cont)[k[i].frame] =
		    (uint32_t)i + 1;
	free(k);
	return 0;
}

/* The sample shown K-th. */
static inline size_t
shown_at(const struct build *b, size_t k)
{
	return b->shown != NULL ? b->shown[k] : k;
}

static const uint32_t *
shown_path(const void *arg, size_t k, size_t *len)
{
	const struct build *b = arg;
	size_t si = shown_at(b, k);

	*len = b->off[si + 1] - b->off[si];
	return b->path + b->off[si];
}

/* Pass 3: the shown samples in the folded text's order. */
static int
sort_samples(struct build *b)
{
	struct profconv_view *v = b->v;
	struct pc_seqsort s = { 0 };
	size_t si, n = v->prof->nsamples;
	int rc;

	for (si = 0; si < n; si++)
		b->nshown += b->first[si] != NOT_SHOWN;
	if (b->nshown < n) {
		b->shown = malloc((b->nshown + 1) * sizeof(*b->shown));
		if (b->shown == NULL)
			return profconv__nomem();
		for (si = 0, b->nshown = 0; si < n; si++)
			if (b->first[si] != NOT_SHOWN)
				b->shown[b->nshown++] = (uint32_t)si;
	}
	b->order = malloc((b->nshown + 1) * sizeof(*b->order));
	b->same = malloc(b->nshown + 1);
	if (b->order == NULL || b->same == NULL)
		return profconv__nomem();
	s.n = b->nshown;
	s.seq = shown_path;
	s.arg = b;
	s.maxkey = (uint32_t)(2 * v->nframes);
	s.jobs = b->jobs;
	s.keep = b->scratch;
	s.keep_size = &b->scratch_size;
	/* Keys name frames: equal keys are equal frames. */
	rc = frame_keys(v, (uint32_t **)&s.cont, (uint32_t **)&s.end);
	if (rc == 0)
		rc = profconv__seqsort(&s, b->order, NULL, b->same);
	free((void *)s.cont);
	free((void *)s.end);
	return rc;
}

/* Pass 4, counting: the stacks that begin in range R of places (a range
 * begins where a stack does). */
static int
count_task(void *arg, size_t r)
{
	struct build *b = arg;
	size_t p, n = 0;

	for (p = b->range_at[r]; p < b->range_at[r + 1]; p++)
		n += !b->same[p];
	b->range_stack[r] = n;
	return 0;
}

/* ... and making them: where their frames are, their values, and each
 * sample pointed at its stack. */
static int
stack_task(void *arg, size_t r)
{
	struct build *b = arg;
	struct profconv_view *v = b->v;
	size_t p, k = b->range_stack[r], t, nt = v->ntypes;
	int64_t *acc = NULL;

	for (p = b->range_at[r]; p < b->range_at[r + 1]; p++) {
		size_t si = shown_at(b, b->order[p]);
		const int64_t *vals = pc_sample_values(v->prof, si);

		/* Samples are met in no order: what the next ones read and
		 * write is asked for early. */
		if (b->shown != NULL && p + 2 * SAMPLES_AHEAD < b->nshown)
			__builtin_prefetch(&b->shown[b->order[p +
			    2 * SAMPLES_AHEAD]]);
		if (p + SAMPLES_AHEAD < b->nshown) {
			size_t ahead = shown_at(b, b->order[p + SAMPLES_AHEAD]);

			__builtin_prefetch(pc_sample_values(v->prof, ahead));
			__builtin_prefetch(&b->off[ahead]);
			__builtin_prefetch(&v->sample_stack[ahead], 1);
		}

		if (!b->same[p]) {
			v->stacks[k].off = b->off[si];
			v->stacks[k].n = (uint32_t)(b->off[si + 1] -
			    b->off[si]);
			acc = v->vals + k * nt;
			memset(acc, 0, nt * sizeof(*acc));
			k++;
		}
		for (t = 0; t < nt; t++)
			pc_add_sat(&acc[t], vals[t]);
		v->sample_stack[si] = (uint32_t)k;
	}
	return 0;
}

/* SIZE bytes: the sort's array *P (then NULL) cut to size when it has
 * room, since its pages are made already; else new ones. */
static void *
reuse(struct build *b, void **p, size_t size)
{
	void *q;

	if (*p == NULL || size > b->scratch_size)
		return malloc(size);
	q = realloc(*p, size);
	if (q == NULL)
		q = *p;		/* still whole */
	*p = NULL;
	return q;
}

/*
 * The view's stacks in their order.  Their frames stay where pass 2 put
 * them (each sample's together, root first; copying them into the
 * stacks' order cost more in fresh pages than the writers gain).
 */
static int
lay_out(struct build *b)
{
	struct profconv_view *v = b->v;
	size_t n, r, at = b->off[v->prof->nsamples];
	int rc;

	b->nranges = (b->nshown + RANGE - 1) / RANGE;
	b->range_at = malloc((b->nranges + 1) * sizeof(*b->range_at));
	b->range_stack = malloc((b->nranges + 1) * sizeof(*b->range_stack));
	if (b->range_at == NULL || b->range_stack == NULL)
		return profconv__nomem();
	/* Each range from the first stack to begin in it: one stack's
	 * samples are added by one task, in order. */
	for (r = 0; r < b->nranges; r++) {
		size_t p = r * RANGE;

		while (p < b->nshown && b->same[p])
			p++;
		b->range_at[r] = p;
	}
	b->range_at[b->nranges] = b->nshown;
	rc = profconv__jobs_run(b->jobs, b->nranges, count_task, b);
	if (rc < 0)
		return rc;
	for (r = 0, n = 0; r < b->nranges; r++) {
		size_t k = b->range_stack[r];

		b->range_stack[r] = n;
		n += k;
	}
	v->nstacks = n;
	v->stacks = reuse(b, &b->scratch[0], (n + 1) * sizeof(*v->stacks));
	v->vals = reuse(b, &b->scratch[1], (n * v->ntypes + 1) *
	    sizeof(*v->vals));
	if (v->stacks == NULL || v->vals == NULL)
		return profconv__nomem();
	v->stacks_cap = n + 1;
	v->vals_cap = n * v->ntypes + 1;
	v->nvals = n * v->ntypes;
	v->sframes = b->path;
	v->sinline = b->pinl;
	b->path = NULL;
	b->pinl = NULL;
	v->sframes_cap = at + 1;
	v->nsframes = at;
	return profconv__jobs_run(b->jobs, b->nranges, stack_task, b);
}

static void
build_free(struct build *b)
{
	free(b->first);
	free(b->last);
	free(b->off);
	free(b->path);
	free(b->pinl);
	free(b->shown);
	free(b->order);
	free(b->same);
	free(b->range_at);
	free(b->range_stack);
	free(b->scratch[0]);
	free(b->scratch[1]);
}

static int
build(struct profconv_view *v, unsigned int jobs)
{
	struct build b = { .v = v, .jobs = jobs };
	size_t ns = v->prof->nsamples;
	int rc;

	rc = plan(&b);
	if (rc == 0)
		rc = profconv__jobs_run(jobs, (ns + RANGE - 1) / RANGE,
		    path_task, &b);
	if (rc == 0)
		rc = sort_samples(&b);
	if (rc == 0)
		rc = lay_out(&b);
	build_free(&b);
	return rc;
}

/* --- the public view ------------------------------------------------------- */

static void
free_scratch(struct profconv_view *v)
{
	profconv__pruner_free(&v->pruner);
	if (v->has_focus)
		regfree(&v->focus);
	if (v->has_ignore)
		regfree(&v->ignore);
	if (v->has_hide)
		regfree(&v->hide);
	if (v->has_show)
		regfree(&v->show);
	if (v->has_show_from)
		regfree(&v->show_from);
	if (v->has_prune_from)
		regfree(&v->prune_from);
	v->has_focus = v->has_ignore = false;
	v->has_hide = v->has_show = v->has_show_from = false;
	v->has_prune_from = false;
	profconv__labels_free(v->labels);
	v->labels = NULL;
	free(v->pseudo);
	v->pseudo = NULL;
	free(v->loc_off);
	free(v->loc_n);
	free(v->loc_match);
	free(v->loc_frames);
	free(v->fn_name);
	free(v->buf);
	profconv__namer_free(&v->namer);
	v->loc_off = NULL;
	v->loc_n = NULL;
	v->loc_match = NULL;
	v->loc_frames = NULL;
	v->fn_name = NULL;
	v->buf = NULL;
}

void
profconv_view_free(struct profconv_view *v)
{
	if (v == NULL)
		return;
	free_scratch(v);
	profconv__suppress_free(v->supp);
	profconv__strtab_free(&v->strs);
	free(v->frame_of_text);
	free(v->frames);
	free(v->stacks);
	free(v->sframes);
	free(v->sinline);
	free(v->vals);
	free(v->totals);
	free(v->sample_stack);
	free(v->focus_text);
	free(v->ignore_text);
	free(v);
}

/* OPTS's hide, show, show_from and prune_from into V. */
static int
compile_filters(struct profconv_view *v,
    const struct profconv_view_options *opts)
{
	int rc;

	rc = compile(&v->hide, opts->hide, &v->has_hide, "hide");
	if (rc == 0)
		rc = compile(&v->show, opts->show, &v->has_show, "show");
	if (rc == 0)
		rc = compile(&v->show_from, opts->show_from,
		    &v->has_show_from, "show-from");
	if (rc == 0)
		rc = compile(&v->prune_from, opts->prune_from,
		    &v->has_prune_from, "prune-from");
	return rc;
}

static bool
given(const char *s)
{
	return s != NULL && *s != '\0';
}

/* The PROFCONV_FILTER_* bits of the filters OPTS asks for (an empty
 * expression is none, as pprof's). */
static unsigned
given_filters(const struct profconv_view_options *o)
{
	return (given(o->focus) ? PROFCONV_FILTER_FOCUS : 0) |
	    (given(o->ignore) ? PROFCONV_FILTER_IGNORE : 0) |
	    (given(o->hide) ? PROFCONV_FILTER_HIDE : 0) |
	    (given(o->show) ? PROFCONV_FILTER_SHOW : 0) |
	    (given(o->show_from) ? PROFCONV_FILTER_SHOW_FROM : 0) |
	    (given(o->prune_from) ? PROFCONV_FILTER_PRUNE_FROM : 0) |
	    (given(o->tagfocus) ? PROFCONV_FILTER_TAGFOCUS : 0) |
	    (given(o->tagignore) ? PROFCONV_FILTER_TAGIGNORE : 0) |
	    (given(o->tagroot) ? PROFCONV_FILTER_TAGROOT : 0) |
	    (given(o->tagleaf) ? PROFCONV_FILTER_TAGLEAF : 0);
}

/* The modes of OPTS are ones this library knows. */
static int
check_modes(const struct profconv_view_options *opts)
{
	if ((unsigned)opts->granularity > PROFCONV_BY_FILE_FUNCTION ||
	    (unsigned)opts->demangle > PROFCONV_DEMANGLE_NONE)
		return profconv__fail(PROFCONV_EINVAL,
		    "invalid view granularity or demangle mode");
	return 0;
}

int
profconv_view_options_check(const struct profconv_view_options *opts)
{
	struct profconv_view_options o;
	struct pc_labels *labels = NULL;
	struct pc_suppress *supp = NULL;
	struct pc_tagnames names;
	regex_t re;
	bool ok;
	int rc;

	if ((rc = profconv__options_take(&o, opts, &profconv__options_view)) < 0)
		return rc;
	rc = check_modes(&o);
	if (rc == 0)
		rc = compile(&re, o.focus, &ok, "focus");
	if (rc == 0 && ok)
		regfree(&re);
	if (rc == 0)
		rc = compile(&re, o.ignore, &ok, "ignore");
	if (rc == 0 && ok)
		regfree(&re);
	if (rc == 0)
		rc = profconv__labels_new(&labels, NULL, &o);
	profconv__labels_free(labels);
	if (rc == 0 && (rc = profconv__tagnames_init(&names, &o)) == 0)
		profconv__tagnames_free(&names);
	if (rc == 0)
		rc = profconv__suppress_new(&supp, NULL, &o);
	profconv__suppress_free(supp);
	if (rc == 0) {
		struct profconv_view v;

		memset(&v, 0, sizeof(v));
		rc = compile_filters(&v, &o);
		free_scratch(&v);
	}
	return rc;
}

int
profconv_view_new(struct profconv_view **out,
    const struct profconv_profile *prof,
    const struct profconv_view_options *opts)
{
	struct profconv_view_options o;
	struct profconv_view *v;
	size_t nloc;
	int rc;

	*out = NULL;
	if ((rc = profconv__options_take(&o, opts, &profconv__options_view)) < 0)
		return rc;
	opts = &o;
	if ((rc = check_modes(opts)) < 0)
		return rc;
	v = calloc(1, sizeof(*v));
	if (v == NULL)
		return profconv__nomem();
	v->prof = prof;
	v->opts = *opts;
	v->opts.focus = v->opts.ignore = NULL;	/* not kept: caller's */
	v->opts.hide = v->opts.show = NULL;
	v->opts.show_from = v->opts.prune_from = NULL;
	v->opts.tagfocus = v->opts.tagignore = NULL;
	v->opts.tagroot = v->opts.tagleaf = NULL;
	v->opts.suppressions = v->opts.suppressions_name = NULL;
	v->opts.tagshow = v->opts.taghide = NULL;
	v->jobs = opts->jobs;
	v->ntypes = prof->nsample_types;
	v->namer.mode = opts->demangle;
	nloc = prof->nlocations + 1;
	rc = profconv__strtab_init(&v->strs);
	if (rc == 0)
		rc = compile(&v->focus, opts->focus, &v->has_focus, "focus");
	if (rc == 0)
		rc = compile(&v->ignore, opts->ignore, &v->has_ignore,
		    "ignore");
	if (rc == 0 && opts->focus != NULL &&
	    (v->focus_text = strdup(opts->focus)) == NULL)
		rc = profconv__nomem();
	if (rc == 0 && opts->ignore != NULL &&
	    (v->ignore_text = strdup(opts->ignore)) == NULL)
		rc = profconv__nomem();
	if (rc == 0)
		rc = compile_filters(v, opts);
	if (rc == 0)
		rc = profconv__pruner_init(&v->pruner, prof,
		    !opts->keep_allocator_frames, !opts->no_wrappers);
	if (rc == 0)
		rc = profconv__labels_new(&v->labels, prof, opts);
	if (rc == 0)
		rc = profconv__suppress_new(&v->supp, prof, opts);
	v->npseudo = profconv__labels_pseudo(v->labels, &v->nroot);
	if (rc == 0) {
		v->totals = calloc(v->ntypes + 1, sizeof(*v->totals));
		v->loc_off = calloc(nloc, sizeof(*v->loc_off));
		v->loc_n = calloc(nloc, sizeof(*v->loc_n));
		v->loc_match = calloc(nloc, 1);
		v->fn_name = calloc(prof->nfunctions + 1, sizeof(*v->fn_name));
		v->sample_stack = calloc(prof->nsamples + 1,
		    sizeof(*v->sample_stack));
		if (v->totals == NULL || v->loc_off == NULL ||
		    v->sample_stack == NULL ||
		    v->loc_n == NULL || v->loc_match == NULL ||
		    v->fn_name == NULL)
			rc = profconv__nomem();
	}
	if (rc == 0 && v->pruner.refused[0] != '\0' && opts->warn != NULL)
		opts->warn(v->pruner.refused, opts->payload);
	v->filters = given_filters(opts);
	if (rc == 0)
		rc = build(v, v->jobs);
	v->matched |= profconv__labels_matched(v->labels);
	free_scratch(v);
	if (rc < 0) {
		profconv_view_free(v);
		return rc;
	}
	*out = v;
	return 0;
}


unsigned
profconv_view_unmatched(const struct profconv_view *v)
{
	return v->filters & ~v->matched;
}

int
profconv_filters_unmatched(const struct profconv_profile *prof,
    const struct profconv_view_options *opts, unsigned *out)
{
	struct profconv_view_options o;
	struct profconv_view *v;
	int rc;

	*out = 0;
	if ((rc = profconv__options_take(&o, opts,
	    &profconv__options_view)) < 0)
		return rc;
	if (given_filters(&o) == 0)
		return 0;
	/* The view's own warnings are its caller's, said once. */
	o.warn = NULL;
	if ((rc = profconv_view_new(&v, prof, &o)) < 0)
		return rc;
	*out = profconv_view_unmatched(v);
	profconv_view_free(v);
	return 0;
}

const struct profconv_profile *
profconv_view_profile(const struct profconv_view *v)
{
	return v->prof;
}

size_t
profconv_view_frame_count(const struct profconv_view *v)
{
	return v->nframes;
}

int
profconv_view_frame(const struct profconv_view *v, uint32_t id,
    struct profconv_view_frame *out)
{
	const struct vframe *f;

	if (id == 0 || id > v->nframes)
		return profconv__fail(PROFCONV_EINVAL,
		    "view has no frame %" PRIu32, id);
	f = &v->frames[id - 1];
	out->name = profconv__str(&v->strs, f->text);
	out->function = profconv__str(&v->strs, f->function);
	out->file = profconv__str(&v->strs, f->file);
	out->line = f->line;
	out->module = profconv__str(&v->strs, f->module);
	return 0;
}

size_t
profconv_view_stack_count(const struct profconv_view *v)
{
	return v->nstacks;
}

int
profconv_view_stack(const struct profconv_view *v, size_t i,
    struct profconv_view_stack *out)
{
	if (i >= v->nstacks)
		return profconv__fail(PROFCONV_EINVAL,
		    "view has no stack %zu", i);
	/* Stacks are read in order, and each one's frames lie where its
	 * first sample's were: ask for those of a stack further on now. */
	if (i + PREFETCH_AHEAD < v->nstacks) {
		const struct vstack *ahead = &v->stacks[i + PREFETCH_AHEAD];

		__builtin_prefetch(v->sframes + ahead->off);
		__builtin_prefetch(v->sframes + ahead->off + ahead->n - 1);
	}
	out->frames = v->stacks[i].n != 0 ? v->sframes + v->stacks[i].off :
	    NULL;
	out->nframes = v->stacks[i].n;
	out->values = v->ntypes != 0 ? v->vals + i * v->ntypes : NULL;
	return 0;
}

int
profconv_view_total(const struct profconv_view *v, size_t type_index,
    int64_t *out)
{
	if (type_index >= v->ntypes)
		return profconv__fail(PROFCONV_EINVAL,
		    "profile has no sample type %zu", type_index);
	*out = v->totals[type_index];
	return 0;
}

int
profconv_view_sample_index(const struct profconv_view *v, const char *type,
    size_t *out)
{
	int ti;

	if (type == NULL) {
		ti = profconv_profile_default_sample_index(v->prof);
		if (ti < 0)
			return profconv__fail(PROFCONV_ENOTFOUND,
			    "profile has no sample types");
	} else {
		ti = profconv_profile_sample_type_index(v->prof, type);
		if (ti < 0)
			return profconv__fail(PROFCONV_ENOTFOUND,
			    "profile has no sample type '%s'", type);
	}
	*out = (size_t)ti;
	return 0;
}

/* Text of frame ID; for the row engine and writers inside the library. */
const char *
profconv__view_frame_text(const struct profconv_view *v, uint32_t id)
{
	return profconv__str(&v->strs, v->frames[id - 1].text);
}

const int64_t *
profconv__view_stack_values(const struct profconv_view *v, size_t i)
{
	return v->vals + i * v->ntypes;
}

size_t
profconv__view_sample_stack(const struct profconv_view *v, size_t i)
{
	return i < v->prof->nsamples ? v->sample_stack[i] : 0;
}

const uint8_t *
profconv__view_stack_inline(const struct profconv_view *v, size_t i)
{
	return i < v->nstacks && v->stacks[i].n != 0 && v->sinline != NULL ?
	    v->sinline + v->stacks[i].off : NULL;
}

void
profconv__view_filters(const struct profconv_view *v, const char **focus,
    const char **ignore)
{
	*focus = v->focus_text;
	*ignore = v->ignore_text;
}

enum profconv_granularity
profconv__view_granularity(const struct profconv_view *v)
{
	return v->opts.granularity;
}

unsigned int
profconv__view_jobs(const struct profconv_view *v)
{
	return v->jobs;
}

size_t
profconv_view_suppression_count(const struct profconv_view *v)
{
	return profconv__suppress_count(v->supp);
}

int
profconv_view_suppression(const struct profconv_view *v, size_t i,
    struct profconv_suppression *out)
{
	if (i >= profconv__suppress_count(v->supp))
		return profconv__fail(PROFCONV_EINVAL,
		    "view has no suppression %zu", i);
	profconv__suppress_get(v->supp, i, out);
	return 0;
}

int64_t
profconv__view_frame_start_line(const struct profconv_view *v, uint32_t id)
{
	return v->frames[id - 1].start_line;
}
