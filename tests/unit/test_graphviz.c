/* SPDX-License-Identifier: MIT */
/*
 * test_graphviz.c - DOT laid out and drawn by Graphviz's library
 * (lib/write/graphviz.c): an SVG with the pan and zoom script before its
 * end and the heaviest node marked, PNG and PDF by their signatures, and
 * Graphviz's refusals caught as errors.  Built without libgvc, every
 * picture is refused (dot.c's stand-in).
 */

#include "config.h"

#include <stdlib.h>

#include "write/write.h"
#include "view_helpers.h"

static const char graph[] = "digraph \"g\" {\nN1 [label=\"a\"]\n"
    "N2 [label=\"b\"]\nN1 -> N2\n}\n";

static char *
render(const char *text, int format, const char *heaviest, size_t *len,
    int *rc)
{
	char *out = NULL;
	FILE *fp = open_memstream(&out, len);

	cr_assert(fp != NULL);
	*rc = profconv__graphviz_render(text, strlen(text), format, heaviest,
	    fp);
	fclose(fp);
	return out;
}

#ifdef HAVE_GVC
static void
svg_with_script_and_heaviest(void)
{
	size_t len;
	int rc;
	char *out = render(graph, PROFCONV_GRAPH_SVG, "N2", &len, &rc);
	const char *script, *end;

	cr_assert(eq(int, rc, 0), "%s", ERRMSG);
	cr_expect(eq(int, profconv__graphviz_check(), 0));
	cr_expect(not(zero(ptr, strstr(out, "<svg"))));
	script = strstr(out, "<script type=\"text/ecmascript\"><![CDATA[\n");
	end = strstr(out, "</svg>");
	cr_assert(script != NULL && end != NULL);
	cr_expect(script < end);
	cr_expect(eq(str, (char *)end, "</svg>\n"));
	/* The node the page opens on, found by its class. */
	cr_expect(not(zero(ptr, strstr(out, "class=\"node heaviest\""))), "%s",
	    out);
	free(out);
	out = render(graph, PROFCONV_GRAPH_SVG, NULL, &len, &rc);
	cr_expect(zero(ptr, strstr(out, "class=\"node heaviest\"")));
	free(out);
}

static void
png_and_pdf_signatures(void)
{
	size_t len;
	int rc;
	char *out = render(graph, PROFCONV_GRAPH_PNG, NULL, &len, &rc);

	cr_assert(eq(int, rc, 0), "%s", ERRMSG);
	cr_assert(len > 8);
	cr_expect(eq(int, memcmp(out, "\x89PNG\r\n\x1a\n", 8), 0));
	free(out);
	out = render(graph, PROFCONV_GRAPH_PDF, NULL, &len, &rc);
	cr_assert(eq(int, rc, 0), "%s", ERRMSG);
	cr_assert(len > 5);
	cr_expect(eq(int, memcmp(out, "%PDF-", 5), 0));
	free(out);
}

/* SVG with the script and the heaviest node, PNG and PDF by signature. */
Test(graphviz, renders_each_picture_format)
{
	svg_with_script_and_heaviest();
	png_and_pdf_signatures();
}

Test(graphviz, refusals)
{
	size_t len;
	int rc;
	char *out = render("digraph { a -> ", PROFCONV_GRAPH_SVG, NULL, &len,
	    &rc);

	cr_expect(eq(int, rc, PROFCONV_EFORMAT));
	cr_expect(eq(int, strncmp(ERRMSG, "Graphviz cannot read the graph",
	    30), 0), "%s", ERRMSG);
	cr_expect(eq(sz, len, 0));
	free(out);
	out = render(graph, PROFCONV_GRAPH_DOT, NULL, &len, &rc);
	cr_expect(eq(int, rc, PROFCONV_EINVAL));
	free(out);
	out = render(graph, PROFCONV_GRAPH_CALLGRIND, NULL, &len, &rc);
	cr_expect(eq(int, rc, PROFCONV_EINVAL));
	cr_expect(eq(str, ERRMSG, "no such picture format"));
	free(out);
}
#else
Test(graphviz, pictures_refused_without_libgvc)
{
	size_t len;
	int rc;
	char *out = render(graph, PROFCONV_GRAPH_SVG, NULL, &len, &rc);

	cr_expect(eq(int, rc, PROFCONV_EUNSUPPORTED));
	cr_expect(eq(int, profconv__graphviz_check(), PROFCONV_EUNSUPPORTED));
	cr_expect(eq(sz, len, 0));
	free(out);
}
#endif
