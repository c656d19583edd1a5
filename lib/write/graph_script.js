// graph_script.js - pan and zoom for profgraph's SVG call graphs, embedded
// in every such SVG (write/graphviz.c), so that the file alone works from
// file:// with no other resource.  Graphviz draws the graph in
// <g id="graph0">; this wraps it in <g id="viewport"> and moves that:
// drag to pan, wheel (or + and -) to zoom around the pointer, double
// click (or 0) to go back.  The picture fills the window.
(function () {
	"use strict";
	var svgns = "http://www.w3.org/2000/svg";
	var svg = document.documentElement;
	var graph = document.getElementById("graph0");
	if (!graph || !svg.createSVGPoint)
		return;
	var viewport = document.createElementNS(svgns, "g");
	viewport.setAttribute("id", "viewport");
	graph.parentNode.insertBefore(viewport, graph);
	viewport.appendChild(graph);
	svg.setAttribute("width", "100%");
	svg.setAttribute("height", "100%");
	svg.style.cursor = "grab";

	var scale = 1, tx = 0, ty = 0, drag = null;

	function apply() {
		viewport.setAttribute("transform", "translate(" + tx + " " + ty +
		    ") scale(" + scale + ")");
	}

	// A point of the window in the coordinates of the root's viewBox.
	function point(x, y) {
		var p = svg.createSVGPoint();
		p.x = x;
		p.y = y;
		return p.matrixTransform(svg.getScreenCTM().inverse());
	}

	function zoom(factor, x, y) {
		var p = point(x, y);
		var s = Math.min(Math.max(scale * factor, 0.05), 100);
		factor = s / scale;
		tx = p.x - (p.x - tx) * factor;
		ty = p.y - (p.y - ty) * factor;
		scale = s;
		apply();
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
	svg.addEventListener("dblclick", function () {
		scale = 1;
		tx = ty = 0;
		apply();
	});
	window.addEventListener("keydown", function (e) {
		var w = window.innerWidth / 2, h = window.innerHeight / 2;
		if (e.key === "+" || e.key === "=")
			zoom(1.2, w, h);
		else if (e.key === "-")
			zoom(1 / 1.2, w, h);
		else if (e.key === "0") {
			scale = 1;
			tx = ty = 0;
			apply();
		}
	});
})();
