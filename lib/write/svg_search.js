// SPDX-License-Identifier: MIT
// svg_search.js - the search both SVG pictures offer, profflame's
// (svg_script.js) and proftrend's (lib/report/trendsvg_script.js),
// written before their own script in the same script element
// (svg_web.c): the Search and "ic" buttons (#search, #ignorecase),
// Ctrl-F or F3 to ask for a regular expression, Ctrl-I to ignore case,
// Escape, the "Matched:" line (#matched) and the URL parameter s=REGEX,
// kept up to date with history.replaceState.  What matches, and what the
// matches hold, is the picture's own: it says in the object it passes.
(function () {
	"use strict";

	// O.paint(rx) marks what matches RX and returns the "Matched:" text;
	// O.unpaint() takes the marks off; O.prompt is the question asked;
	// O.params(p), if any, puts the picture's own URL parameters into
	// the URLSearchParams P; O.escape(), if any, is what Escape does
	// (else it resets a search).  The picture calls start() once it is
	// ready, for the search the URL asked for when it opened (zooming
	// may have rewritten the URL by then).
	window.profconvSvgSearch = function (o) {
		var doc = document;
		var details = doc.getElementById("details");
		var matched = doc.getElementById("matched");
		var searchBtn = doc.getElementById("search");
		var icBtn = doc.getElementById("ignorecase");
		var term = null, ignoreCase = false;
		var asked = new URLSearchParams(location.search).get("s");

		function setParams() {
			var p = new URLSearchParams(location.search), q;
			if (o.params)
				o.params(p);
			if (term !== null)
				p.set("s", term);
			else
				p.delete("s");
			q = p.toString();
			try {
				history.replaceState(null, "", location.pathname +
				    (q ? "?" + q : "") + location.hash);
			} catch (e) {
				// Some viewers forbid it (sandboxed or opaque
				// origins).
			}
		}

		function search(re) {
			var rx;
			try {
				rx = new RegExp(re, ignoreCase ? "i" : "");
			} catch (e) {
				details.textContent = "invalid regular expression: " +
				    re;
				return;
			}
			term = re;
			matched.textContent = o.paint(rx);
			searchBtn.textContent = "Reset Search";
			searchBtn.classList.add("show");
			setParams();
		}

		function resetSearch() {
			term = null;
			o.unpaint();
			matched.textContent = " ";
			searchBtn.textContent = "Search";
			searchBtn.classList.remove("show");
			setParams();
		}

		function askSearch() {
			var re = window.prompt(o.prompt, term !== null ? term : "");
			if (re !== null && re !== "")
				search(re);
		}

		function toggleCase() {
			ignoreCase = !ignoreCase;
			icBtn.classList.toggle("show", ignoreCase);
			if (term !== null)
				search(term);
		}

		searchBtn.addEventListener("click", function () {
			if (term !== null)
				resetSearch();
			else
				askSearch();
		});
		icBtn.addEventListener("click", toggleCase);
		window.addEventListener("keydown", function (e) {
			if (e.key === "F3" ||
			    ((e.ctrlKey || e.metaKey) && e.key === "f")) {
				e.preventDefault();
				askSearch();
			} else if ((e.ctrlKey || e.metaKey) && e.key === "i") {
				e.preventDefault();
				toggleCase();
			} else if (e.key === "Escape") {
				if (o.escape)
					o.escape();
				else if (term !== null)
					resetSearch();
			}
		});

		return {
			search: search,
			resetSearch: resetSearch,
			setParams: setParams,
			start: function () {
				if (asked)
					search(asked);
			}
		};
	};
})();
