# SPDX-License-Identifier: MIT
# svg-options.sh - profflame --svg with flamegraph.pl's other options, each
# checked on the parsed SVG: the language palettes (java, js, perl) on a
# real tcmalloc profile of C++ code (tests/producers/names.cc, made now)
# and on a profile of annotated names (a pprof written by svg-check.py),
# chain's wakers, --hash, --random, --cp/--palfile (palette.map read and
# written), --bgcolors, the fonts (sizes, pads, labels), --nametype,
# --notes, --total, --factor; each bad value gives one line and exit 2.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

FLAME=$CMD/profflame
export LC_ALL=C
mem=$DATA/go/mem.pb.gz
"$FLAME" "$mem" >"$TMP/mem.folded" || fail "folded output failed"

# hue_of NAME FILE: the hue svgcheck hues gave NAME (the first frame).
hue_of() { awk -v n="$1" '{ h = $1; sub(/^[^ ]* /, "") } $0 == n { print h; exit }' "$2"; }
expect_hue() {
	got=$(hue_of "$2" "$3")
	[ "$got" = "$1" ] || fail "$3: '$2' is ${got:-not drawn}, expected $1"
}

# --- language palettes: annotated names (a pprof written now) ----------------
cat >"$TMP/names.in" <<'EOF'
main;java/lang/Thread.run_[j];Ljava/util/HashMap.put 40
main;java/lang/Thread.run_[j];org/x/Y.z_[i] 30
main;Interpreter;com/a:::b 25
main;app::Pool::grow;grow 35
main;do_sys_open_[k];vfs_read_[k] 20
main;perl_run;Perl_pp_entersub;/usr/lib/x.pl 15
main;node;/app/src/index.js:10;LazyCompile:*foo_[j] 30
main;node;Builtin:ArrayMap;v8::internal::Foo 12
main;node; ;x_[k]y 9
EOF
svgcheck pprof "$TMP/names.in" "$TMP/names.pb" || fail "cannot write names.pb"
for p in java js perl; do
	run 0 "$FLAME" --svg --minwidth 0 --colors "$p" "$TMP/names.pb" -o "$TMP/$p.svg"
	svgcheck hues "$TMP/$p.svg" >"$TMP/$p.hues" || fail "$p: SVG not parsed"
done
expect_hue green 'java/lang/Thread.run_[j]' "$TMP/java.hues"
expect_hue aqua 'org/x/Y.z_[i]' "$TMP/java.hues"
expect_hue green 'Ljava/util/HashMap.put' "$TMP/java.hues"
expect_hue green 'com/a:::b' "$TMP/java.hues"
expect_hue yellow 'app::Pool::grow' "$TMP/java.hues"
expect_hue orange 'vfs_read_[k]' "$TMP/java.hues"
expect_hue red 'grow' "$TMP/java.hues"
expect_hue yellow 'v8::internal::Foo' "$TMP/perl.hues"
expect_hue green 'Perl_pp_entersub' "$TMP/perl.hues"
expect_hue green '/usr/lib/x.pl' "$TMP/perl.hues"
expect_hue orange 'do_sys_open_[k]' "$TMP/perl.hues"
expect_hue red 'perl_run' "$TMP/perl.hues"
expect_hue aqua 'LazyCompile:*foo_[j]' "$TMP/js.hues"
expect_hue green '/app/src/index.js:10' "$TMP/js.hues"
expect_hue yellow 'v8::internal::Foo' "$TMP/js.hues"
expect_hue aqua 'Builtin:ArrayMap' "$TMP/js.hues"
expect_hue green ' ' "$TMP/js.hues"
expect_hue orange 'x_[k]y' "$TMP/js.hues"
expect_hue red 'node' "$TMP/js.hues"
# Names are the view's: annotations stay in titles.
grep -q '<title>vfs_read_\[k\] (20 samples' "$TMP/java.svg" || fail "annotation cut off a title"

# chain: above a "--" frame aqua (the waker), below it blue; "--" grey.
cat >"$TMP/chain.in" <<'EOF'
main;read;schedule;--;irq;wake_up 40
main;write;schedule;--;kworker;-;x 30
EOF
svgcheck pprof "$TMP/chain.in" "$TMP/chain.pb" || fail "cannot write chain.pb"
run 0 "$FLAME" --svg --minwidth 0 --colors chain "$TMP/chain.pb" -o "$TMP/chain.svg"
svgcheck hues "$TMP/chain.svg" >"$TMP/chain.hues"
for n in main read write schedule; do expect_hue blue "$n" "$TMP/chain.hues"; done
for n in irq wake_up kworker - x; do expect_hue aqua "$n" "$TMP/chain.hues"; done
expect_hue grey -- "$TMP/chain.hues"
grep -q 'stop-color="#e0e0ff"' "$TMP/chain.svg" || fail "chain: not the blue background"
# "-" outside a waker stack is the light grey separator.
printf 'main;-;x 5\n' >"$TMP/sep.in"
svgcheck pprof "$TMP/sep.in" "$TMP/sep.pb"
run 0 "$FLAME" --svg --colors java "$TMP/sep.pb" -o "$TMP/sep.svg"
svgcheck hues "$TMP/sep.svg" >"$TMP/sep.hues"
expect_hue light - "$TMP/sep.hues"

# --- language palettes on a real C++ heap profile ----------------------------
# tests/producers/names.cc under tcmalloc: namespaces, templates, operators.
command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
need_tcmalloc
g++ -O1 -g -fno-omit-frame-pointer -o "$TMP/names" \
    "$PROFCONV_SRCDIR/tests/producers/names.cc" -ltcmalloc || skip "cannot build names.cc"
HEAPPROFILE=$TMP/h "$TMP/names" 2>/dev/null || fail "names.cc failed"
"$PROFCONV" symbolize -o "$TMP/tc.pb.gz" "$(ls "$TMP"/h.*.heap | tail -n 1)" 2>/dev/null ||
	fail "symbolize"
"$FLAME" "$TMP/tc.pb.gz" >"$TMP/tc.folded" || fail "folded tc"
for p in java js perl; do
	run 0 "$FLAME" --svg --minwidth 0 --colors "$p" "$TMP/tc.pb.gz" -o "$TMP/tc-$p.svg"
	got=$(svgcheck tree "$TMP/tc-$p.svg" "$TMP/tc.folded" --minwidth 0) ||
		fail "tc $p: the SVG does not draw the folded stacks"
	# C++ names ("::") yellow, C names red, in all three.
	svgcheck hues "$TMP/tc-$p.svg" | awk -v p="$p" '
	    $2 == "all" { next }
	    { h = $1; sub(/^[^ ]* /, "") }
	    /::/ && h != "yellow" { print p ": " $0 " is " h; bad = 1 }
	    !/::/ && !/[:\/]|Perl|\.pl/ && h != "red" { print p ": " $0 " is " h; bad = 1 }
	    /::/ { cxx++ } !/::/ { c++ }
	    END { if (!cxx || !c) { print p ": no C++ or no C names"; bad = 1 }; exit bad }' >&2 ||
		fail "tc $p: hues do not follow the names"
done

# --- shades: --hash, --random --------------------------------------------------
run 0 "$FLAME" --svg --minwidth 0 --hash "$mem" -o "$TMP/hash.svg"
run 0 "$FLAME" --svg --minwidth 0 --hash -t alloc_space "$mem" -o "$TMP/hash2.svg"
run 0 "$FLAME" --svg --minwidth 0 "$mem" -o "$TMP/seeded.svg"
svgcheck colors "$TMP/hash.svg" "$TMP/hash2.svg" || fail "--hash: colours depend on more than the name"
# Only the shade changes: still hot, but not the default's colours.
svgcheck hues "$TMP/hash.svg" >/dev/null || fail "--hash SVG not parsed"
cmp -s "$TMP/hash.svg" "$TMP/seeded.svg" && fail "--hash gives the default colours"
# flamegraph.pl --hash: malloc is rgb(238,112,36) (the notes' figure).
printf 'main;malloc 10\n' >"$TMP/malloc.in"
svgcheck pprof "$TMP/malloc.in" "$TMP/malloc.pb"
run 0 "$FLAME" --svg --hash --keep-allocator-frames "$TMP/malloc.pb" -o "$TMP/malloc.svg"
grep -q '<title>malloc (10 samples, 100.00%)</title><rect [^>]*fill="rgb(238,112,36)"' "$TMP/malloc.svg" ||
	fail "--hash: malloc is not flamegraph.pl's rgb(238,112,36)"
run 0 "$FLAME" --svg --minwidth 0 --random "$mem" -o "$TMP/r1.svg"
run 0 "$FLAME" --svg --minwidth 0 --random "$mem" -o "$TMP/r2.svg"
fills() { grep -o 'fill="rgb([0-9,]*)"' "$1"; }
[ "$(fills "$TMP/r1.svg")" != "$(fills "$TMP/r2.svg")" ] || fail "--random: two runs, one set of colours"
# Random shades of hot: r 205..254, g 0..229, b 0..54.
bad=$(fills "$TMP/r1.svg" | sed 's/.*rgb(//; s/)"//' |
	awk -F, '$1 < 205 || $1 > 254 || $2 > 229 || $3 > 54' | head -n 1)
[ -z "$bad" ] || fail "--random painted rgb($bad), not a shade of hot"
svgcheck tree "$TMP/r1.svg" "$TMP/mem.folded" --minwidth 0 >/dev/null || fail "--random: layout"

# --- palette maps --------------------------------------------------------------
mkdir "$TMP/cp" && cd "$TMP/cp" || fail "cd"
run 0 "$FLAME" --svg --minwidth 0 --random --cp "$mem" -o first.svg
[ -s palette.map ] || fail "--cp wrote no palette.map"
LC_ALL=C sort -c palette.map 2>/dev/null || fail "palette.map is not sorted by name"
n=$(wc -l <palette.map)
# Every function drawn is in the map, with the colour it was drawn in.
python3 - first.svg palette.map <<'PY' || fail "palette.map does not hold the colours drawn"
import re, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
m = dict(l.rstrip("\n").rsplit("->", 1) for l in open(sys.argv[2]))
for g in ET.parse(sys.argv[1]).getroot().find(".//%sg[@id='frames']" % ns):
    name = g.find(ns + "title").text.rsplit(" (", 1)[0]
    key = "" if name == "all" else name
    assert m.get(key) == g.find(ns + "rect").get("fill"), (name, m.get(key))
PY
# Another palette, other shades, another type: the same colours.
run 0 "$FLAME" --svg --minwidth 0 --colors aqua --hash --cp -t alloc_space "$mem" -o second.svg
svgcheck colors first.svg second.svg || fail "--cp: a name changed colour"
[ "$(wc -l <palette.map)" -ge "$n" ] || fail "--cp lost names"
# A name flamegraph.pl wrote keeps its colour; --palfile names the file.
grep -v '^runtime\.main->' palette.map >"$TMP/other.map"
echo 'runtime.main->rgb(1,2,3)' >>"$TMP/other.map"
run 0 "$FLAME" --svg --palfile "$TMP/other.map" "$mem" -o third.svg
grep -q '<title>runtime.main ([^<]*</title><rect [^>]*fill="rgb(1,2,3)"' third.svg ||
	fail "--palfile: the map's colour was not used"
grep -qx 'runtime.main->rgb(1,2,3)' "$TMP/other.map" || fail "--palfile: the map was not kept"
# A bad map: one line naming the file and line; nothing written.
printf 'a->rgb(1,2,3)\nb->rgb(1,2)\n' >bad.map
run 1 "$FLAME" --svg --palfile bad.map "$mem" -o bad.svg
expect_err "profflame: 'bad.map': line 2: invalid colour 'rgb(1,2)' (expected rgb(R,G,B), each 0 to 255)"
[ -e bad.svg ] && fail "an SVG was written with a bad palette map"
cd "$TMP" || fail "cd"

# --- background, fonts, notes, name type ---------------------------------------
stops() { grep -o 'stop-color="[^"]*"' "$1" | tr '\n' ' '; }
run 0 "$FLAME" --svg --colors mem "$mem" -o "$TMP/bg-mem.svg"
[ "$(stops "$TMP/bg-mem.svg")" = 'stop-color="#eef2ee" stop-color="#e0ffe0" ' ] ||
	fail "mem: not the green background: $(stops "$TMP/bg-mem.svg")"
run 0 "$FLAME" --svg --colors mem --bgcolors yellow "$mem" -o "$TMP/bg-y.svg"
[ "$(stops "$TMP/bg-y.svg")" = 'stop-color="#eeeeee" stop-color="#eeeeb0" ' ] ||
	fail "--bgcolors yellow: $(stops "$TMP/bg-y.svg")"
run 0 "$FLAME" --svg --bgcolors '#1a2B3c' "$mem" -o "$TMP/bg-flat.svg"
[ "$(stops "$TMP/bg-flat.svg")" = 'stop-color="#1a2B3c" stop-color="#1a2B3c" ' ] ||
	fail "--bgcolors #1a2B3c: $(stops "$TMP/bg-flat.svg")"

run 0 "$FLAME" --svg --minwidth 0 --fontsize 20 --fontwidth 0.8 \
    --fonttype '"DejaVu Sans Mono", monospace' --subtitle s \
    --nametype 'Frame:' --notes 'run 42 <b> & "c"' "$mem" -o "$TMP/font.svg"
svgcheck tree "$TMP/font.svg" "$TMP/mem.folded" --minwidth 0 >/dev/null || fail "fonts: layout"
python3 - "$TMP/font.svg" <<'PY' || fail "fonts, notes or name type not as asked"
import re, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
tb = ET.TreeBuilder(insert_comments=True)
root = ET.parse(sys.argv[1], ET.XMLParser(target=tb)).getroot()
notes = [c.text for c in root.iter(ET.Comment) if c.text.startswith(" NOTES:")]
assert notes == [' NOTES: run 42 <b> & "c" '], notes
style = root.find(ns + "style").text
assert 'font-family: "DejaVu Sans Mono", monospace;' in style, style
assert "font-size: 20px" in style and "#title { text-anchor: middle; font-size: 25px; }" in style, style
group = root.find(".//%sg[@id='frames']" % ns)
assert group.get("data-nametype") == "Frame:"
assert float(group.get("data-charw")) == 16
frames = list(group)
depth = max(int(g.get("data-d")) for g in frames)
# flamegraph.pl's pads: 3 font sizes on top, 2 more with a subtitle,
# 2 font sizes + 10 below.
assert float(root.get("height")) == (depth + 1) * 16 + 60 + 40 + 50, root.get("height")
texts = {t.get("id"): t for t in root.iter(ns + "text") if t.get("id")}
assert texts["title"].get("y") == "40.0" and texts["subtitle"].get("y") == "80.0"
for g in frames:
    name = g.find(ns + "title").text.rsplit(" (", 1)[0]
    label = g.find(ns + "text").text or ""
    # The label cuts pprof's short name, when the frame has one.
    name = g.get("data-n") or name
    chars = int(float(g.find(ns + "rect").get("width")) / 16 + 1e-9)
    want = "" if chars < 3 else name if len(name) <= chars else name[:chars - 2] + ".."
    # The width is rounded to 0.1 px: allow one character either way.
    assert label in (want,) or abs(len(label) - len(want)) <= 1, (name, label, want)
PY

# --- --total and --factor -------------------------------------------------------
total=$(awk '{ s += $NF } END { print s }' "$TMP/mem.folded")
big=$((total * 4))
run 0 "$FLAME" --svg --minwidth 0 --total "$big" "$mem" -o "$TMP/total.svg"
got=$(svgcheck tree "$TMP/total.svg" "$TMP/mem.folded" --minwidth 0 --total "$big") ||
	fail "--total: layout or shares not out of $big"
[ "$got" = "$total" ] || fail "--total: root is $got, not the profile's $total"
grep -q '<title>all ([0-9,]* bytes, 25.00%)</title><rect x="10.0" y="[0-9.]*" width="295.0"' "$TMP/total.svg" ||
	fail "--total: the root is not a quarter of the width"
run 2 "$FLAME" --svg --total $((total - 1)) "$mem" -o "$TMP/no.svg"
expect_err "profflame: invalid total $((total - 1)): less than the profile's $total"
run 0 "$FLAME" --svg --minwidth 0 --factor 0.001 --countname KB "$mem" -o "$TMP/factor.svg"
python3 - "$TMP/factor.svg" <<'PY' || fail "--factor: values not multiplied"
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
n = 0
for g in root.find(".//%sg[@id='frames']" % ns):
    t = g.find(ns + "title").text
    v = int(g.get("data-v"))
    shown = int(t.rsplit(" (", 1)[1].split(" ")[0].replace(",", ""))
    assert shown == round(v * 0.001), (t, v)
    assert " KB, " in t
    n += 1
assert n > 10
PY

# --- bad values: one line, reason first, exit 2 ----------------------------------
run 2 "$FLAME" --svg --bgcolors pink "$mem"
expect_err "profflame: invalid background 'pink': yellow, blue, green, grey or #rrggbb expected"
run 2 "$FLAME" --svg --fonttype 'Sans; x' "$mem"
expect_err "profflame: invalid font 'Sans; x': CSS font names (letters, digits, spaces, '-', '_', '.'), each quoted or not, separated by commas expected"
# Quotes that balance in number but nest would run into the style sheet.
run 2 "$FLAME" --svg --fonttype "\"x'\" y 'z\"" "$mem"
expect_err "profflame: invalid font '\"x'\" y 'z\"': CSS font names (letters, digits, spaces, '-', '_', '.'), each quoted or not, separated by commas expected"
[ -s "$TMP/out" ] && fail "a refused font wrote an SVG"
run 2 "$FLAME" --svg --notes 'a -- b' "$mem"
expect_err "profflame: invalid notes 'a -- b': '--' cannot be in an XML comment"
run 2 "$FLAME" --svg --fontsize 0 "$mem"
grep -q "^profflame: invalid --fontsize value '0' (expected 1..1000)$" "$TMP/err" || fail "--fontsize 0: $(head -n 1 "$TMP/err")"
run 2 "$FLAME" --svg --fontwidth x "$mem"
grep -q "^profflame: invalid --fontwidth value 'x'" "$TMP/err" || fail "--fontwidth x accepted"
run 2 "$FLAME" --svg --factor 0 "$mem"
grep -q "^profflame: invalid --factor value '0'" "$TMP/err" || fail "--factor 0 accepted"
run 2 "$FLAME" --svg --total -5 "$mem"
grep -q "^profflame: invalid --total value '-5'" "$TMP/err" || fail "--total -5 accepted"
run 2 "$FLAME" --svg --hash --random "$mem"
grep -q "^profflame: --hash and --random exclude each other$" "$TMP/err" || fail "--hash --random accepted"
run 2 "$FLAME" --cp "$mem"
grep -q -- "--cp draws SVG: add --svg" "$TMP/err" || fail "--cp without --svg accepted"
finish
