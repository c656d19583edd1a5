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
	// A diff: columns 0..NT-1 the base's, NT..2NT-1 the current's.
	var DIFF = D.diff === true, NT = DIFF ? nt / 2 : nt;
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
	// Signed, as pprof writes a change.
	function sfmt(v) { return (v > 0 ? "+" : v < 0 ? "-" : "") + fmt(Math.abs(v)); }
	function spct(v, t) {
		return t !== 0 ? (v > 0 ? "+" : v < 0 ? "-" : "") +
		    (100 * Math.abs(v) / Math.abs(t)).toFixed(2) + "%" : "-";
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
	var self = dense(D.self), pruned = dense(D.pruned), i;
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
	D.types.slice(0, NT).forEach(function (ty, k) {
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
	// The current column (of a diff: the current profile's).
	function col() { return DIFF ? NT + st.type : st.type; }
	// A diff's base: its values as the filters keep them, its flame
	// values, and the widths (max of base and current per path).
	var bkept = null, bcum = null, bfval = null, btotal = 0, fwid = null;
	function compute() {
		if (!DIFF) {
			computeCol(st.type);
			return;
		}
		computeCol(st.type);
		bkept = Float64Array.from(kept);
		var bpr = Float64Array.from(kpruned);
		bcum = Float64Array.from(cum);
		bfval = Float64Array.from(fval);
		btotal = total;
		computeCol(NT + st.type);
		fwid = new Float64Array(fn);
		for (var i = 0; i < n; i++)
			fwid[fnOf[i]] += Math.max(bkept[i], kept[i]) +
			    Math.max(bpr[i], kpruned[i]);
		for (i = fn - 1; i > 0; i--)
			fwid[fpar[i]] += fwid[i];
	}
	function computeCol(c) {
		var a = self[c], pr = pruned[c], m = new Uint8Array(n),
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
	// Flat and cum by key of the values KV whose cum is CV.
	function sums(keys, kv, cv) {
		var flat = new Map(), cm = new Map(), i, k;
		for (i = 0; i < n; i++) {
			if (cv[i] === 0)
				continue;
			k = keys[i];
			if (kv[i] !== 0)
				flat.set(k, (flat.get(k) || 0) + kv[i]);
			if (i === 0) {
				if (kv[0] !== 0)
					cm.set(k, (cm.get(k) || 0) + kv[0]);
				continue;
			}
			// cum once per stack: only where no caller has the key
			var q = parent[i], dup = false;
			for (; q > 0; q = parent[q])
				if (keys[q] === k) { dup = true; break; }
			if (!dup)
				cm.set(k, (cm.get(k) || 0) + cv[i]);
		}
		return [flat, cm];
	}
	function tableRows() {
		var by = st.by, keys = new Array(n), i;
		for (i = 0; i < n; i++)
			keys[i] = keyOf(i, by);
		var c = sums(keys, kept, cum);
		rows = [];
		if (!DIFF) {
			c[1].forEach(function (v, k) {
				rows.push({ name: k, flat: c[0].get(k) || 0, cum: v });
			});
			return;
		}
		// A diff: a row per key in either, flat base and current.
		var b = sums(keys, bkept, bcum), seen = new Set();
		[c[1], b[1]].forEach(function (m) {
			m.forEach(function (v, k) {
				if (seen.has(k))
					return;
				seen.add(k);
				var x = b[0].get(k) || 0, y = c[0].get(k) || 0;
				rows.push({ name: k, base: x, cur: y, delta: y - x });
			});
		});
	}
	var NAMECOL = DIFF ? 4 : 5;
	if (DIFF)
		st.sortCol = 2;	// by change, as profdiff
	function sortRows() {
		var c = st.sortCol, d = st.sortDesc ? -1 : 1;
		rows.sort(function (x, y) {
			var a, b;
			if (c === NAMECOL) { a = x.name; b = y.name; }
			else if (DIFF && c === 0) { a = x.base; b = y.base; }
			else if (DIFF && c === 1) { a = x.cur; b = y.cur; }
			else if (DIFF) { a = x.delta; b = y.delta; }
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
			ths[h].className = (h === NAMECOL ? "name " : "") +
			    (h === st.sortCol ? (st.sortDesc ? "desc" : "asc") : "");
		sortRows();
		tb.textContent = "";
		rows.slice(0, top).forEach(function (r) {
			sum += r.flat;
			var tr = make("tr");
			(DIFF ? [[r.base, fmt(r.base)], [r.cur, fmt(r.cur)],
			    [r.delta, sfmt(r.delta)], [r.delta, spct(r.delta, btotal)]] :
			    [[r.flat, fmt(r.flat)], [r.flat, pct(r.flat, total)],
			    [sum, pct(sum, total)], [r.cum, fmt(r.cum)],
			    [r.cum, pct(r.cum, total)]]).forEach(function (c) {
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
			    D.types[col()].unit + " (" + pct(prunedTotal, total) +
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
	// A diff's frame colour, as profflame --svg --base colours it
	// (lib/view/delta.c, lib/write/svg_diff.c): white when unchanged,
	// purple from lavender to deep for a new path, else red for growth
	// and blue for a fall, deeper with the change, on a scale
	// symmetric about 0 up to the largest change drawn.
	function diffFill(d, b, c, max) {
		var t = Math.abs(d) / max, v;
		if (d === 0)
			return "rgb(255,255,255)";
		if (b === 0)
			return "rgb(" + Math.floor(240 - 70 * t) + "," +
			    Math.floor(215 - 135 * t) + "," +
			    Math.floor(250 - 30 * t) + ")";
		if (d > 0) {
			v = Math.floor(210 * (max - Math.abs(d)) / max);
			return "rgb(255," + v + "," + v + ")";
		}
		v = Math.floor(210 * (max - Math.abs(d)) / max);
		return "rgb(" + v + "," + v + ",255)";
	}
	// The flame graph's width: its box's (the page's width, its scroll
	// bar aside), at least MIN_WIDTH, as profflame's SVG fits itself to
	// its window; the last one while the tab is hidden (its box then
	// takes the picture's width).
	var MIN_WIDTH = 300, flameW = 1200;
	function flameWidth() {
		var b = $("live-flame-box");
		if (b.closest("section.off") === null && b.clientWidth > 0)
			flameW = Math.max(Math.floor(b.clientWidth), MIN_WIDTH);
		return flameW;
	}
	function drawFlame() {
		var g = $("live-flame"), W = flameWidth(), z = st.zoom, unit =
		    D.types[col()].unit, matched = 0;
		var wv = DIFF ? fwid : fval;	// widths
		if (wv[z] === 0)
			z = st.zoom = 0;
		var H = (maxdepth + 1) * ROW + 4;
		g.setAttribute("width", W);
		g.setAttribute("height", H);
		g.setAttribute("viewBox", "0 0 " + W + " " + H);
		g.textContent = "";
		var scale = wv[z] > 0 ? W / wv[z] : 0;
		function y(d) {
			return st.icicle ? d * ROW : H - (d + 1) * ROW;
		}
		// What is drawn: the callers of the zoomed frame full width,
		// then the zoomed frame's tree down to half a pixel.
		var drawn = [], maxd = 1;
		var path = [];
		for (var a = z; a > 0; a = fpar[a])
			path.push(a);
		if (z !== 0)
			path.push(0);
		for (var k = path.length - 1; k >= 1; k--)
			drawn.push([path[k], 0, W, true]);
		(function walk(f, x) {
			var w = wv[f] * scale;
			if (w < MINW)
				return;
			drawn.push([f, x, w, false]);
			fkids[f].forEach(function (c) {
				if (wv[c] === 0)
					return;
				walk(c, x);
				x += wv[c] * scale;
			});
		})(z, 0);
		if (DIFF)
			drawn.forEach(function (d) {
				var v = Math.abs(fval[d[0]] - bfval[d[0]]);
				if (v > maxd)
					maxd = v;
			});
		var inMatch = [];	// depth -> under a match
		function frame(f, x, w, above) {
			var name = flameName(f), hit = st.search !== null && f !== 0 &&
			    st.search.test(name);
			var under = !above && fdepth[f] > 0 &&
			    inMatch[fdepth[f] - 1] === true;
			if (hit && !under && !above)
				matched += fval[f];
			inMatch[fdepth[f]] = !above && (hit || under);
			var fill, tip;
			if (DIFF) {
				var b = bfval[f], c = fval[f], d = c - b;
				fill = diffFill(d, b, c, maxd);
				tip = sfmt(d) + " " + unit + " (" + spct(d, btotal) +
				    ") | " + fmt(b) + " \u2192 " + fmt(c) + " | " + name;
			} else {
				fill = f === 0 ? "rgb(240,180,120)" : colour(name);
				tip = name + " (" + fmt(fval[f]) + " " + unit +
				    ", " + pct(fval[f], total) + ")";
			}
			var e = svg("g", { "class": "lf", "data-f": String(f) });
			if (DIFF) {
				e.setAttribute("data-base", String(bfval[f]));
				e.setAttribute("data-cur", String(fval[f]));
			}
			var r = svg("rect", { x: x.toFixed(2), y: y(fdepth[f]),
			    width: Math.max(w - 0.5, 0.1).toFixed(2),
			    height: ROW - 1, rx: 2,
			    fill: hit ? "rgb(230,0,230)" : fill });
			var ti = svg("title");
			ti.textContent = tip;
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
		}
		drawn.forEach(function (d) { frame(d[0], d[1], d[2], d[3]); });
		var m = $("live-matched");
		if (st.search !== null) {
			m.textContent = "Matched: " + pct(matched, total);
			m.dataset.v = String(matched);
		} else {
			m.textContent = "";
			delete m.dataset.v;
		}
		g.dataset.root = String(wv[0]);
		if (DIFF) {
			g.dataset.maxdelta = String(maxd);
			g.dataset.base = String(bfval[0]);
			g.dataset.cur = String(fval[0]);
		}
	}

	// --- redrawing --------------------------------------------------------------
	function statement() {
		var p = $("live-prune"), lines = D.statement[col()];
		if (DIFF)
			lines = ["Base: " + D.statement[st.type].join("; "),
			    "current: " + lines.join("; ")];
		p.textContent = lines.join("; ") + (D.dropped.nodes > 0 ?
		    " (their values count in their callers' cum and width, " +
		    "in no flat; focus and ignore do not see their names)." :
		    ".");
		var tot = $("live-total");
		tot.dataset.v = String(total);
		tot.textContent = "Kept by the filters: " + fmt(total) + " " +
		    D.types[col()].unit + ", " +
		    pct(total, D.total[col()]) + " of " + fmt(D.total[col()]) +
		    " total" + (DIFF ? " (current); base " + fmt(btotal) + " of " +
		    fmt(D.total[st.type]) + "." : ".");
		if (DIFF)
			tot.dataset.base = String(btotal);
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
			if (c === 2 && !DIFF)
				return;	// sum% follows the order
			st.sortDesc = st.sortCol === c ? !st.sortDesc : c !== NAMECOL;
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
		var name = r.cells[r.cells.length - 1].textContent, zoom = 0;
		// Split per thread, a row is "THREAD: NAME", THREAD one of the
		// tree's first frames: the flame graph zooms to that thread.
		if (D.threads)
			fkids[0].forEach(function (c) {
				var t = flameName(c) + ": ";
				if (zoom === 0 && name.lastIndexOf(t, 0) === 0) {
					zoom = c;
					name = name.slice(t.length);
				}
			});
		$("live-focus").value = "^" + quote(name.split(" < ")[0]) + "$";
		$("live-ignore").value = "";
		st.type = nt - 1;
		st.zoom = zoom;
		typeSel.value = String(st.type);
		setFilters();
		openLive();
	});
	// exposed for tests and for a person at the console
	box.liveState = st;
	redraw();
	// Drawn again to a wider or narrower window, and when its tab is
	// shown (its box gets the page's width then).
	function fitWidth() {
		var w = flameW;
		if (flameWidth() !== w)
			drawFlame();
	}
	if (typeof ResizeObserver === "function")
		new ResizeObserver(fitWidth).observe($("live-flame-box"));
	window.addEventListener("resize", fitWidth);
})();
