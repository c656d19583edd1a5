// SPDX-License-Identifier: MIT
// explore-rows.js PAGE [BY [FOCUS [TYPE]]] - run a report page's own script
// in node, on the page's own data, without a browser, and print the
// Explore tab's top table, a row per line: "flat<TAB>cum<TAB>name".
//
// The page's script (the <script> after the "live-data" element) runs
// on a small stand-in for the DOM: elements by id, made with the ids,
// attributes and values the page's HTML gives them; what the script
// draws (rows of "live-top") is read back from those elements.  BY
// ("function", "line", "file"), FOCUS (a regex) and TYPE (an index of
// the type selector) are set as a person sets them: the control's value,
// then its "change" event.
"use strict";
const fs = require("fs");

const html = fs.readFileSync(process.argv[2], "utf8");
const by = process.argv[3] || "function";
const focus = process.argv[4] || "";
const type = process.argv[5];

class El {
	constructor(tag, attrs) {
		this.tagName = tag.toUpperCase();
		this.attrs = Object.assign({}, attrs || {});
		this.children = [];
		this.dataset = {};
		this.style = {};
		this.listeners = {};
		this.parentNode = null;
		this.className = "";
		this.hidden = false;
		this.value = this.attrs.value || "";
		this._text = "";
		this.clientWidth = 1200;
		this.classList = { add() {}, remove() {}, toggle() {},
			contains() { return false; } };
		for (const k of Object.keys(this.attrs))
			if (k.startsWith("data-"))
				this.dataset[k.slice(5).replace(/-(.)/g,
				    (m, c) => c.toUpperCase())] = this.attrs[k];
	}
	get firstChild() { return this.children[0] || null; }
	get textContent() {
		return this._text + this.children.map((c) => c.textContent).join("");
	}
	set textContent(v) { this._text = String(v); this.children = []; }
	appendChild(c) { this.children.push(c); c.parentNode = this; return c; }
	insertBefore(c) { return this.appendChild(c); }
	removeChild(c) {
		this.children = this.children.filter((x) => x !== c);
		return c;
	}
	remove() { if (this.parentNode) this.parentNode.removeChild(this); }
	setAttribute(k, v) { this.attrs[k] = String(v); }
	getAttribute(k) { return k in this.attrs ? this.attrs[k] : null; }
	removeAttribute(k) { delete this.attrs[k]; }
	addEventListener(t, f) { (this.listeners[t] = this.listeners[t] || []).push(f); }
	dispatch(t) {
		for (const f of this.listeners[t] || [])
			f.call(this, { type: t, target: this, preventDefault() {} });
	}
	querySelectorAll() { return []; }
	closest() { return null; }
	getBoundingClientRect() { return { left: 0, top: 0, width: 1200, height: 16 }; }
	getBBox() { return { x: 0, y: 0, width: 0, height: 0 }; }
	getComputedTextLength() { return 0; }
}

// The page's elements with ids, their attributes as written.
const byId = new Map();
const attrRe = /([a-zA-Z-]+)(?:="([^"]*)")?/g;
for (const m of html.matchAll(/<([a-zA-Z]+)((?:\s+[a-zA-Z-]+(?:="[^"]*")?)*)\s*>/g)) {
	const attrs = {};
	for (const a of m[2].matchAll(attrRe))
		attrs[a[1]] = a[2] === undefined ? "" : a[2].replace(/&quot;/g, '"')
		    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
	if (attrs.id !== undefined && !byId.has(attrs.id))
		byId.set(attrs.id, new El(m[1], attrs));
}
// What the script reads of them: the data, the table's parts, the
// type selector's label.
const dataM = html.match(/<script[^>]*id="live-data"[^>]*>([\s\S]*?)<\/script>/);
if (dataM === null)
	throw new Error("no live-data in the page");
byId.get("live-data")._text = dataM[1];
const top = byId.get("live-top");
top.tBodies = [new El("tbody")];
top.tHead = { rows: [{ cells: [0, 1, 2, 3, 4, 5].map(() => new El("th")) }] };
const sel = byId.get("live-type");
const label = new El("label");
label.appendChild(new El("span"));
sel.parentNode = label;
const byEl = byId.get("live-by");
if (byEl !== undefined)
	byEl.value = "function";

global.document = {
	getElementById: (id) => byId.get(id) || null,
	createElement: (t) => new El(t),
	createElementNS: (ns, t) => new El(t),
	createTextNode: (s) => { const e = new El("#text"); e._text = s; return e; },
	querySelectorAll: () => [],
	addEventListener() {},
};
global.window = global;
global.addEventListener = () => {};
global.getComputedStyle = () => ({});
global.requestAnimationFrame = (f) => f();

// The page's script: the one that reads live-data.
const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
const live = scripts.filter((s) => s.includes('getElementById("live-data")'));
if (live.length !== 1)
	throw new Error(live.length + " scripts read live-data");
(0, eval)(live[0]);

if (type !== undefined) {
	sel.value = type;
	sel.dispatch("change");
}
if (focus !== "") {
	byId.get("live-focus").value = focus;
	byId.get("live-focus").dispatch("change");
}
if (by !== "function") {
	byEl.value = by;
	byEl.dispatch("change");
}
for (const tr of top.tBodies[0].children) {
	const td = tr.children;
	console.log([td[0].getAttribute("data-v"), td[3].getAttribute("data-v"),
		td[5].textContent].join("\t"));
}
const note = byId.get("live-top-note");
console.error(note.textContent);
