// SPDX-License-Identifier: MIT
// report-rows.js PAGE [BY...] - the rows of profconv report's Explore tab
// as the page's own script draws them, without a browser: node runs the
// script of PAGE against a small stand-in for the document, which keeps
// what the script writes (text, attributes, children) and nothing else.
// For each BY (function, line or file; default function) it prints the
// top table's rows, one per line: "flat<TAB>cum<TAB>name", the values
// from the cells' data-v, then "total<TAB>N".  Exit status 1 on any
// error the script throws.
"use strict";
const fs = require("fs");

const html = fs.readFileSync(process.argv[2], "utf8");
const bys = process.argv.length > 3 ? process.argv.slice(3) : ["function"];

// The element holding the page's data, and the Explore tab's script:
// the last <script> of the section with id "live".
function between(s, open, close, from) {
	const a = s.indexOf(open, from);
	if (a < 0)
		throw new Error("no " + open + " in the page");
	const b = s.indexOf(close, a + open.length);
	if (b < 0)
		throw new Error("no " + close + " after " + open);
	return [s.slice(a + open.length, b), b];
}
const dataOpen = html.indexOf('id="live-data"');
if (dataOpen < 0)
	throw new Error("no live-data element in the page");
const data = between(html, ">", "</script>", dataOpen)[0];
const live = html.indexOf('<section class="tab" id="live">');
if (live < 0)
	throw new Error("no Explore section in the page");
const top = +/data-top="(\d+)"/.exec(html.slice(live))[1];
const script = between(html, "<script>\n", "</script>",
    html.indexOf("<script>\n", html.indexOf('id="live-flame-box"')))[0];

// --- a stand-in for the document --------------------------------------------
class Element {
	constructor(tag) {
		this.tagName = tag;
		this.children = [];
		this.attrs = {};
		this.dataset = {};
		this.style = {};
		this.text = "";
		this.value = "";
		this.checked = false;
		this.hidden = false;
		this.className = "";
		this.handlers = {};
		this.clientWidth = 1200;
	}
	get textContent() {
		return this.text + this.children.map((c) => c.textContent).join("");
	}
	set textContent(s) {
		this.text = String(s);
		this.children = [];
	}
	appendChild(c) {
		this.children.push(c);
		c.parentNode = this;
		return c;
	}
	get firstChild() { return this.children[0] || this; }
	setAttribute(k, v) {
		this.attrs[k] = String(v);
		if (k.startsWith("data-"))
			this.dataset[k.slice(5).replace(/-(.)/g,
			    (m, c) => c.toUpperCase())] = String(v);
		if (k === "class")
			this.className = String(v);
	}
	getAttribute(k) { return this.attrs[k] === undefined ? null : this.attrs[k]; }
	addEventListener(ev, fn) { (this.handlers[ev] = this.handlers[ev] || []).push(fn); }
	fire(ev) { (this.handlers[ev] || []).forEach((fn) => fn({ target: this })); }
	closest() { return null; }
	querySelectorAll() { return []; }
	querySelector() { return null; }
	scrollIntoView() {}
	getBoundingClientRect() { return { left: 0, top: 0, width: 1200, height: 16 }; }
	get rows() { return this.children; }
	get cells() { return this.children; }
}

const byId = new Map();
function element(id) {
	let e = byId.get(id);
	if (e === undefined) {
		e = new Element("div");
		byId.set(id, e);
	}
	return e;
}
// The top table: a head of six cells, an empty body.
const table = element("live-top");
table.dataset.top = String(top);
const head = new Element("thead"), hrow = new Element("tr");
for (let k = 0; k < 6; k++)
	hrow.appendChild(new Element("th"));
head.appendChild(hrow);
table.tHead = head;
table.tBodies = [new Element("tbody")];
element("live-data").textContent = data;
element("live-by").value = "function";

const docHandlers = {};
global.document = {
	getElementById: (id) => element(id),
	createElement: (tag) => new Element(tag),
	createElementNS: (ns, tag) => new Element(tag),
	querySelectorAll: () => [],
	querySelector: () => null,
	addEventListener: (ev, fn) => { (docHandlers[ev] = docHandlers[ev] || []).push(fn); },
};
global.window = { addEventListener: () => {}, innerWidth: 1200 };
global.requestAnimationFrame = (fn) => fn();

new Function(script)();
(docHandlers.DOMContentLoaded || []).forEach((fn) => fn());

for (const by of bys) {
	element("live-by").value = by;
	element("live-by").fire("change");
	console.log("by\t" + by);
	for (const tr of table.tBodies[0].children) {
		const c = tr.children;
		console.log(c[0].dataset.v + "\t" + c[3].dataset.v + "\t" +
		    c[5].textContent);
	}
	console.log("total\t" + element("live-total").dataset.v);
}
