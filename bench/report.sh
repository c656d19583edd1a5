#!/bin/bash
# SPDX-License-Identifier: MIT
# report.sh - the size of profconv report's page and the time Chromium
# takes to open it, on the 13.5 MB (36k stacks) and 1.27 GB jemalloc
# profiles.
#
# usage: bench/report.sh [BUILDDIR]
#
# The goals (issue 28): the page is at most 5 MB for the 36k-stack
# profile and at most 10 MB for the 1.27 GB one, whatever the profile's
# size; it opens in Chromium in under 3 s.
#
# What it does:
#  1. Takes (making them once, cached in bench/out/je/, as flame.sh does)
#     bench/gen-je-heap.sh's profiles: 36,000 call paths (the .m file,
#     ~13.5 MB) and BIG_N (~1.27 GB; about a minute and 2.6 GB of memory
#     to make).
#  2. Writes the page of each with `profconv report` (timed with
#     /usr/bin/time: RUNS runs of the small one, BIG_RUNS of the big one),
#     and prints its size and what each part of it weighs (each tab, and
#     each picture's encoded SVG).
#  3. Opens each page RUNS times in headless Chromium through WebDriver
#     (tests/cli/webdriver.py), from file://, each time in a fresh tab
#     state (about:blank between), and reads the page's own clock: the
#     load event's end (performance.timing: the page and its pictures'
#     frames parsed and drawn), and the first frame painted after it (two
#     requestAnimationFrame callbacks after load: the first tab drawn).
#     Then the flame graph's tab is clicked and timed until WebDriver
#     finds its frames in the frame's document (round trips included).
#     Medians are shown, with the load average.
#
# Environment:
#   RUNS=3          runs of the small page, and opens of each page
#   BIG_RUNS=1      runs of `profconv report` on the big profile
#   BIG_N=3400000   call paths of the big profile
#   BENCH_OUT=DIR   where generated data and outputs go (bench/out)
#   BENCH_STRICT=1  exit 3 if a goal is not met
#
# Exit status: 0 done (goals met or not, unless BENCH_STRICT), 1 error,
# 2 usage, 3 goal missed with BENCH_STRICT=1.
# Needs: bash, gcc, Debian libjemalloc2, GNU time, python3 with Debian's
# python3-selenium, chromium and chromium-driver.

set -euo pipefail
prog=report.sh
. "$(dirname "$0")/lib.sh"
bench_usage "$@"
bench_init "${1:-}"
command -v python3 >/dev/null 2>&1 || die "python3 not found"
/usr/bin/python3 -c 'import selenium' 2>/dev/null ||
	die "python3-selenium missing (Debian: python3-selenium)"

BIG_N=${BIG_N:-3400000}
BIG_RUNS=${BIG_RUNS:-1}
for v in "$BIG_N" "$BIG_RUNS"; do
	case $v in '' | *[!0-9]* | 0) die "BIG_N and BIG_RUNS must be positive numbers" ;; esac
done

work=$out/report
mkdir -p "$work" || die "cannot create $work"
small=$out/je/pair-36000.m.heap
big=$out/je/big-$BIG_N.heap
je_profile "$out/je/pair-36000.f.heap" 36000 0 "$small"
je_profile "$big" "$BIG_N" 0

load_warning
cat <<EOF
build:    $build
small:    $small ($(wc -c <"$small") bytes)
big:      $big ($(wc -c <"$big") bytes)
runs:     $RUNS of the small page, $BIG_RUNS of the big one; $RUNS opens of each
machine:  $cpus CPUs, load average $load at start
EOF

# write_page NAME PROFILE N: N timed runs writing $work/NAME.html.
write_page() {
	local i=1
	while [ "$i" -le "$3" ]; do
		note "run $i/$3: profconv report of the $1 profile"
		timed "report_$1" "$PROFCONV" report --quiet "$2" -o "$work/$1.html"
		i=$((i + 1))
	done
}

rm -f "$work"/report_*.times
write_page small "$small" "$RUNS"
write_page big "$big" "$BIG_RUNS"

# parts PAGE: bytes of each tab and of each picture's encoded SVG.
parts() {
	python3 - "$1" <<'PY'
import re, sys
s = open(sys.argv[1], encoding="utf-8").read()
for m in re.finditer(r'<section class="tab[^"]*" id="([^"]+)">', s):
    end = s.find("</section>\n", m.end())
    # Nested sections (the listing's) end before the tab's own end.
    while s.count("<section", m.end(), end) > s.count("</section>", m.end(), end):
        end = s.find("</section>\n", end + 1)
    print("    tab %-10s %10d bytes" % (m.group(1), end - m.start()))
for m in re.finditer(r'<iframe class="pic ([^"]+)"[^>]*data-svg="([^"]*)"', s):
    print("    picture %-6s %10d bytes encoded" % (m.group(1), len(m.group(2))))
PY
}

# open_times PAGE NAME: RUNS opens in Chromium; a line of medians.
open_times() {
	/usr/bin/python3 - "$1" "$RUNS" "$benchdir/../tests/cli" <<'PY' >"$work/$2.open" ||
import statistics, sys, time
sys.path.insert(0, sys.argv[3])
import webdriver
from selenium.webdriver.common.by import By

page, runs = sys.argv[1], int(sys.argv[2])
loads, firsts, flames = [], [], []
with webdriver.session(1300, 900) as d:
    d.set_page_load_timeout(300)
    d.set_script_timeout(300)
    for _ in range(runs):
        d.get("about:blank")
        d.get("file://" + page)
        t = d.execute_script(
            "var t = performance.timing;"
            "return [t.navigationStart, t.loadEventEnd];")
        first = d.execute_async_script(
            "var done = arguments[0];"
            "requestAnimationFrame(function () {"
            " requestAnimationFrame(function () {"
            "  done(performance.timeOrigin + performance.now()); }); });")
        loads.append((t[1] - t[0]) / 1000.0)
        firsts.append((first - t[0]) / 1000.0)
        start = time.monotonic()
        d.find_element(By.CSS_SELECTOR, 'nav button[data-tab="flame"]').click()
        frames = d.find_elements(By.CSS_SELECTOR, "iframe.flame")
        if frames:
            d.switch_to.frame(frames[0])
            while not d.find_elements(By.CSS_SELECTOR, "#frames > g"):
                time.sleep(0.01)
            d.switch_to.default_content()
        flames.append(time.monotonic() - start)
    webdriver.no_console_errors(d, "open")
print("%.2f %.2f %.2f %s" % (statistics.median(loads), statistics.median(firsts),
                             statistics.median(flames),
                             " ".join("%.2f" % v for v in firsts)))
PY
	die "cannot open $1 in Chromium"
}

note "opening the pages in Chromium"
open_times "$work/small.html" small
open_times "$work/big.html" big

echo
report_head
report report_small "profconv report SMALL (13.5 MB)"
report report_big "profconv report BIG (1.27 GB)"
for p in small big; do
	size=$(wc -c <"$work/$p.html")
	read -r load_s first_s flame_s all <"$work/$p.open"
	echo
	echo "$p page: $size bytes ($(awk -v b="$size" 'BEGIN { printf "%.2f", b / 1048576 }') MiB)"
	parts "$work/$p.html"
	echo "  Chromium, median of $RUNS opens: load event ${load_s} s, first tab drawn ${first_s} s (each: $all), flame graph's frames found ${flame_s} s after a click on its tab (WebDriver's round trips included)"
	eval "${p}_size=$size ${p}_first=$first_s"
done
echo
goal "issue 28: the small page at most 5 MB" "$small_size <= 5242880"
goal "issue 28: the big page at most 10 MB" "$big_size <= 10485760"
goal "issue 28: the small page opens in under 3 s" "$small_first < 3"
goal "issue 28: the big page opens in under 3 s" "$big_first < 3"
bench_exit
