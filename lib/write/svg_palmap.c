/* SPDX-License-Identifier: MIT */
/*
 * svg_palmap.c - palette maps: function name -> colour, kept between graphs
 * in flamegraph.pl's palette.map text ("name->rgb(r,g,b)" per line), so
 * that a function keeps the colour it was first given whatever palette,
 * shade or random colours later graphs use.
 */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "write/write.h"

struct profconv_palette_map {
	struct pc_keymap names;		/* name -> index into colors */
	struct pc_rgb *colors;
	size_t n, cap;
};

int
profconv_palette_map_new(struct profconv_palette_map **out)
{
	*out = calloc(1, sizeof(**out));
	return *out != NULL ? 0 : profconv__nomem();
}

void
profconv_palette_map_free(struct profconv_palette_map *map)
{
	if (map == NULL)
		return;
	profconv__keymap_free(&map->names);
	free(map->colors);
	free(map);
}

/* Set NAME (LEN bytes) to C, or when KEEP and NAME is there already,
 * give back its colour in *C. */
static int
put(struct profconv_palette_map *m, const char *name, size_t len,
    struct pc_rgb *c, bool keep)
{
	uint32_t at;
	bool added;
	int rc;

	if (memchr(name, '\n', len) != NULL || memchr(name, '\r', len) != NULL)
		return 0;
	if ((rc = PC_GROW(m->colors, m->cap, m->n, 1)) < 0)
		return rc;
	rc = profconv__keymap_intern(&m->names, name, len, (uint32_t)m->n,
	    &at, &added);
	if (rc < 0)
		return rc;
	if (added)
		m->colors[m->n++] = *c;
	else if (keep)
		*c = m->colors[at];
	else
		m->colors[at] = *c;
	return 0;
}

int
profconv__palette_map_color(struct profconv_palette_map *m,
    const char *name, struct pc_rgb *c)
{
	return put(m, name, strlen(name), c, true);
}

/* "rgb(R,G,B)" and nothing else, each 0..255. */
static bool
parse_rgb(const char *s, struct pc_rgb *c)
{
	unsigned int v[3];
	int used = -1;

	if (sscanf(s, "rgb(%3u,%3u,%3u)%n", &v[0], &v[1], &v[2], &used) != 3 ||
	    used < 0 || s[used] != '\0' || v[0] > 255 || v[1] > 255 ||
	    v[2] > 255 || strspn(s + 4, "0123456789,)") != strlen(s + 4))
		return false;
	*c = (struct pc_rgb){ (unsigned char)v[0], (unsigned char)v[1],
	    (unsigned char)v[2] };
	return true;
}

static int
read_line(struct profconv_palette_map *m, char *line, size_t len,
    unsigned long long lineno)
{
	char *arrow = NULL, *p;
	struct pc_rgb c;

	if (len != 0 && line[len - 1] == '\n')
		line[--len] = '\0';
	if (len != 0 && line[len - 1] == '\r')
		line[--len] = '\0';
	if (len == 0)
		return 0;	/* an empty line */
	if (memchr(line, '\0', len) != NULL)
		return profconv__fail(PROFCONV_EFORMAT, "line %llu: a NUL "
		    "byte", lineno);
	for (p = line; (p = strstr(p, "->")) != NULL; p++)
		arrow = p;
	if (arrow == NULL)
		return profconv__fail(PROFCONV_EFORMAT, "line %llu: no '->' "
		    "between a name and a colour", lineno);
	if (!parse_rgb(arrow + 2, &c))
		return profconv__fail(PROFCONV_EFORMAT, "line %llu: invalid "
		    "colour '%.40s' (expected rgb(R,G,B), each 0 to 255)",
		    lineno, arrow + 2);
	return put(m, line, (size_t)(arrow - line), &c, false);
}

int
profconv_palette_map_read(struct profconv_palette_map *map, FILE *fp)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long long lineno = 0;
	int rc = 0;

	if (map == NULL || fp == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no map or no file");
	while (rc == 0 && (len = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		rc = read_line(map, line, (size_t)len, lineno);
	}
	if (rc == 0 && ferror(fp))
		rc = profconv__fail(PROFCONV_EIO, "read error: %s",
		    strerror(errno));
	else if (rc == 0 && !feof(fp))
		rc = profconv__nomem();
	free(line);
	return rc;
}

static int
by_name(const void *a, const void *b, void *arg)
{
	const struct pc_keymap *k = arg;
	const struct pc_keyentry *x = &k->entries[*(const uint32_t *)a];
	const struct pc_keyentry *y = &k->entries[*(const uint32_t *)b];
	int c = memcmp(k->blob + x->off, k->blob + y->off,
	    x->len < y->len ? x->len : y->len);

	return c != 0 ? c : PC_CMP(x->len, y->len);
}

int
profconv_palette_map_write(const struct profconv_palette_map *map, FILE *fp)
{
	const struct pc_keymap *k;
	uint32_t *order;
	size_t i;

	if (map == NULL || fp == NULL)
		return profconv__fail(PROFCONV_EINVAL, "no map or no file");
	k = &map->names;
	order = malloc((k->n + 1) * sizeof(*order));
	if (order == NULL)
		return profconv__nomem();
	for (i = 0; i < k->n; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, k->n, sizeof(*order), by_name, (void *)k);
	for (i = 0; i < k->n; i++) {
		const struct pc_keyentry *e = &k->entries[order[i]];
		const struct pc_rgb *c = &map->colors[e->value];

		fwrite(k->blob + e->off, 1, e->len, fp);
		fprintf(fp, "->rgb(%d,%d,%d)\n", c->r, c->g, c->b);
	}
	free(order);
	if (fflush(fp) != 0 || ferror(fp))
		return profconv__write_error();
	return 0;
}
