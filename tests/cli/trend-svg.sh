# SPDX-License-Identifier: MIT
# trend-svg.sh - proftrend --svg against proftrend --json of the same
# series (tests/cli/trend-svg-check.py): on real gperftools dumps made now
# by tests/trend/patterns.c (two leaks, memory freed, a sawtooth), the
# bands add up to every snapshot's total, are the table's first rows with
# their verdicts, the peak is marked at the largest total; by function,
# by stack and with --top.  Then: names from a profile are XML text; a
# time axis when every snapshot has a time; 3,000 snapshots stay under
# 2 MB with the first, last and peak drawn; the size does not grow with
# the number of stacks; the output is whole or absent; usage errors.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 missing (Debian: python3)"
TREND=$CMD/proftrend
CHECK=$PROFCONV_SRCDIR/tests/cli/trend-svg-check.py
check() { python3 "$CHECK" "$@"; }
# draw ARGS...: proftrend ARGS into $TMP/out and $TMP/err, exit 0 or 1
# (suspects or not: this test is about the picture, not the verdicts).
draw() {
	"$TREND" "$@" >"$TMP/out" 2>"$TMP/err"
	st=$?
	[ $st -le 1 ] || fail "proftrend exited $st: $(head -c 400 "$TMP/err")"
}
export LC_ALL=C

# --- a real series: gperftools' heap profiler -------------------------------
if have_tcmalloc && command -v cc >/dev/null 2>&1; then
	cc -O1 -g -fno-omit-frame-pointer -o "$TMP/pat" \
	    "$PROFCONV_SRCDIR/tests/trend/patterns.c" -Wl,--no-as-needed -ltcmalloc ||
		fail "cannot build patterns with tcmalloc"
	HEAPPROFILE=$TMP/tc "$TMP/pat" 12 2>/dev/null || fail "patterns failed"
	set -- "$TMP"/tc.*.heap
	[ $# = 13 ] || fail "tcmalloc wrote $# dumps"

	for by in function stack; do
		draw --by $by --json "$@"
		cp "$TMP/out" "$TMP/$by.json"
		draw --by $by --svg -o "$TMP/$by.svg" "$@"
		check sums "$TMP/$by.svg" "$TMP/$by.json" 19 allocated >"$TMP/drawn" ||
			fail "--by $by: the SVG does not match the JSON"
		[ "$(cat "$TMP/drawn")" = 13 ] || fail "--by $by: $(cat "$TMP/drawn") snapshots drawn"
	done
	# The leaks are bands with their verdict; the subtitle says rows are
	# a function's own bytes.
	grep -q 'data-verdict="leak"[^>]*><title>steady_leak (leak;' "$TMP/function.svg" ||
		fail "steady_leak is no leak band"
	grep -q "innermost frame is that function, its own bytes" "$TMP/function.svg" ||
		fail "the subtitle does not say what a row holds"
	# Another type: object counts, as numbers, not bytes.
	draw -t inuse_objects --json "$@"
	cp "$TMP/out" "$TMP/objects.json"
	draw -t inuse_objects --svg -o "$TMP/objects.svg" "$@"
	check sums "$TMP/objects.svg" "$TMP/objects.json" 19 allocated >/dev/null ||
		fail "-t inuse_objects: the SVG does not match the JSON"
	grep -q '<title>steady_leak ([^;]*; first 64, last 768, peak 768, growth +704,' "$TMP/objects.svg" ||
		fail "-t inuse_objects: $(grep -o '<title>steady_leak[^<]*' "$TMP/objects.svg")"
	# --top: fewer bands, the rest in "other".
	draw --top 2 --svg -o "$TMP/top2.svg" "$@"
	check sums "$TMP/top2.svg" "$TMP/function.json" 2 allocated >/dev/null ||
		fail "--top 2: the SVG does not match the JSON"
	# With -o the table still goes to standard output, as without --svg.
	draw "$@"
	cp "$TMP/out" "$TMP/table"
	draw --svg -o "$TMP/again.svg" "$@"
	cmp -s "$TMP/out" "$TMP/table" || fail "--svg -o changed the table"
	cmp -s "$TMP/again.svg" "$TMP/function.svg" || fail "two runs, two SVGs"
	# Without -o the SVG replaces the table; --title is its heading.
	draw --svg "$@"
	cmp -s "$TMP/out" "$TMP/function.svg" || fail "--svg to standard output differs from -o"
	draw --svg --title 'Soak <test> & "more"' -o "$TMP/title.svg" "$@"
	grep -q '<text id="title"[^>]*>Soak &lt;test&gt; &amp; &quot;more&quot;</text>' "$TMP/title.svg" ||
		fail "--title: $(grep 'id="title"' "$TMP/title.svg")"
else
	echo "no tcmalloc headers or no C compiler: the real series is skipped" >&2
fi

# --- names from a profile are text; a time axis -----------------------------
printf '%s\n' '<script>alert(1)</script>' ']]>end' "quote\"and'apos" \
    'ctl\x01\x1b[31mred' 'amp&lt&gt&#x41' >"$TMP/names"
i=0
for t in 1000000000 2000000000 4000000000; do
	i=$((i + 1))
	: >"$TMP/h$i.folded"
	while IFS= read -r name; do
		name=$(printf '%b' "$name")
		printf 'main;%s %d\n' "$name" $((i * 100 + ${#name})) >>"$TMP/h$i.folded"
	done <"$TMP/names"
	printf 'main %d\n' 7 >>"$TMP/h$i.folded"
	check pprof "$TMP/h$i.folded" "$TMP/h$i.pb" $t || fail "cannot write h$i.pb"
done
draw --demangle none --json "$TMP"/h*.pb
cp "$TMP/out" "$TMP/h.json"
draw --demangle none --svg -o "$TMP/h.svg" "$TMP"/h*.pb
check sums "$TMP/h.svg" "$TMP/h.json" 19 time >/dev/null || fail "hostile names: sums"
check names "$TMP/h.svg" "$TMP/names" || fail "hostile names do not read back"
grep -q '<script>alert' "$TMP/h.svg" && fail "a name became markup"
[ "$(grep -c ']]>' "$TMP/h.svg")" = 1 ] || fail "a name ends the script's CDATA"
grep -q 'time since the first snapshot (s)' "$TMP/h.svg" || fail "no time axis label"
# Without a time on one snapshot: snapshot order.
check pprof "$TMP/h3.folded" "$TMP/h3.pb" 0 || fail "cannot write h3.pb"
draw --demangle none --json "$TMP"/h*.pb
cp "$TMP/out" "$TMP/h.json"
draw --demangle none --svg -o "$TMP/h.svg" "$TMP"/h*.pb
check sums "$TMP/h.svg" "$TMP/h.json" 19 order >/dev/null || fail "no time: sums"

# A negative value cannot be stacked: an error, no file, the old one kept.
printf 'main;f -5\nmain 7\n' >"$TMP/neg.folded"
check pprof "$TMP/neg.folded" "$TMP/h3.pb" 5000000000 || fail "cannot write the negative profile"
echo keep >"$TMP/kept.svg"
run 2 "$TREND" --demangle none --svg -o "$TMP/kept.svg" "$TMP"/h*.pb
grep -q "cannot draw '.*kept.svg':.*negative" "$TMP/err" || fail "negative: $(cat "$TMP/err")"
[ "$(cat "$TMP/kept.svg")" = keep ] || fail "a failed --svg changed the output file"
ls "$TMP" | grep -q 'kept.svg.' && fail "a temporary file was left"

# --- 3,000 snapshots: bounded, the peak kept ----------------------------------
mkdir "$TMP/many"
python3 - "$TMP/many" 3000 60 1777 <<'PY' || fail "cannot write the dumps"
import os, sys
d, n, stacks, peak = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
for i in range(n):
    lines, tb = [], 0
    for s in range(stacks):
        b = 1024 * (1 + s) + (8 * i if s == 0 else 0) + ((i * 7919 + s * 104729) % 4096 if s % 3 != 2 else 0)
        if i == peak and s == 5:
            b += 50 << 20
        tb += b
        lines.append("%6d: %8d [%6d: %8d] @ 0x%x 0x402000" % (1, b, 1, b, 0x401000 + 16 * s))
    with open(os.path.join(d, "long-name-of-a-dump-%05d.heap" % (i + 1)), "w") as f:
        f.write("heap profile: %6d: %8d [%6d: %8d] @ heapprofile\n" % (stacks, tb, stacks, tb))
        f.write("\n".join(lines) + "\n")
PY
draw --no-symbolize --json "$TMP"/many/*.heap
cp "$TMP/out" "$TMP/many.json"
draw --no-symbolize --top 40 --svg -o "$TMP/many.svg" "$TMP"/many/*.heap
check sums "$TMP/many.svg" "$TMP/many.json" 40 order >"$TMP/drawn" || fail "3000 snapshots: sums"
[ "$(cat "$TMP/drawn")" = 500 ] || fail "3000 snapshots: $(cat "$TMP/drawn") drawn"
size=$(wc -c <"$TMP/many.svg")
[ "$size" -lt 2097152 ] || fail "3000 snapshots: $size bytes"
grep -q '<g id="peak" data-i="1777"' "$TMP/many.svg" || fail "the peak is not snapshot 1778"

# The worst names: 40 bands of 2000 quotes each (6 bytes as XML), 600
# snapshots in a directory whose name is 200 ampersands: still < 2 MB.
long=$TMP/$(printf '&%.0s' $(seq 200))
mkdir "$long"
python3 - "$long" 600 "$PROFCONV_SRCDIR/tests/cli/svg-check.py" <<'PY' || fail "cannot write the dumps"
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, os.path.dirname(sys.argv[3]))
import webdriver
mod = webdriver.svgcheck()
for i in range(n):
    folded = os.path.join(d, "f")
    with open(folded, "w") as f:
        for s in range(45):
            f.write("main;%s%d %d\n" % ('"' * 2000, s, 1000 + (i * (s + 1)) % 997))
    mod.cmd_pprof([folded, os.path.join(d, "snapshot-%04d.pb" % i)])
os.remove(os.path.join(d, "f"))
PY
draw --demangle none --top 40 --svg -o "$TMP/long.svg" "$long"/*.pb
size=$(wc -c <"$TMP/long.svg")
[ "$size" -lt 2097152 ] || fail "long names: $size bytes"
[ "$size" -gt 1000000 ] || fail "long names: only $size bytes, are names cut too short?"
python3 -c 'import sys, xml.etree.ElementTree as ET; ET.parse(sys.argv[1])' "$TMP/long.svg" ||
	fail "long names: not XML"

# --- the size does not follow the number of stacks ---------------------------
for stacks in 40 4000; do
	mkdir "$TMP/s$stacks"
	python3 - "$TMP/s$stacks" 10 $stacks <<'PY' || fail "cannot write the dumps"
import os, sys
d, n, stacks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in range(n):
    lines, tb = [], 0
    for s in range(stacks):
        b = 64 * (1 + s % 50) * (1 + (i + s) % 3)
        tb += b
        lines.append("%6d: %8d [%6d: %8d] @ 0x%x 0x402000" % (1, b, 1, b, 0x1000000 + 16 * s))
    with open(os.path.join(d, "d.%02d.heap" % (i + 1)), "w") as f:
        f.write("heap profile: %6d: %8d [%6d: %8d] @ heapprofile\n" % (stacks, tb, stacks, tb))
        f.write("\n".join(lines) + "\n")
PY
	draw --no-symbolize --svg -o "$TMP/s$stacks.svg" "$TMP/s$stacks"/*.heap
done
small=$(wc -c <"$TMP/s40.svg") big=$(wc -c <"$TMP/s4000.svg")
[ "$big" -le $((small + small / 20)) ] ||
	fail "40 stacks: $small bytes, 4000 stacks: $big bytes"

# --- usage errors --------------------------------------------------------------
set -- "$TMP"/h1.pb "$TMP"/h2.pb
run 2 "$TREND" --title x "$@"
expect_err "proftrend: --title names the SVG: add --svg
Try 'proftrend --help'."
run 2 "$TREND" --svg --json "$@"
run 2 "$TREND" --svg --top 41 -o "$TMP/x.svg" "$@"
run 2 "$TREND" --svg --no-compress -o "$TMP/x.svg" "$@"
[ -e "$TMP/x.svg" ] && fail "a usage error wrote a file"
finish
