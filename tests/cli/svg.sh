# SPDX-License-Identifier: MIT
# svg.sh - profflame --svg: the SVG is well-formed XML (python3's parser,
# and xmllint when installed); the tree it draws is exactly the tree of
# profflame's folded stacks, values and totals included (and with
# --minwidth, that tree less only the narrow frames); names with XML's
# markup characters survive; colours depend on the function name only;
# --base --self-diff --diff-width cur colours red and blue as
# flamegraph.pl's difference rules say.
# Profiles: the Go heap profile in tests/data and real tcmalloc and
# jemalloc profiles made now (tests/producers/pictures.cc).
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

FLAME=$CMD/profflame
export LC_ALL=C
mem=$DATA/go/mem.pb.gz
have_xmllint=false
command -v xmllint >/dev/null 2>&1 && have_xmllint=true

# svg_matches_folded NAME IN [options...]: draw IN with the options, and
# check the picture against the folded stacks of the same IN and type.
svg_matches_folded() {
	name=$1 in=$2
	shift 2
	type=
	case " $* " in *" -t "*) type=$(printf '%s\n' "$@" | sed -n '/^-t$/{n;p;}') ;; esac
	"$FLAME" ${type:+-t "$type"} "$in" >"$TMP/$name.folded" ||
		{ fail "$name: folded output failed"; return; }
	run 0 "$FLAME" --svg "$@" "$in" -o "$TMP/$name.svg"
	mw=0.1
	case " $* " in *" --minwidth "*) mw=$(printf '%s\n' "$@" | sed -n '/^--minwidth$/{n;p;}') ;; esac
	rev=
	case " $* " in *" --reverse "*) rev=--reverse ;; esac
	got=$(svgcheck tree "$TMP/$name.svg" "$TMP/$name.folded" --minwidth "$mw" $rev) ||
		{ fail "$name: the SVG does not draw the folded stacks"; return; }
	want=$(awk '{ s += $NF } END { printf "%d\n", s }' "$TMP/$name.folded")
	[ "$got" = "$want" ] || fail "$name: SVG total $got, folded total $want"
	if $have_xmllint; then
		xmllint --noout "$TMP/$name.svg" 2>"$TMP/xmllint.err" ||
			fail "$name: xmllint: $(head -n 3 "$TMP/xmllint.err")"
	fi
}

# --- the Go heap profile: every sample type, every frame drawn -------------
for t in alloc_objects alloc_space inuse_objects inuse_space; do
	svg_matches_folded "go-$t" "$mem" -t "$t" --minwidth 0
	[ "$got" = "$(show_total "$t" "$mem")" ] ||
		fail "go-$t: SVG total $got != profile total $(show_total "$t" "$mem")"
done
grep -q '(1,710,567 bytes, 100.00%)' "$TMP/go-inuse_space.svg" ||
	fail "root title lacks the grouped total and unit"
grep -q 'data-unit="objects"' "$TMP/go-alloc_objects.svg" ||
	fail "objects counted as something else"

# The default minimum width (0.1 px) leaves narrow frames out, and only those.
svg_matches_folded go-default "$mem" -t alloc_space
svg_matches_folded go-pct "$mem" -t alloc_space --minwidth 2%
a=$(grep -c '<g data-s' "$TMP/go-alloc_space.svg")
b=$(grep -c '<g data-s' "$TMP/go-pct.svg")
[ "$b" -lt "$a" ] || fail "--minwidth 2% drew $b frames of $a"
svg_matches_folded go-px "$mem" -t alloc_space --minwidth 40 --width 600
svg_matches_folded go-reverse "$mem" -t alloc_space --reverse --minwidth 0
svg_matches_folded go-inverted "$mem" -t inuse_space --inverted --minwidth 0
grep -q '<text id="title"[^>]*>Icicle Graph</text>' "$TMP/go-inverted.svg" ||
	fail "--inverted: no Icicle Graph title"

# Geometry options: the image is --width wide; rows are --height tall.
run 0 "$FLAME" --svg --width 800 --height 20 "$mem" -o "$TMP/geo.svg"
grep -q '<svg [^>]*width="800"' "$TMP/geo.svg" || fail "--width 800 ignored"
grep -q 'height="19.0"' "$TMP/geo.svg" || fail "--height 20 gives no 19-pixel frames"

# Same input, same bytes; one name, one colour, in every type's picture.
run 0 "$FLAME" --svg -t alloc_space --minwidth 0 "$mem" -o "$TMP/again.svg"
cmp -s "$TMP/again.svg" "$TMP/go-alloc_space.svg" || fail "two runs differ"
svgcheck colors "$TMP"/go-*.svg || fail "colours depend on more than the name"
# mem is flamegraph.pl's green-blue: r 0, g 190..239, b 0..209.
run 0 "$FLAME" --svg --colors mem --minwidth 0 "$mem" -o "$TMP/mem.svg"
bad=$(grep -o '<rect x[^>]*fill="rgb([0-9,]*)"' "$TMP/mem.svg" | sed 's/.*rgb(//; s/)"//' |
	awk -F, '$1 != 0 || $2 < 190 || $2 > 239 || $3 > 209' | head -n 1)
[ -z "$bad" ] || fail "--colors mem painted rgb($bad)"

# Titles and names are escaped: the parser gives back what was asked.
run 0 "$FLAME" --svg --title 'A<B & "C"' --subtitle "it's > x" --countname 'b&b' \
    "$mem" -o "$TMP/esc.svg"
python3 - "$TMP/esc.svg" <<'PY' || fail "titles not escaped"
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
r = ET.parse(sys.argv[1]).getroot()
t = {e.get("id"): e.text for e in r.iter(ns + "text") if e.get("id")}
assert t["title"] == 'A<B & "C"', t["title"]
assert t["subtitle"] == "it's > x", t["subtitle"]
assert r.find(".//%sg[@id='frames']" % ns).get("data-unit") == "b&b"
assert all(" b&b, " in g.find(ns + "title").text for g in r.find(".//%sg[@id='frames']" % ns))
PY

# Nothing to draw is still a picture.
run 0 "$FLAME" --svg --focus 'no such function' "$mem" -o "$TMP/empty.svg"
python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$TMP/empty.svg" ||
	fail "empty picture is not XML"
grep -q '>no samples<' "$TMP/empty.svg" || fail "empty picture does not say so"

# --- real tcmalloc and jemalloc profiles -------------------------------------
make_profiles
svg_matches_folded tc "$TC_NEW" --minwidth 0
svg_matches_folded tc-io "$TC_NEW" --minwidth 0 --colors io
[ "$got" = "$(show_total space "$TC_NEW")" ] || fail "tcmalloc: total $got"
# C++ operators keep their markup characters; the inline frame is drawn.
python3 - "$TMP/tc.svg" <<'PY' || fail "tcmalloc: operator names or the inline frame missing"
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
titles = [g.find(ns + "title").text for g in ET.parse(sys.argv[1]).getroot().iter(ns + "g") if g.get("data-s")]
assert any(t.startswith("operator<") for t in titles), titles
assert any(t.startswith("operator&") for t in titles), titles
assert any(t.startswith("inline_alloc (") for t in titles), titles
PY
grep -q '<title>operator&lt;' "$TMP/tc.svg" || fail "'<' not escaped as &lt;"
if [ -n "$JE" ]; then
	svg_matches_folded je "$JE" -t inuse_space --minwidth 0
	[ "$got" = "$(show_total inuse_space "$JE")" ] || fail "jemalloc: total $got"
	svg_matches_folded je-objects "$JE" -t inuse_objects --reverse --minwidth 0
	grep -q '<title>inline_alloc (' "$TMP/je.svg" || fail "jemalloc: no inline frame"
	svgcheck colors "$TMP/je.svg" "$TMP/tc.svg" || fail "jemalloc and tcmalloc colours differ"
else
	echo "note: libjemalloc.so.2 missing, jemalloc part not run" >&2
fi

# --- differential: red grew, blue shrank, white unchanged --------------------
"$FLAME" --base "$TC_OLD" "$TC_NEW" >"$TMP/diff.folded" || fail "folded --base"
# (flamegraph.pl's colours: own changes, widths of the current profile;
# svg-diff.sh checks the default, whole changes.)
fg="--self-diff --diff-width cur"
run 0 "$FLAME" --svg --minwidth 0 $fg --base "$TC_OLD" "$TC_NEW" -o "$TMP/diff.svg"
rb=$(svgcheck diff "$TMP/diff.svg" "$TMP/diff.folded") || fail "--base colours"
[ "$rb" = "1 1" ] || fail "--base: $rb red and blue frames, expected 1 1"
run 0 "$FLAME" --svg --minwidth 0 $fg --negate --base "$TC_OLD" "$TC_NEW" -o "$TMP/neg.svg"
svgcheck diff "$TMP/neg.svg" "$TMP/diff.folded" --negate >/dev/null || fail "--negate colours"
# Widths come from the current profile.
awk '{ $(NF - 1) = ""; print }' "$TMP/diff.folded" | sed 's/  / /' >"$TMP/cur.folded"
svgcheck tree "$TMP/diff.svg" "$TMP/cur.folded" --minwidth 0 >/dev/null ||
	fail "--base: widths are not the current profile's"

# --- errors --------------------------------------------------------------------
run 2 "$FLAME" --svg --colors nope "$mem"
expect_err "profflame: unknown palette 'nope' (hot, mem, io, wakeup, chain, java, js, perl, red, green, blue, aqua, yellow, purple, orange)"
run 2 "$FLAME" --svg --minwidth 1x "$mem"
grep -qx "profflame: invalid --minwidth value '1x' (pixels, or a percentage such as 0.5%)" "$TMP/err" ||
	fail "--minwidth 1x: $(cat "$TMP/err")"
run 2 "$FLAME" --title x "$mem"
grep -q -- "--title draws SVG: add --svg" "$TMP/err" || fail "--title without --svg accepted"
run 2 "$FLAME" --svg --speedscope "$mem"
run 2 "$FLAME" --speedscope --base "$mem" "$mem"
run 2 "$FLAME" --svg --width 5 "$mem"
run 1 "$FLAME" --svg -t nope "$mem" -o "$TMP/no.svg"
[ -e "$TMP/no.svg" ] && fail "output left behind after an error"
# A delta profile has negative values: refused, as in folded output.
"$PROFCONV" merge -o "$TMP/twice.pb.gz" "$mem" "$mem" || fail "merge"
"$CMD/profdiff" -q -o "$TMP/neg.pb.gz" "$TMP/twice.pb.gz" "$mem" 2>/dev/null
run 1 "$FLAME" --svg "$TMP/neg.pb.gz"
grep -q "negative" "$TMP/err" || fail "negative values not refused"
finish
