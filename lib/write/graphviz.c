/* SPDX-License-Identifier: MIT */
/*
 * graphviz.c - DOT laid out and drawn in-process by Graphviz's library
 * (libgvc, libcgraph): the "dot" layout and its SVG, PNG and PDF
 * renderers, with no "dot" program run.  Built only when configure found
 * libgvc (dot.c says why pictures fail otherwise).  Graphviz's messages
 * are caught, never printed: the last one becomes the error's.  An SVG
 * gets the pan and zoom script (graph_script.js) before its end.
 *
 * One Graphviz context serves every picture of the process, made at the
 * first and never freed (it stays reachable): Graphviz's pango plugin
 * keeps a pointer to the last font name it measured in a static, and
 * that name belongs to the context, so after gvFreeContext() the next
 * context's first label compares against freed memory (seen by valgrind
 * when a report drew a graph per sample type).  Graphviz's error hooks
 * are global too, so one picture is drawn at a time.
 */

#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "base/base.h"
#include "write/write.h"

static const char graph_script[] =
#include "write/graph_script.js.h"
	;

/* The one context, and the lock held while a picture is drawn. */
static GVC_t *shared_gvc;
static pthread_mutex_t gv_lock = PTHREAD_MUTEX_INITIALIZER;

/* Graphviz's last message (it reports through a callback). */
static __thread char gv_message[256];

static int
catch_message(char *msg)
{
	size_t n;

	snprintf(gv_message, sizeof(gv_message), "%s", msg);
	n = strlen(gv_message);
	while (n > 0 && (gv_message[n - 1] == '\n' || gv_message[n - 1] == ' '))
		gv_message[--n] = '\0';
	return 0;
}

int
profconv__graphviz_check(void)
{
	return 0;
}

/* The SVG with the script before its "</svg>". */
static int
put_svg(const char *svg, size_t len, FILE *fp)
{
	static const char end[] = "</svg>";
	size_t at = len;

	while (at >= sizeof(end) - 1 &&
	    memcmp(svg + at - (sizeof(end) - 1), end, sizeof(end) - 1) != 0)
		at--;
	if (at < sizeof(end) - 1)
		return profconv__fail(PROFCONV_EFORMAT, "Graphviz wrote no SVG");
	at -= sizeof(end) - 1;
	fwrite(svg, 1, at, fp);
	fputs("<script type=\"text/ecmascript\"><![CDATA[\n", fp);
	fputs(graph_script, fp);
	fputs("]]></script>\n", fp);
	fwrite(svg + at, 1, len - at, fp);
	return 0;
}

int
profconv__graphviz_render(const char *text, size_t len, int format,
    const char *heaviest, FILE *fp)
{
	static const char *const names[] = { "dot", "svg", "png", "pdf" };
	GVC_t *gvc = NULL;
	Agraph_t *g = NULL;
	Agnode_t *n;
	char *copy = NULL, *out = NULL;
	size_t outlen = 0;
	FILE *mem = NULL;
	int rc = 0;

	if (format < 1 || format > 3)
		return profconv__fail(PROFCONV_EINVAL, "no such picture format");
	copy = malloc(len + 1);
	if (copy == NULL)
		return profconv__nomem();
	memcpy(copy, text, len);
	copy[len] = '\0';
	pthread_mutex_lock(&gv_lock);
	gv_message[0] = '\0';
	agseterr(AGERR);
	agseterrf(catch_message);
	if (shared_gvc == NULL)
		shared_gvc = gvContext();
	gvc = shared_gvc;
	if (gvc == NULL) {
		agseterrf(NULL);
		pthread_mutex_unlock(&gv_lock);
		free(copy);
		return profconv__fail(PROFCONV_EUNSUPPORTED, "Graphviz's "
		    "library did not start%s%s", *gv_message ? ": " : "",
		    gv_message);
	}
	g = agmemread(copy);
	if (g == NULL)
		rc = profconv__fail(PROFCONV_EFORMAT, "Graphviz cannot read "
		    "the graph%s%s", *gv_message ? ": " : "", gv_message);
	/* Bounded layout (base/bounds.h): set on the graph read, never in
	 * the DOT, which stays pprof's. */
	if (rc == 0 && (agattr(g, AGRAPH, "nslimit", PC_GRAPHVIZ_NSLIMIT) ==
	    NULL || agattr(g, AGRAPH, "nslimit1", PC_GRAPHVIZ_NSLIMIT) == NULL))
		rc = profconv__nomem();
	/* The node the page opens on: a class the script finds it by (the
	 * DOT stays pprof's, byte for byte). */
	if (rc == 0 && heaviest != NULL &&
	    (n = agnode(g, (char *)heaviest, 0)) != NULL &&
	    agsafeset(n, "class", "heaviest", "") != 0)
		rc = profconv__nomem();
	if (rc == 0 && agnedges(g) > PC_GRAPHVIZ_CURVED_EDGES &&
	    agattr(g, AGRAPH, "splines", "line") == NULL)
		rc = profconv__nomem();
	if (rc == 0 && gvLayout(gvc, g, "dot") != 0)
		rc = profconv__fail(PROFCONV_EFORMAT, "Graphviz cannot lay out "
		    "the graph%s%s", *gv_message ? ": " : "", gv_message);
	if (rc == 0 && (mem = open_memstream(&out, &outlen)) == NULL)
		rc = profconv__nomem();
	if (rc == 0 && gvRender(gvc, g, names[format], mem) != 0)
		rc = profconv__fail(PROFCONV_EUNSUPPORTED, "Graphviz cannot "
		    "draw %s%s%s", names[format], *gv_message ? ": " : "",
		    gv_message);
	if (mem != NULL && fclose(mem) != 0 && rc == 0)
		rc = profconv__nomem();
	if (g != NULL) {
		gvFreeLayout(gvc, g);
		agclose(g);
	}
	agseterrf(NULL);
	pthread_mutex_unlock(&gv_lock);
	free(copy);
	if (rc == 0 && outlen == 0)
		rc = profconv__fail(PROFCONV_EUNSUPPORTED, "Graphviz drew "
		    "nothing as %s (is its plugin for %s installed?)",
		    names[format], names[format]);
	errno = 0;
	if (rc == 0 && format == 1)
		rc = put_svg(out, outlen, fp);
	else if (rc == 0)
		fwrite(out, 1, outlen, fp);
	free(out);
	return rc;
}
