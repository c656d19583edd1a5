// SPDX-License-Identifier: MIT
// report_script.js - the report page's live views (the Explore tab):
// the sample type, focus and ignore, the top table by function, line or
// file, and the flame graph, all drawn here from the call tree in
// the element "live-data" (report_data.c).  Names from the profile only
// ever reach the page as text (textContent, SVG text nodes), never as
// markup.
(function () {
	"use strict";
	var el = document.getElementById("live-data");
	var box = document.getElementById("live");
	if (el === null || box === null)
		return;
	var D = JSON.parse(el.textContent);
	var S = D.strings, n = D.parent.length, nt = D.types.length;
	var SVGNS = "http://www.w3.org/2000/svg";
	var ROW = 16, MINW = 0.5;

	function $(id) { return document.getElementById(id); }
	function make(tag, attrs, text) {
		var e = document.createElement(tag), k;
		for (k in attrs)
			e.setAttribute(k, attrs[k]);
		if (text !== undefined)
			e.textContent = text;
		return e;
	}
	function svg(tag, attrs) {
		var e = document.createElementNS(SVGNS, tag), k;
		for (k in attrs)
			e.setAttribute(k, attrs[k]);
		return e;
	}
	function fmt(v) {
		return Math.round(v).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
	}
	function pct(v, t) {
		return t !== 0 ? (100 * v / t).toFixed(2) + "%" : "-";
	}

	// --- the data -----------------------------------------------------------
	// self: each node's own value; pruned: the dropped subtree below
	// it, in its cum and width but in no one's flat.
	function dense(sp) {
		var out = [], t, i;
		for (t = 0; t < nt; t++) {
			var a = new Float64Array(n), s = sp[t];
			for (i = 0; i < s.i.length; i++)
				a[s.i[i]] = s.v[i];
			out.push(a);
		}
		return out;
	}
	var self = dense(D.self), pruned = dense(D.pruned), t, i;
	var parent = D.parent;
	function fname(i) { return i === 0 ? "[no stack]" : S[D.func[i]]; }
	var depth = new Int32Array(n);
	for (i = 1; i < n; i++)
		depth[i] = depth[parent[i]] + 1;

	// The flame graph's tree: one node per function on each path, as
	// a flame graph by function merges the lines of a function.
	var fnOf = new Int32Array(n), fpar = [-1], fnm = [0], fkids = [[]];
	var fidx = [new Map()];
	for (i = 1; i < n; i++) {
		var p = fnOf[parent[i]], nm = D.func[i], c = fidx[p].get(nm);
		if (c === undefined) {
			c = fpar.length;
			fpar.push(p);
			fnm.push(nm);
			fkids.push([]);
			fidx.push(new Map());
			fidx[p].set(nm, c);
			fkids[p].push(c);
		}
		fnOf[i] = c;
	}
	var fn = fpar.length, fdepth = new Int32Array(fn), maxdepth = 0;
	for (i = 1; i < fn; i++) {
		fdepth[i] = fdepth[fpar[i]] + 1;
		if (fdepth[i] > maxdepth)
			maxdepth = fdepth[i];
	}
	fkids.forEach(function (k) {
		k.sort(function (x, y) {
			x = S[fnm[x]]; y = S[fnm[y]];
			return x < y ? -1 : x > y ? 1 : 0;
		});
	});

	// --- the page's controls ------------------------------------------------
	var st = { type: D["default"], focus: null, ignore: null, by: "function",
	    icicle: false, zoom: 0, search: null, sortCol: 0, sortDesc: true };
	var typeSel = $("live-type");
	D.types.forEach(function (ty, k) {
		var o = make("option", { value: String(k) }, D.series ?
		    (k + 1) + ": " + ty.type : ty.type + "/" + ty.unit);
		typeSel.appendChild(o);
	});
	if (D.series)
		typeSel.parentNode.firstChild.textContent = "Snapshot ";
	typeSel.value = String(st.type);

	// --- what the filters keep ----------------------------------------------
	var kept = new Float64Array(n), cum = new Float64Array(n), total = 0;
	var kpruned = new Float64Array(n), prunedTotal = 0;
	var fval = new Float64Array(fn);
	function regexOf(id) {
		var text = $(id).value;
		if (text === "")
			return null;
		return new RegExp(text);
	}
	function compute() {
		var a = self[st.type], pr = pruned[st.type], m = new Uint8Array(n),
		    cache = new Map();
		var F = st.focus, I = st.ignore;
		function match(i) {
			var k = D.func[i], r = cache.get(k);
			if (r === undefined) {
				var s = S[k];
				r = (F !== null && F.test(s) ? 1 : 0) |
				    (I !== null && I.test(s) ? 2 : 0);
				cache.set(k, r);
			}
			return r;
		}
		total = prunedTotal = 0;
		for (var i = 0; i < n; i++) {
			if (i !== 0)
				m[i] = m[parent[i]] | match(i);
			var keep = (F === null || (m[i] & 1) !== 0) &&
			    (m[i] & 2) === 0;
			kept[i] = keep ? a[i] : 0;
			kpruned[i] = keep ? pr[i] : 0;
			total += kept[i] + kpruned[i];
			prunedTotal += kpruned[i];
		}
		for (i = 0; i < n; i++)
			cum[i] = kept[i] + kpruned[i];
		for (i = n - 1; i > 0; i--)
			cum[parent[i]] += cum[i];
		fval.fill(0);
		for (i = 0; i < n; i++)
			fval[fnOf[i]] += kept[i] + kpruned[i];
		for (i = fn - 1; i > 0; i--)
			fval[fpar[i]] += fval[i];
	}

	// --- the top table ------------------------------------------------------
	function keyOf(i, by) {
		if (i === 0)
			return "[no stack]";
		var f = S[D.file[i]];
		if (by === "file")
			return f !== "" ? f : fname(i);
		if (by === "line")
			return f !== "" ? fname(i) + " " + f + ":" +
			    D.line[i] : fname(i);
		return fname(i);
	}
	var rows = [];
	function tableRows() {
		var by = st.by, keys = new Array(n), flat = new Map(),
		    cm = new Map(), i, k;
		for (i = 0; i < n; i++)
			keys[i] = keyOf(i, by);
		for (i = 0; i < n; i++) {
			if (cum[i] === 0)
				continue;
			k = keys[i];
			if (kept[i] !== 0)
				flat.set(k, (flat.get(k) || 0) + kept[i]);
			if (i === 0) {
				if (kept[0] !== 0)
					cm.set(k, (cm.get(k) || 0) + kept[0]);
				continue;
			}
			// cum once per stack: only where no caller has the key
			var q = parent[i], dup = false;
			for (; q > 0; q = parent[q])
				if (keys[q] === k) { dup = true; break; }
			if (!dup)
				cm.set(k, (cm.get(k) || 0) + cum[i]);
		}
		rows = [];
		cm.forEach(function (c, k) {
			rows.push({ name: k, flat: flat.get(k) || 0, cum: c });
		});
	}
	var cols = ["flat", "flat%", "sum%", "cum", "cum%", "name"];
	function sortRows() {
		var c = st.sortCol, d = st.sortDesc ? -1 : 1;
		rows.sort(function (x, y) {
			var a, b;
			if (c === 5) { a = x.name; b = y.name; }
			else if (c <= 2) { a = x.flat; b = y.flat; }
			else { a = x.cum; b = y.cum; }
			if (a !== b)
				return (a < b ? -1 : 1) * d;
			return x.name < y.name ? -1 : x.name > y.name ? 1 : 0;
		});
	}
	function drawTable() {
		var tb = $("live-top").tBodies[0], sum = 0,
		    top = +$("live-top").dataset.top;
		var ths = $("live-top").tHead.rows[0].cells;
		for (var h = 0; h < ths.length; h++)
			ths[h].className = (h === 5 ? "name " : "") +
			    (h === st.sortCol ? (st.sortDesc ? "desc" : "asc") : "");
		sortRows();
		tb.textContent = "";
		rows.slice(0, top).forEach(function (r) {
			sum += r.flat;
			var tr = make("tr");
			[[r.flat, fmt(r.flat)], [r.flat, pct(r.flat, total)],
			    [sum, pct(sum, total)], [r.cum, fmt(r.cum)],
			    [r.cum, pct(r.cum, total)]].forEach(function (c) {
				tr.appendChild(make("td", { "data-v": String(c[0]) },
				    c[1]));
			});
			tr.appendChild(make("td", { "class": "name" }, r.name));
			tb.appendChild(tr);
		});
		var note = $("live-top-note");
		note.textContent = "Showing the top " +
		    Math.min(top, rows.length) + " of " + rows.length + " by " +
		    st.by + " (click a header to sort).";
		note.dataset.pruned = String(prunedTotal);
		if (prunedTotal !== 0)
			note.textContent += " " + fmt(prunedTotal) + " " +
			    D.types[st.type].unit + " (" + pct(prunedTotal, total) +
			    ") in dropped nodes count in their callers' cum only, " +
			    "in no row's flat.";
	}

	// --- the flame graph -----------------------------------------------------
	function hash3(s) {
		var v = 0, max = 1, w = 1, k, c = Array.from(s).slice(0, 3);
		for (k = 0; k < c.length; k++) {
			var cp = c[k].codePointAt(0);
			v += (cp % (10 + k)) / (9 + k) * w;
			max += w;
			w *= 0.7;
		}
		return 1 - v / max;
	}
	var colours = new Map();
	function colour(name) {
		var c = colours.get(name);
		if (c === undefined) {
			var q = name.indexOf("`", 1);
			var s = q > 0 ? name.slice(q + 1) : name;
			var v1 = hash3(s), v2 = hash3(Array.from(s).reverse().join(""));
			c = "rgb(" + (205 + Math.floor(50 * v2)) + "," +
			    Math.floor(230 * v1) + "," + Math.floor(55 * v2) + ")";
			colours.set(name, c);
		}
		return c;
	}
	function flameName(f) { return f === 0 ? "all" : S[fnm[f]]; }
	function drawFlame() {
		var g = $("live-flame"), W = 1200, z = st.zoom, unit =
		    D.types[st.type].unit, matched = 0;
		if (fval[z] === 0)
			z = st.zoom = 0;
		var H = (maxdepth + 1) * ROW + 4;
		g.setAttribute("width", W);
		g.setAttribute("height", H);
		g.setAttribute("viewBox", "0 0 " + W + " " + H);
		g.textContent = "";
		var scale = fval[z] > 0 ? W / fval[z] : 0;
		function y(d) {
			return st.icicle ? d * ROW : H - (d + 1) * ROW;
		}
		function frame(f, x, w, inMatch) {
			var name = flameName(f), hit = st.search !== null && f !== 0 &&
			    st.search.test(name);
			if (hit && !inMatch)
				matched += fval[f];
			var e = svg("g", { "class": "lf", "data-f": String(f) });
			var r = svg("rect", { x: x.toFixed(2), y: y(fdepth[f]),
			    width: Math.max(w - 0.5, 0.1).toFixed(2),
			    height: ROW - 1, rx: 2,
			    fill: hit ? "rgb(230,0,230)" : f === 0 ?
			    "rgb(240,180,120)" : colour(name) });
			var ti = svg("title");
			ti.textContent = name + " (" + fmt(fval[f]) + " " + unit +
			    ", " + pct(fval[f], total) + ")";
			e.appendChild(ti);
			e.appendChild(r);
			if (w > 30) {
				var tx = svg("text", { x: (x + 3).toFixed(2),
				    y: y(fdepth[f]) + ROW - 4 });
				var chars = Math.floor((w - 6) / 7);
				tx.textContent = name.length <= chars ? name :
				    name.slice(0, Math.max(chars - 2, 0)) + "..";
				e.appendChild(tx);
			}
			g.appendChild(e);
			return hit || inMatch;
		}
		// The callers of the zoomed frame, full width.
		var path = [];
		for (var a = z; a > 0; a = fpar[a])
			path.push(a);
		if (z !== 0)
			path.push(0);
		for (var k = path.length - 1; k >= 1; k--)
			frame(path[k], 0, W, true);
		(function walk(f, x, inMatch) {
			var w = fval[f] * scale;
			if (w < MINW)
				return;
			inMatch = frame(f, x, w, inMatch);
			fkids[f].forEach(function (c) {
				if (fval[c] === 0)
					return;
				walk(c, x, inMatch);
				x += fval[c] * scale;
			});
		})(z, 0, false);
		var m = $("live-matched");
		if (st.search !== null) {
			m.textContent = "Matched: " + pct(matched, total);
			m.dataset.v = String(matched);
		} else {
			m.textContent = "";
			delete m.dataset.v;
		}
		g.dataset.root = String(fval[0]);
	}

	// --- redrawing --------------------------------------------------------------
	function statement() {
		var p = $("live-prune"), lines = D.statement[st.type];
		p.textContent = lines.join("; ") + (D.dropped.nodes > 0 ?
		    " (their values count in their callers' cum and width, " +
		    "in no flat; focus and ignore do not see their names)." :
		    ".");
		var tot = $("live-total");
		tot.dataset.v = String(total);
		tot.textContent = "Kept by the filters: " + fmt(total) + " " +
		    D.types[st.type].unit + ", " +
		    pct(total, D.total[st.type]) + " of " + fmt(D.total[st.type]) +
		    " total.";
		var active = st.focus !== null || st.ignore !== null;
		if (active && D.dropped.nodes > 0)
			tot.textContent += " The tree was pruned: samples under " +
			    "its dropped nodes are matched by their kept callers' " +
			    "names only (profconv report --focus or --ignore " +
			    "gives exact figures).";
		document.querySelectorAll("p.live-whole").forEach(function (e) {
			e.hidden = !active;
		});
	}
	// The call graph of the type (the page holds one per type when
	// there are few).
	function graphType() {
		document.querySelectorAll("#graph div.graph-type").forEach(
		    function (g) {
			g.hidden = +g.dataset.type !== st.type;
		});
	}
	function redraw() {
		if (!D.series)
			graphType();
		compute();
		statement();
		tableRows();
		drawTable();
		drawFlame();
	}
	function setFilters() {
		var err = $("live-error");
		try {
			st.focus = regexOf("live-focus");
			st.ignore = regexOf("live-ignore");
			err.textContent = "";
		} catch (e) {
			err.textContent = "Bad regular expression: " + e.message;
			return;
		}
		redraw();
	}
	typeSel.addEventListener("change", function () {
		st.type = +typeSel.value;
		redraw();
	});
	["live-focus", "live-ignore"].forEach(function (id) {
		$(id).addEventListener("change", setFilters);
	});
	$("live-by").addEventListener("change", function () {
		st.by = $("live-by").value;
		tableRows();
		drawTable();
	});
	var ths = $("live-top").tHead.rows[0].cells;
	Array.prototype.forEach.call(ths, function (th, c) {
		th.addEventListener("click", function () {
			if (c === 2)
				return;	// sum% follows the order
			st.sortDesc = st.sortCol === c ? !st.sortDesc : c !== 5;
			st.sortCol = c;
			drawTable();
		});
	});
	$("live-icicle").addEventListener("change", function () {
		st.icicle = $("live-icicle").checked;
		drawFlame();
	});
	$("live-search").addEventListener("change", function () {
		var v = $("live-search").value;
		try {
			st.search = v === "" ? null : new RegExp(v);
			$("live-error").textContent = "";
		} catch (e) {
			$("live-error").textContent = "Bad regular expression: " +
			    e.message;
			return;
		}
		drawFlame();
	});
	$("live-reset").addEventListener("click", function () {
		st.zoom = 0;
		drawFlame();
	});
	var tip = $("live-tip");
	$("live-flame").addEventListener("click", function (ev) {
		var e = ev.target.closest("g.lf");
		if (e === null)
			return;
		st.zoom = +e.dataset.f;
		drawFlame();
	});
	$("live-flame").addEventListener("mousemove", function (ev) {
		var e = ev.target.closest("g.lf");
		if (e === null) {
			tip.hidden = true;
			return;
		}
		tip.textContent = e.firstChild.textContent;
		tip.hidden = false;
		tip.style.left = (ev.offsetX + 12) + "px";
		tip.style.top = (ev.offsetY + 12) + "px";
	});
	$("live-flame").addEventListener("mouseleave", function () {
		tip.hidden = true;
	});
	// The other tabs are drawn once, from the whole profile (they
	// follow this script in the page).
	document.addEventListener("DOMContentLoaded", function () {
		document.querySelectorAll("section.tab").forEach(function (sec) {
			if (sec.id === "live" || sec.id === "summary")
				return;
			var p = make("p", { "class": "note live-whole" }, "This " +
			    "tab shows the profile as the report was written: " +
			    "the focus and ignore of the Explore tab apply there " +
			    "only.");
			sec.insertBefore(p, sec.firstChild);
		});
		statement();
	});
	// A series: a click on a snapshot opens its flame graph; on a
	// verdict's row, the last snapshot's, focused on the row's function
	// (a stack row's leaf).
	function openLive() {
		var b = document.querySelector('nav button[data-tab="live"]');
		if (b !== null)
			b.click();
		$("live-flame").scrollIntoView();
	}
	function rowClicks(id, f) {
		var t = $(id);
		if (t === null || !D.series)
			return;
		Array.prototype.forEach.call(t.tBodies[0].rows, function (r) {
			r.style.cursor = "pointer";
			r.title = "Click: its flame graph in the Explore tab";
		});
		t.tBodies[0].addEventListener("click", function (ev) {
			var r = ev.target.closest("tr");
			if (r !== null)
				f(r);
		});
	}
	function quote(s) {
		return s.replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");
	}
	rowClicks("snapshots", function (r) {
		var k = +r.cells[0].dataset.v - 1;
		if (!(k >= 0 && k < nt))
			return;
		$("live-focus").value = "";
		$("live-ignore").value = "";
		st.focus = st.ignore = null;
		st.type = k;
		st.zoom = 0;
		typeSel.value = String(k);
		redraw();
		openLive();
	});
	rowClicks("verdict-table", function (r) {
		var name = r.cells[r.cells.length - 1].textContent;
		$("live-focus").value = "^" + quote(name.split(" < ")[0]) + "$";
		$("live-ignore").value = "";
		st.type = nt - 1;
		st.zoom = 0;
		typeSel.value = String(st.type);
		setFilters();
		openLive();
	});
	// exposed for tests and for a person at the console
	box.liveState = st;
	redraw();
})();
