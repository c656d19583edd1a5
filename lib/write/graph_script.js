// graph_script.js - pan and zoom for profgraph's SVG call graphs, embedded
// in every such SVG (write/graphviz.c), so that the file alone works from
// file:// with no other resource.  Graphviz draws the graph in
// <g id="graph0">; this wraps it in <g id="viewport"> and moves that.
//
// The page opens at the size Graphviz laid the graph out (1:1, a point a
// point: the smallest label 8 pt, about 11 px), on the heaviest node, the
// one with the largest flat value, which pprof draws largest (write/dot.c
// marks it with the class "heaviest"): a fitted graph of 80 nodes is
// unreadable.  A graph that fits the window at that size is shown whole.
// Then: drag to pan, wheel (or + and -) to zoom around the pointer; the
// whole graph fitted is one key (f or 0), one double click or one click
// on "fit" away, and 1:1 on the heaviest node one key (1) or one click
// on "1:1".  Without script (an <img>) the SVG is Graphviz's own.
(function () {
	"use strict";
	var svgns = "http://www.w3.org/2000/svg";
	var svg = document.documentElement;
	var graph = document.getElementById("graph0");
	if (!graph || !svg.createSVGPoint)
		return;
	var vb = svg.viewBox && svg.viewBox.baseVal;
	var gw = vb && vb.width > 0 ? vb.width : graph.getBBox().width;
	var gh = vb && vb.height > 0 ? vb.height : graph.getBBox().height;
	// CSS pixels per point: Graphviz's width and height are in points.
	var NATURAL = 96 / 72;
	var viewport = document.createElementNS(svgns, "g");
	viewport.setAttribute("id", "viewport");
	graph.parentNode.insertBefore(viewport, graph);
	viewport.appendChild(graph);
	// One user unit a pixel: the script alone scales.
	svg.removeAttribute("viewBox");
	svg.setAttribute("width", "100%");
	svg.setAttribute("height", "100%");
	svg.style.cursor = "grab";

	var scale = 1, tx = 0, ty = 0, drag = null;

	function apply() {
		viewport.setAttribute("transform", "translate(" + tx + " " + ty +
		    ") scale(" + scale + ")");
	}

	function winW() { return window.innerWidth || svg.clientWidth; }
	function winH() { return window.innerHeight || svg.clientHeight; }

	// A point of the window in the root's coordinates.
	function point(x, y) {
		var p = svg.createSVGPoint();
		p.x = x;
		p.y = y;
		return p.matrixTransform(svg.getScreenCTM().inverse());
	}

	function fitScale() {
		return Math.min(winW() / gw, winH() / gh);
	}

	// The whole graph, centred.
	function fit() {
		scale = fitScale();
		tx = (winW() - gw * scale) / 2;
		ty = (winH() - gh * scale) / 2;
		apply();
	}

	// The box of EL in the graph's units (the viewport's own).
	function unitBox(el) {
		var saved = viewport.getAttribute("transform");
		var o = svg.getBoundingClientRect(), b;
		viewport.setAttribute("transform", "translate(0 0) scale(1)");
		b = el.getBoundingClientRect();
		viewport.setAttribute("transform", saved || "");
		return { x: b.left - o.left, y: b.top - o.top, w: b.width,
		    h: b.height };
	}

	// On one axis: the offset that puts C (units) at the middle of a
	// window of WIN pixels, kept so that a graph SIZE units long leaves
	// no empty band at an edge it could cover.
	function centre(c, size, win) {
		var t = win / 2 - c * scale;
		if (size * scale <= win)
			return (win - size * scale) / 2;
		return Math.min(0, Math.max(win - size * scale, t));
	}

	// 1:1 on the heaviest node (or the graph's middle).
	function actual() {
		var h = graph.querySelector("g.node.heaviest"), b;
		scale = NATURAL;
		b = h ? unitBox(h) : { x: 0, y: 0, w: gw, h: gh };
		tx = centre(b.x + b.w / 2, gw, winW());
		ty = centre(b.y + b.h / 2, gh, winH());
		apply();
	}

	function zoom(factor, x, y) {
		var p = point(x, y);
		var lo = Math.min(fitScale(), NATURAL) / 2;
		var s = Math.min(Math.max(scale * factor, lo), NATURAL * 20);
		factor = s / scale;
		tx = p.x - (p.x - tx) * factor;
		ty = p.y - (p.y - ty) * factor;
		scale = s;
		apply();
	}

	// Two buttons in the top left corner, outside the viewport.
	function buttons() {
		var g = document.createElementNS(svgns, "g"), x = 8;
		g.setAttribute("id", "controls");
		[["fit", "show the whole graph (f, 0, double click)", fit],
		    ["1:1", "actual size on the heaviest node (1)", actual]]
		    .forEach(function (b) {
			var r = document.createElementNS(svgns, "rect");
			var t = document.createElementNS(svgns, "text");
			var title = document.createElementNS(svgns, "title");
			var one = document.createElementNS(svgns, "g");
			one.setAttribute("id", b[0] === "fit" ? "fit" : "actual");
			one.setAttribute("cursor", "pointer");
			r.setAttribute("x", x);
			r.setAttribute("y", 8);
			r.setAttribute("width", 36);
			r.setAttribute("height", 22);
			r.setAttribute("rx", 4);
			r.setAttribute("fill", "#ffffff");
			r.setAttribute("stroke", "#888888");
			t.setAttribute("x", x + 18);
			t.setAttribute("y", 24);
			t.setAttribute("text-anchor", "middle");
			t.setAttribute("font-family", "sans-serif");
			t.setAttribute("font-size", "13");
			t.textContent = b[0];
			title.textContent = b[1];
			one.appendChild(title);
			one.appendChild(r);
			one.appendChild(t);
			one.addEventListener("mousedown", function (e) {
				e.stopPropagation();
			});
			one.addEventListener("dblclick", function (e) {
				e.stopPropagation();
			});
			one.addEventListener("click", function (e) {
				e.stopPropagation();
				b[2]();
			});
			g.appendChild(one);
			x += 44;
		});
		svg.appendChild(g);
	}

	svg.addEventListener("wheel", function (e) {
		e.preventDefault();
		var dy = e.deltaMode === 1 ? e.deltaY * 40 : e.deltaY;
		zoom(Math.pow(1.2, -dy / 100), e.clientX, e.clientY);
	}, { passive: false });
	svg.addEventListener("mousedown", function (e) {
		if (e.button !== 0)
			return;
		var p = point(e.clientX, e.clientY);
		drag = { x: p.x, y: p.y, tx: tx, ty: ty };
		svg.style.cursor = "grabbing";
		e.preventDefault();
	});
	window.addEventListener("mousemove", function (e) {
		if (!drag)
			return;
		var p = point(e.clientX, e.clientY);
		tx = drag.tx + p.x - drag.x;
		ty = drag.ty + p.y - drag.y;
		apply();
	});
	window.addEventListener("mouseup", function () {
		drag = null;
		svg.style.cursor = "grab";
	});
	svg.addEventListener("dblclick", fit);
	window.addEventListener("keydown", function (e) {
		var w = winW() / 2, h = winH() / 2;
		if (e.key === "+" || e.key === "=")
			zoom(1.2, w, h);
		else if (e.key === "-")
			zoom(1 / 1.2, w, h);
		else if (e.key === "0" || e.key === "f")
			fit();
		else if (e.key === "1")
			actual();
	});
	buttons();
	actual();
	// For scripts that drive the picture (tests, embedding pages).
	window.callgraph = { fit: fit, actual: actual,
	    scale: function () { return scale; } };
})();
