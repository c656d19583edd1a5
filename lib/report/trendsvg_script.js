// SPDX-License-Identifier: MIT
// trendsvg.js - the script proftrend embeds in the SVG of a series
// (lib/report/trendsvg.c): a band's figures on hover, at the snapshot
// under the pointer; search of bands by regular expression, with the
// share of the peak the matches hold.  Bands are the <g class="band">
// children of #bands, bottom first; each carries its values at the drawn
// snapshots (data-v) and its figures (data-first, data-last, ...); its
// <title> is "NAME (FIGURES)".  The drawn snapshots are the <text>
// children of #snapshots (data-i, data-x, data-total).  Legend items
// name their band with data-band.  Nothing is fetched: the picture works
// from a file:// URL.  The search (Ctrl-F, URL parameter s=REGEX) is
// lib/write/svg_search.js's, written before this.
(function () {
	"use strict";
	var doc = document;
	var svg = doc.documentElement;
	var group = doc.getElementById("bands");
	var legend = doc.getElementById("legend");
	var details = doc.getElementById("details");
	var cursor = doc.getElementById("cursor");
	var peak = doc.getElementById("peak");
	var nsnaps = +group.getAttribute("data-snapshots");
	var bytes = group.getAttribute("data-bytes") === "1";
	var bands = [], snaps = [], items = [];
	var ui = window.profconvSvgSearch({
		paint: paint,
		unpaint: unpaint,
		prompt: "Search rows (a regular expression, " +
		    "e.g. ^malloc$ or leak):"
	});

	function human(v, sign) {
		var units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
		var x = v, u = 0, a;
		if (!bytes)
			return (sign && v > 0 ? "+" : "") +
			    String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
		if (v > -1024 && v < 1024)
			return (sign && v > 0 ? "+" : "") + v + " B";
		x /= 1024;
		while ((x >= 1024 || x <= -1024) && u + 1 < units.length) {
			x /= 1024;
			u++;
		}
		a = Math.abs(x);
		return (sign && v > 0 ? "+" : "") +
		    x.toFixed(a < 10 ? 2 : a < 100 ? 1 : 0) + " " + units[u];
	}

	function Band(g) {
		var title = g.querySelector("title").textContent;
		this.g = g;
		this.index = +g.getAttribute("data-band");
		this.name = title.slice(0, title.lastIndexOf(" ("));
		this.figures = title.slice(title.lastIndexOf(" (") + 2, -1);
		this.other = g.classList.contains("other");
		this.verdict = g.getAttribute("data-verdict");
		this.v = g.getAttribute("data-v").split(",").map(Number);
		this.item = null;
		g.trendBand = this;
	}

	function Snap(t) {
		this.i = +t.getAttribute("data-i");
		this.x = +t.getAttribute("data-x");
		this.total = +t.getAttribute("data-total");
		this.name = t.textContent;
	}

	// The drawn snapshot nearest to X (they are in increasing x).
	function nearest(x) {
		var lo = 0, hi = snaps.length - 1, mid;
		while (hi - lo > 1) {
			mid = (lo + hi) >> 1;
			if (snaps[mid].x <= x)
				lo = mid;
			else
				hi = mid;
		}
		return Math.abs(snaps[hi].x - x) < Math.abs(snaps[lo].x - x) ?
		    hi : lo;
	}

	function pointerX(e) {
		var p = svg.createSVGPoint(), m = svg.getScreenCTM();
		p.x = e.clientX;
		p.y = e.clientY;
		return m ? p.matrixTransform(m.inverse()).x : e.clientX;
	}

	function describe(b, k) {
		var s, text = b.name + " \u2014 ";
		if (b.other)
			text += "the rows not drawn on their own";
		else
			text += "verdict " + b.verdict + "; " +
			    b.figures.slice(b.figures.indexOf("; ") + 2);
		if (k !== undefined) {
			s = snaps[k];
			text += "; at snapshot " + (s.i + 1) + " of " + nsnaps +
			    " (" + s.name + "): " + human(b.v[k]) + " of " +
			    human(s.total) + (s.total > 0 ? " (" +
			    (100 * b.v[k] / s.total).toFixed(1) + "%)" : "");
		}
		return text;
	}

	function bandOf(node, parent) {
		while (node && node.parentNode !== parent)
			node = node.parentNode;
		if (!node)
			return null;
		if (node.trendBand)
			return node.trendBand;
		return bands[+node.getAttribute("data-band")] || null;
	}

	// Outline the bands whose name matches RX and fade the others; say
	// how much of the peak snapshot they hold.
	function paint(rx) {
		var n = 0, sum = 0, k = 0, total, pct;
		snaps.forEach(function (s, j) {
			if (s.i === +peak.getAttribute("data-i"))
				k = j;
		});
		total = snaps[k].total;
		bands.forEach(function (b) {
			var hit = rx.test(b.name);
			[b.g, b.item].forEach(function (el) {
				if (!el)
					return;
				el.classList.toggle("match", hit);
				el.classList.toggle("dim", !hit);
			});
			if (hit) {
				n++;
				sum += b.v[k];
			}
		});
		pct = total > 0 ? 100 * sum / total : 0;
		return "Matched: " + n + " band" + (n === 1 ? "" : "s") + ", " +
		    (pct === 100 ? "100" : pct.toFixed(1)) + "% of the peak (" +
		    human(sum) + ")";
	}

	function unpaint() {
		bands.forEach(function (b) {
			[b.g, b.item].forEach(function (el) {
				if (el) {
					el.classList.remove("match");
					el.classList.remove("dim");
				}
			});
		});
	}

	Array.prototype.forEach.call(group.children, function (g) {
		bands.push(new Band(g));
	});
	Array.prototype.forEach.call(
	    doc.getElementById("snapshots").children, function (t) {
		snaps.push(new Snap(t));
	});
	Array.prototype.forEach.call(legend.children, function (g) {
		var b = bands[+g.getAttribute("data-band")];
		if (b)
			b.item = g;
		items.push(g);
	});

	group.addEventListener("mousemove", function (e) {
		var b = bandOf(e.target, group), k;
		if (!b || !snaps.length)
			return;
		k = nearest(pointerX(e));
		details.textContent = describe(b, k);
		cursor.setAttribute("x1", snaps[k].x);
		cursor.setAttribute("x2", snaps[k].x);
		cursor.classList.remove("hide");
	});
	group.addEventListener("mouseout", function () {
		details.textContent = " ";
		cursor.classList.add("hide");
	});
	legend.addEventListener("mouseover", function (e) {
		var b = bandOf(e.target, legend);
		if (b)
			details.textContent = describe(b);
	});
	legend.addEventListener("mouseout", function () {
		details.textContent = " ";
	});
	ui.start();

	// For scripts that drive the picture (tests, embedding pages).
	window.proftrend = {
		search: ui.search,
		resetSearch: ui.resetSearch,
		bands: bands.length,
		snapshots: snaps.length
	};
})();
