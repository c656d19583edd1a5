(function () {
	"use strict";
	var tabs = document.querySelectorAll("section.tab");
	var buttons = document.querySelectorAll("nav button");
	function show(id) {
		var found = false;
		tabs.forEach(function (t) { if (t.id === id) found = true; });
		if (!found) id = tabs[0].id;
		tabs.forEach(function (t) {
			t.classList.toggle("off", t.id !== id);
		});
		buttons.forEach(function (b) {
			b.classList.toggle("on", b.dataset.tab === id);
		});
	}
	buttons.forEach(function (b) {
		b.addEventListener("click", function () {
			show(b.dataset.tab);
			try { history.replaceState(null, "", "#" + b.dataset.tab); }
			catch (e) { /* opaque origins may refuse it */ }
		});
	});
	show(location.hash.slice(1));
	document.querySelectorAll("iframe[data-svg]").forEach(function (f) {
		var svg;
		try { svg = decodeURIComponent(f.dataset.svg); }
		catch (e) { return; }
		f.src = URL.createObjectURL(new Blob([svg],
		    { type: "image/svg+xml" }));
	});
	document.querySelectorAll("table.top").forEach(function (t) {
		var ths = t.querySelectorAll("th");
		ths.forEach(function (th, col) {
			th.addEventListener("click", function () {
				var body = t.tBodies[0];
				var rows = Array.prototype.slice.call(body.rows);
				var num = th.dataset.sort === "num";
				var desc = num ? !th.classList.contains("desc") :
				    th.classList.contains("asc");
				ths.forEach(function (h) {
					h.classList.remove("asc", "desc");
				});
				th.classList.add(desc ? "desc" : "asc");
				rows.sort(function (a, b) {
					var x = a.cells[col], y = b.cells[col], c;
					if (num) {
						x = +x.dataset.v; y = +y.dataset.v;
						c = x < y ? -1 : x > y ? 1 : 0;
					} else {
						x = x.textContent; y = y.textContent;
						c = x < y ? -1 : x > y ? 1 : 0;
					}
					return desc ? -c : c;
				});
				rows.forEach(function (r) { body.appendChild(r); });
			});
		});
	});
})();
