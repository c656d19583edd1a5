# SPDX-License-Identifier: MIT
# pictures-lib.sh - shared setup of the picture tests (svg.sh,
# svg-browser.sh, speedscope.sh); sourced after lib.sh, never run.
#
# make_profiles: real heap profiles of tests/producers/pictures.cc, made
# now, symbolized (inline frames included):
#   $TC_OLD, $TC_NEW   tcmalloc heap profiler exit dumps of two runs
#                      (MODE 0 and 1: a differential pair)
#   $JE                a jemalloc profile (every allocation sampled), or ""
#                      when libjemalloc.so.2 is missing
# Skips (77) when there is no C++ compiler or no tcmalloc.

CHECK_PY=$PROFCONV_SRCDIR/tests/cli/svg-check.py
command -v python3 >/dev/null 2>&1 || skip "python3 missing (Debian: python3)"
svgcheck() { python3 "$CHECK_PY" "$@"; }

make_profiles() {
	command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
	need_tcmalloc
	src=$PROFCONV_SRCDIR/tests/producers/pictures.cc
	g++ -O2 -g -fno-omit-frame-pointer -o "$TMP/pic-tc" "$src" -ltcmalloc ||
		skip "cannot build $src with tcmalloc"
	mkdir -p "$TMP/tc"
	HEAPPROFILE=$TMP/tc/old "$TMP/pic-tc" 3000 0 2>/dev/null ||
		fail "producer run 1 failed"
	HEAPPROFILE=$TMP/tc/new "$TMP/pic-tc" 3000 1 2>/dev/null ||
		fail "producer run 2 failed"
	"$PROFCONV" symbolize -o "$TMP/tc-old.pb.gz" "$TMP/tc/old.0001.heap" 2>"$TMP/sym.err" ||
		fail "symbolize old"
	"$PROFCONV" symbolize -o "$TMP/tc-new.pb.gz" "$TMP/tc/new.0001.heap" 2>"$TMP/sym.err" ||
		fail "symbolize new"
	TC_OLD=$TMP/tc-old.pb.gz
	TC_NEW=$TMP/tc-new.pb.gz
	JE=
	libje=$(find_lib libjemalloc.so.2)
	[ -n "$libje" ] || return 0
	g++ -O2 -g -fno-omit-frame-pointer -o "$TMP/pic-je" "$src" ||
		{ fail "cannot build $src"; return 0; }
	mkdir -p "$TMP/je"
	LD_PRELOAD=$libje \
	MALLOC_CONF="prof:true,prof_final:true,lg_prof_sample:0,prof_prefix:$TMP/je/je" \
	    "$TMP/pic-je" 3000 0 2>/dev/null || fail "jemalloc run failed"
	set -- "$TMP"/je/je.*.heap
	[ -f "$1" ] || { fail "jemalloc wrote no profile"; return 0; }
	"$PROFCONV" symbolize -o "$TMP/je.pb.gz" "$1" 2>"$TMP/sym.err" || fail "symbolize jemalloc"
	JE=$TMP/je.pb.gz
}

# show_total TYPE FILE: the profile's total of TYPE, as profconv show says.
show_total() {
	"$PROFCONV" show -s "$2" | sed -n "s/^total $1\/[a-z]*: \(-*[0-9]*\).*/\1/p"
}

# no_browser_here: skip when PROFCONV_NO_BROWSER is set: .ci/run's second
# pass of the suite, under the sanitizers, leaves the browser tests to the
# first (they check pages, and the C that wrote them ran there already).
no_browser_here() {
	[ -z "${PROFCONV_NO_BROWSER-}" ] ||
		skip "browser tests off (PROFCONV_NO_BROWSER is set)"
}

# need_browser: $CHROME is headless-capable Chromium, or skip.
need_browser() {
	no_browser_here
	CHROME=
	for c in chromium chromium-browser google-chrome; do
		command -v "$c" >/dev/null 2>&1 && { CHROME=$c; break; }
	done
	[ -n "$CHROME" ] || skip "chromium not installed (Debian: chromium)"
	chrome_runs=0
}

# browser ARGS...: one headless Chromium run with its own profile
# directory (tests run in parallel); --no-sandbox because CI runs as root.
# Stops after 90 s: an alert() in a page would otherwise hang it.
browser() {
	chrome_runs=$((chrome_runs + 1))
	timeout 90 "$CHROME" --headless --no-sandbox --disable-gpu \
	    --no-first-run --disable-dev-shm-usage --hide-scrollbars \
	    --user-data-dir="$TMP/chrome-$chrome_runs" "$@" 2>>"$TMP/chrome.err"
}

# serve DIR: a loopback HTTP server for DIR on a free port ($PORT),
# stopped (by its own pid) when the test exits.
serve() {
	PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$1" \
	    >"$TMP/http.log" 2>&1 &
	SERVER_PID=$!
	trap 'kill "$SERVER_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
	python3 - "$PORT" <<'PY' || fail "the HTTP server did not start"
import socket, sys, time
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.1)
sys.exit(1)
PY
}

# need_webdriver: $WEBDRIVER_PY is a Python with Selenium, and chromium
# and chromedriver are there, or skip.  Debian's python3-selenium is for
# /usr/bin/python3, which may not be the first python3 on PATH.
# webdriver PY_SCRIPT ARGS...: run a test script that imports
# tests/cli/webdriver.py (PROFCONV_SRCDIR is exported to it, and
# tests/cli is on its PYTHONPATH: "import webdriver" is enough).
need_webdriver() {
	no_browser_here
	WEBDRIVER_PY=
	for py in python3 /usr/bin/python3; do
		command -v "$py" >/dev/null 2>&1 || continue
		"$py" -c 'import selenium' 2>/dev/null && { WEBDRIVER_PY=$py; break; }
	done
	[ -n "$WEBDRIVER_PY" ] || skip "python3-selenium missing"
	why=$(webdriver -c "import webdriver; print(webdriver.available() or '')")
	[ -z "$why" ] || skip "$why"
}
webdriver() {
	PROFCONV_SRCDIR=$PROFCONV_SRCDIR \
	PYTHONPATH=$PROFCONV_SRCDIR/tests/cli${PYTHONPATH:+:$PYTHONPATH} \
	    timeout 300 "$WEBDRIVER_PY" "$@"
}
