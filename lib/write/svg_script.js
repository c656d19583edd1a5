// SPDX-License-Identifier: MIT
// flamegraph.js - the script profflame embeds in every SVG it writes
// (lib/write/svg_emit.c): hover details, click to zoom, search with
// highlight and matched share (the search itself is svg_search.js's,
// written before this).  Frames are the <g> children of #frames; each carries its
// start, width (in values) and depth as data-s, data-v, data-d, so zooming
// is exact arithmetic, not a rescaling of rounded pixels.  Nothing is
// fetched: the picture works from a file:// URL.  URL parameters (kept up
// to date with history.replaceState): s=REGEX searches, x=START&y=DEPTH
// zooms on the frame that starts there.  The picture follows the window's
// width: the C writer lays it out 1,200 px wide (what an <img> or a viewer
// without script shows), and this lays the frames out again, labels cut
// anew, whenever the window's width changes (unless --width was given:
// data-fixed).  Labels show pprof's short
// names (data-n, when it differs), titles and search the full ones.
(function () {
	"use strict";
	var doc = document;
	var svg = doc.documentElement;
	var group = doc.getElementById("frames");
	var W = +svg.getAttribute("width");
	var H = +svg.getAttribute("height");
	var MIN_WIDTH = 300;
	var xpad = +group.getAttribute("data-xpad");
	var charw = +group.getAttribute("data-charw");
	var total = +group.getAttribute("data-total");
	var unit = group.getAttribute("data-unit");
	var nametype = group.getAttribute("data-nametype");
	var factor = +group.getAttribute("data-factor");
	var details = doc.getElementById("details");
	var unzoomBtn = doc.getElementById("unzoom");
	var diff = group.hasAttribute("data-diff");
	var frames = [];
	var zoomed = null;
	var ui = window.profconvSvgSearch({
		paint: paint,
		unpaint: unpaint,
		prompt: "Search for (a regular expression, " +
		    "e.g. ^malloc$ or alloc):",
		params: zoomParams,
		escape: unzoom
	});

	// A title is "name (value unit, share%)", or in a differential
	// graph pprof's "change (percent) | before -> after | name".
	function nameOf(title) {
		var i;
		if (!diff)
			return title.slice(0, title.lastIndexOf(" ("));
		i = title.indexOf(" | ");
		i = i < 0 ? -1 : title.indexOf(" | ", i + 3);
		return i < 0 ? title : title.slice(i + 3);
	}

	function Frame(g) {
		var title = g.querySelector("title").textContent;
		this.g = g;
		this.title = title;
		this.name = nameOf(title);
		this.short = g.getAttribute("data-n") || this.name;
		this.rect = g.querySelector("rect");
		this.text = g.querySelector("text");
		this.fill = this.rect.getAttribute("fill");
		this.s = +g.getAttribute("data-s");
		this.v = +g.getAttribute("data-v");
		this.d = +g.getAttribute("data-d");
		g.flameFrame = this;
	}

	function grouped(n) {
		return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
	}

	// The label for a frame WIDTH pixels wide: as much of the name as
	// fits, ".." where it is cut (the same rule as the C writer).
	function label(name, width) {
		var chars = Math.floor(width / charw);
		var cps = Array.from(name);
		if (chars < 3)
			return "";
		if (cps.length <= chars)
			return name;
		return cps.slice(0, chars - 2).join("") + "..";
	}

	// Draw F as if the range [from, from + span) filled the width.
	function place(f, from, span) {
		var k = (W - 2 * xpad) / span;
		var x1 = xpad + (f.s - from) * k, x2 = xpad + (f.s + f.v - from) * k;
		var r1 = Math.round(x1 * 10) / 10, r2 = Math.round(x2 * 10) / 10;
		f.rect.setAttribute("x", r1.toFixed(1));
		f.rect.setAttribute("width", (r2 - r1).toFixed(1));
		f.text.setAttribute("x", (x1 + 3).toFixed(2));
		f.text.textContent = label(f.short, x2 - x1);
		f.g.classList.remove("hide");
	}

	// The zoomed frame in the URL's parameters P: x=START&y=DEPTH.
	function zoomParams(p) {
		if (zoomed) {
			p.set("x", zoomed.s);
			p.set("y", zoomed.d);
		} else {
			p.delete("x");
			p.delete("y");
		}
	}

	function unzoom() {
		zoomed = null;
		frames.forEach(function (f) {
			f.g.classList.remove("parent");
			place(f, 0, total);
		});
		unzoomBtn.classList.add("hide");
		ui.setParams();
	}

	// Z fills the width; its ancestors stay, stretched and faded; what is
	// outside it is hidden.
	function zoom(z) {
		if (z.d === 0) {
			unzoom();
			return;
		}
		zoomed = z;
		frames.forEach(function (f) {
			if (f.d < z.d && f.s <= z.s && f.s + f.v >= z.s + z.v) {
				f.g.classList.add("parent");
				place(f, f.s, f.v);
			} else if (f.d >= z.d && f.s >= z.s && f.s + f.v <= z.s + z.v) {
				f.g.classList.remove("parent");
				place(f, z.s, z.v);
			} else {
				f.g.classList.remove("parent");
				f.g.classList.add("hide");
			}
		});
		unzoomBtn.classList.remove("hide");
		ui.setParams();
	}

	// Paint the frames whose name matches RX; the share they hold counts
	// each matched frame once, not again inside a matched ancestor.
	function paint(rx) {
		var hits = [], end = -1, sum = 0, pct;
		frames.forEach(function (f) {
			if (rx.test(f.name)) {
				f.rect.setAttribute("fill", "rgb(230,0,230)");
				hits.push(f);
			} else {
				f.rect.setAttribute("fill", f.fill);
			}
		});
		hits.sort(function (a, b) { return a.s - b.s || a.d - b.d; });
		hits.forEach(function (f) {
			if (f.s >= end) {
				sum += f.v;
				end = f.s + f.v;
			}
		});
		pct = total > 0 ? 100 * sum / total : 0;
		return "Matched: " + (pct === 100 ? "100" : pct.toFixed(1)) +
		    "% (" + grouped(Math.round(sum * factor)) + " " + unit + ")";
	}

	function unpaint() {
		frames.forEach(function (f) {
			f.rect.setAttribute("fill", f.fill);
		});
	}

	function frameOf(node) {
		while (node && node.parentNode !== group)
			node = node.parentNode;
		return node ? node.flameFrame : null;
	}

	Array.prototype.forEach.call(group.children, function (g) {
		frames.push(new Frame(g));
	});
	group.addEventListener("click", function (e) {
		var f = frameOf(e.target);
		if (f)
			zoom(f);
	});
	group.addEventListener("mouseover", function (e) {
		var f = frameOf(e.target);
		if (f)
			details.textContent = nametype + " " + f.title;
	});
	group.addEventListener("mouseout", function () {
		details.textContent = " ";
	});
	unzoomBtn.addEventListener("click", unzoom);

	// State from the URL: svg?s=malloc, svg?x=START&y=DEPTH.
	(function () {
		var p = new URLSearchParams(location.search);
		var x = p.get("x"), y = p.get("y");
		if (x !== null && y !== null) {
			frames.forEach(function (f) {
				if (f.s === +x && f.d === +y)
					zoom(f);
			});
		}
		ui.start();
	})();

	// The width of the window (its scroll bar aside), the picture laid
	// out again to it: the frames, and the texts placed from the right
	// edge or the middle.  Not when --width fixed the width.
	function fitWidth() {
		var el = doc.documentElement;
		var w = Math.floor(el.clientWidth || window.innerWidth || W);
		var at = function (id, x) {
			var t = doc.getElementById(id);
			if (t)
				t.setAttribute("x", x.toFixed(1));
		};
		var bg = svg.querySelector("rect[fill='url(#background)']");
		w = Math.max(w, MIN_WIDTH);
		if (w === W || group.hasAttribute("data-fixed"))
			return;
		W = w;
		svg.setAttribute("width", W);
		svg.setAttribute("viewBox", "0 0 " + W + " " + H);
		if (bg)
			bg.setAttribute("width", W);
		at("title", W / 2);
		at("subtitle", W / 2);
		at("empty", W / 2);
		at("search", W - xpad - 100);
		at("ignorecase", W - xpad - 16);
		at("matched", W - xpad);
		if (zoomed)
			zoom(zoomed);
		else
			frames.forEach(function (f) {
				place(f, 0, total);
			});
	}
	fitWidth();
	window.addEventListener("resize", fitWidth);

	// A graph taller than the window opens on its root, where the
	// weight is, with the details line below it: not on the empty top
	// of its deepest, narrowest tower.  An icicle graph has its root at
	// the top already.
	function showRoot() {
		var root = frames.filter(function (f) { return f.d === 0; })[0];
		var H = +svg.getAttribute("height");
		if (root && +root.rect.getAttribute("y") +
		    +root.rect.getAttribute("height") > window.innerHeight)
			window.scrollTo(0, H - window.innerHeight);
	}
	showRoot();
	window.addEventListener("load", showRoot);

	// For scripts that drive the picture (tests, embedding pages).
	window.flamegraph = {
		zoom: function (start, depth) {
			frames.forEach(function (f) {
				if (f.s === start && f.d === depth)
					zoom(f);
			});
		},
		unzoom: unzoom,
		search: ui.search,
		resetSearch: ui.resetSearch
	};
})();
