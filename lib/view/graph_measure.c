/* SPDX-License-Identifier: MIT */
/*
 * graph_measure.c - pprof's measurement arithmetic (internal/measurement): units,
 * scaled labels and percentages, as declared in graph.h.
 */

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "view/delta.h"
#include "view/graph.h"
#include "view/graph_build.h"
#include "view/view.h"
/* --- pprof's measurement ------------------------------------------------------- */

struct unit {
	const char *name;
	const char *aliases[4];
	double factor;
};

struct unit_type {
	const struct unit *units;
	size_t n;
	const struct unit *deflt;
};

static const struct unit memory_units[] = {
	{ "B", { "b", "byte" }, 1 },
	{ "kB", { "kb", "kbyte", "kilobyte" }, 1024.0 },
	{ "MB", { "mb", "mbyte", "megabyte" }, 1048576.0 },
	{ "GB", { "gb", "gbyte", "gigabyte" }, 1073741824.0 },
	{ "TB", { "tb", "tbyte", "terabyte" }, 1099511627776.0 },
	{ "PB", { "pb", "pbyte", "petabyte" }, 1125899906842624.0 },
};
static const struct unit time_units[] = {
	{ "ns", { "ns", "nanosecond" }, 1 },
	{ "us", { "\xce\xbcs", "us", "microsecond" }, 1e3 },
	{ "ms", { "ms", "millisecond" }, 1e6 },
	{ "s", { "s", "sec", "second" }, 1e9 },
	{ "hrs", { "hour", "hr" }, 3600e9 },
};
static const struct unit time_default = { "s", { NULL }, 1e9 };
static const struct unit gcu_units[] = {
	{ "n*GCU", { "nanogcu" }, 1e-9 },
	{ "u*GCU", { "microgcu" }, 1e-6 },
	{ "m*GCU", { "milligcu" }, 1e-3 },
	{ "GCU", { "gcu" }, 1 },
	{ "k*GCU", { "kilogcu" }, 1e3 },
	{ "M*GCU", { "megagcu" }, 1e6 },
	{ "G*GCU", { "gigagcu" }, 1e9 },
	{ "T*GCU", { "teragcu" }, 1e12 },
	{ "P*GCU", { "petagcu" }, 1e15 },
};
static const struct unit gcu_default = { "GCU", { NULL }, 1 };

static const struct unit_type unit_types[] = {
	{ memory_units, PC_ARRAY_LEN(memory_units), &memory_units[0] },
	{ time_units, PC_ARRAY_LEN(time_units), &time_default },
	{ gcu_units, PC_ARRAY_LEN(gcu_units), &gcu_default },
};

/* The unit of UT that UNIT names (lower case, one final 's' dropped
 * from names longer than two bytes), or NULL. */
static const struct unit *
sniff_unit(const struct unit_type *ut, const char *unit)
{
	char low[64];
	size_t n = strlen(unit), i, j;

	if (n >= sizeof(low))
		return NULL;
	for (i = 0; i < n; i++)
		low[i] = (char)(unit[i] >= 'A' && unit[i] <= 'Z' ?
		    unit[i] - 'A' + 'a' : unit[i]);
	if (n > 2 && low[n - 1] == 's')
		n--;
	low[n] = '\0';
	for (i = 0; i < ut->n; i++)
		for (j = 0; j < 4 && ut->units[i].aliases[j] != NULL; j++)
			if (strcmp(ut->units[i].aliases[j], low) == 0)
				return &ut->units[i];
	return NULL;
}

static bool
convert_unit(const struct unit_type *ut, int64_t value, const char *from,
    const char *to, double *out, const char **unit)
{
	const struct unit *f = sniff_unit(ut, from), *t, *best = NULL;
	double v;
	size_t i;

	if (f == NULL)
		return false;
	v = (double)value * f->factor;
	if (strcmp(to, "minimum") == 0 || strcmp(to, "auto") == 0) {
		double fac = 0;

		for (i = 0; i < ut->n; i++)
			if (ut->units[i].factor >= fac &&
			    v / ut->units[i].factor >= 1.0) {
				fac = ut->units[i].factor;
				best = &ut->units[i];
			}
		t = best != NULL ? best : ut->deflt;
	} else {
		t = sniff_unit(ut, to);
		if (t == NULL)
			t = ut->deflt;
	}
	*out = v / t->factor;
	*unit = t->name;
	return true;
}

double
profconv__measure_scale(int64_t v, const char *from, const char *to,
    const char **unit)
{
	static const char *const plain[] = { "count", "sample", "unit",
	    "minimum", "auto" };
	double r;
	size_t i;

	if (v < 0 && v != INT64_MIN)
		return -profconv__measure_scale(-v, from, to, unit);
	for (i = 0; i < PC_ARRAY_LEN(unit_types); i++)
		if (convert_unit(&unit_types[i], v, from, to, &r, unit))
			return r;
	*unit = to;
	for (i = 0; i < PC_ARRAY_LEN(plain); i++)
		if (strcmp(to, plain[i]) == 0)
			*unit = "";
	return (double)v;
}

char *
profconv__measure_unit_lower(char *buf, size_t size, const char *unit)
{
	size_t i;

	for (i = 0; unit[i] != '\0' && i + 1 < size; i++)
		buf[i] = (char)(unit[i] >= 'A' && unit[i] <= 'Z' ?
		    unit[i] - 'A' + 'a' : unit[i]);
	buf[i] = '\0';
	return buf;
}

char *
profconv__measure_label(char *buf, size_t size, int64_t v,
    const char *from, const char *to)
{
	const char *unit;
	double d = profconv__measure_scale(v, from, to, &unit);
	char num[400];
	size_t n;

	snprintf(num, sizeof(num), "%.2f", d);
	n = strlen(num);
	if (n >= 3 && strcmp(num + n - 3, ".00") == 0)
		num[n - 3] = '\0';
	if (strcmp(num, "0") == 0 || strcmp(num, "-0") == 0)
		snprintf(buf, size, "0");
	else
		snprintf(buf, size, "%s%s", num, unit);
	return buf;
}

char *
profconv__measure_percent_padded(char *buf, size_t size, int64_t v,
    int64_t total)
{
	double r = 0;

	if (total != 0)
		r = fabs((double)v / (double)total) * 100;
	if (r >= 99.95 && r <= 100.05)
		snprintf(buf, size, "  100%%");
	else if (r >= 1.0)
		snprintf(buf, size, "%5.2f%%", r);
	else
		snprintf(buf, size, "%5.2g%%", r);
	return buf;
}

char *
profconv__measure_percent(char *buf, size_t size, int64_t v, int64_t total)
{
	char *p = profconv__measure_percent_padded(buf, size, v, total);

	while (*p == ' ')
		p++;
	memmove(buf, p, strlen(p) + 1);
	return buf;
}

static int64_t
abs_value(int64_t v)
{
	return v < 0 ? (int64_t)(0 - (uint64_t)v) : v;
}

static const char *
output_unit(const struct pc_graph *g, const char *unit, bool integral)
{
	const char *min_unit, *max_unit, *out;
	int64_t min = 0, max = g->total, m;
	size_t i;

	if (g->nnodes == 0)
		return "minimum";
	for (i = 0; i < g->nnodes; i++) {
		m = abs_value(g->nodes[i].flat);
		if (m == 0)
			m = abs_value(g->nodes[i].cum);
		if (m > 0 && (min == 0 || m < min))
			min = m;
	}
	if (min == 0)
		min = max;
	profconv__measure_scale(min, unit, "minimum", &min_unit);
	profconv__measure_scale(max, unit, "minimum", &max_unit);
	out = min_unit;
	/* MIN * 100 < MAX <= INT64_MAX: no overflow. */
	if (!integral && strcmp(min_unit, max_unit) != 0 &&
	    (__int128)min * 100 < max)
		profconv__measure_scale(100 * min, unit, "minimum", &out);
	return *out != '\0' ? out : unit;
}

const char *
profconv__graph_output_unit(const struct pc_graph *g, const char *unit)
{
	return output_unit(g, unit, false);
}

const char *
profconv__graph_output_unit_integral(const struct pc_graph *g,
    const char *unit)
{
	return output_unit(g, unit, true);
}
