/* SPDX-License-Identifier: MIT */
/*
 * view_names.c - the frames of a view: each location's frames and their
 * names in the view's demangle mode and granularity, and pprof's
 * location filters on them (hide, show, show_from, prune_from).  Part of
 * the view (view.c); view_build.h holds their shared state.
 */

#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bounds.h"
#include "names/names.h"
#include "view/view.h"
#include "view/view_build.h"

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

int
profconv__view_append(struct profconv_view *v, size_t *len, const char *s,
    size_t n)
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

/*
 * profconv__view_intern_frame() for a frame whose text by function is
 * V->buf[0, FN_LEN) (0: all of it).  A view by line stays coarse only
 * while that part is the same wherever the frame is met and its text
 * was not cut.
 */
static int
intern_frame(struct profconv_view *v, size_t len, size_t fn_len,
    uint32_t function, uint32_t file, int64_t line, int64_t start_line,
    uint32_t module, uint32_t *id)
{
	size_t full = len;
	uint32_t t;
	int rc;

	len = elide(v->buf, len);
	if (len != full && fn_len != 0)
		v->coarse = false;
	rc = profconv__strtab_intern(&v->strs, v->buf, len, &t);
	if (rc == 0)
		rc = PC_GROW_ZEROED(v->frame_of_text, v->frame_of_text_cap,
		    (size_t)t + 1);
	if (rc < 0)
		return rc;
	if (v->frame_of_text[t] == 0) {
		rc = PC_GROW(v->frames, v->frames_cap, v->nframes, 1);
		if (rc < 0)
			return rc;
		v->frames[v->nframes] = (struct vframe){ t, function, file,
			module, line, start_line, 0, 0, (uint32_t)fn_len };
		v->frame_of_text[t] = (uint32_t)++v->nframes;
	} else if (v->frames[v->frame_of_text[t] - 1].fn_len != fn_len) {
		v->coarse = false;
	}
	*id = v->frame_of_text[t];
	return 0;
}

int
profconv__view_intern_frame(struct profconv_view *v, size_t len,
    uint32_t function, uint32_t file, int64_t line, int64_t start_line,
    uint32_t module, uint32_t *id)
{
	return intern_frame(v, len, 0, function, file, line, start_line,
	    module, id);
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
		rc = profconv__view_append(v, &len, "<unknown>", 9);
	} else {
		rc = profconv__view_append(v, &len, "[", 1);
		if (rc == 0)
			rc = profconv__view_append(v, &len, m, strlen(m));
		if (rc == 0)
			rc = profconv__view_append(v, &len, "]", 1);
	}
	if (rc == 0)
		rc = profconv__view_intern_frame(v, len, name, filei, line,
		    start_line, module, id);
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
		rc = profconv__view_append(v, &len, fname, strlen(fname));
	if (rc == 0 && *file != '\0') {
		clean = profconv__clean_path(file);
		if (clean == NULL)
			return profconv__nomem();
		if (len != 0)
			rc = profconv__view_append(v, &len, " ", 1);
		if (rc == 0)
			rc = profconv__view_append(v, &len, clean,
			    strlen(clean));
		free(clean);
	}
	if (rc == 0)
		rc = profconv__view_intern_frame(v, len, name, filei, line,
		    f->start_line, module, id);
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
	size_t len = 0, fn_len = 0;
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
	rc = profconv__view_append(v, &len, fname, strlen(fname));
	if (rc == 0 && v->opts.granularity == PROFCONV_BY_LINE &&
	    *file != '\0') {
		v->line_texts = true;
		fn_len = len;
		snprintf(tmp, sizeof(tmp), ":%" PRId64, ln->line);
		rc = profconv__view_append(v, &len, " ", 1);
		if (rc == 0)
			rc = profconv__view_append(v, &len, base_name(file),
			    strlen(base_name(file)));
		if (rc == 0)
			rc = profconv__view_append(v, &len, tmp, strlen(tmp));
	}
	if (rc == 0)
		rc = intern_frame(v, len, fn_len, name, filei, ln->line,
		    f->start_line, module, id);
	return rc;
}

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

	if (v->has_focus || v->has_ignore || v->has_keep)
		profconv__view_location_match(v, id);
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

/* By address: frame FID stands for location ID's lines FIRST.. (the
 * first location that made it, when several give the same text). */
static void
address_frame(struct profconv_view *v, uint32_t fid, uint32_t id,
    size_t first)
{
	struct vframe *f = &v->frames[fid - 1];

	if (f->loc == 0) {
		f->loc = id;
		f->loc_first = (uint32_t)first;
	}
}

/* The frames of location ID, outermost first, computed once. */
int
profconv__view_location_frames(struct profconv_view *v, uint32_t id)
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
			rc = profconv__view_append(v, &len, t, strlen(t));
			if (rc == 0)
				rc = profconv__view_append(v, &len, tmp,
				    strlen(tmp));
			if (rc == 0)
				rc = profconv__view_intern_frame(v, len,
				    f->function, f->file, f->line,
				    f->start_line, module, &fid);
			if (rc == 0)
				address_frame(v, fid, id, first);
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
			rc = profconv__view_append(v, &len, t, strlen(t));
		if (rc == 0 && len != 0)
			rc = profconv__view_intern_frame(v, len, empty, empty,
			    0, 0, module, &fid);
		if (rc == 0 && v->opts.granularity == PROFCONV_BY_ADDRESS)
			address_frame(v, fid, id, l->nlines);
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
