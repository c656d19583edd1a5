# SPDX-License-Identifier: MIT
# svg-diff.sh - profflame --svg --base shows every change.  Small profiles
# written now from folded stacks pin the rules: inferno#295's example (a
# parent whose two children grew is red, its title +40, though its own
# value did not change; white with --self-diff, as flamegraph.pl), a
# freed path (drawn, blue, its decrease in the title), a new path
# (purple), a frame too narrow for --minwidth whose change, growth and
# shrinkage apart, reaches its parent, and the noise floor.  On real heap
# dumps made now (tests/producers/diffpair.c: two dumps of one process,
# memory freed, leaked and newly held between them; the picture tests'
# pair) every frame of the SVG is checked against the two profiles'
# folded stacks (svg-check.py delta) for every width and colour choice,
# and the two-count folded output stays difffolded.pl's.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

FLAME=$CMD/profflame
export LC_ALL=C
arrow=$(printf '\342\206\222')

# mk NAME: a pprof profile $TMP/NAME.pb of the folded lines on stdin.
mk() {
	cat >"$TMP/$1.folded"
	svgcheck pprof "$TMP/$1.folded" "$TMP/$1.pb" || fail "cannot write $1.pb"
}
# frame SVG NAME: "CHANGE FILL UP DOWN|TITLE" of the frame called NAME.
frame() {
	svgcheck frame "$1" "$2" || fail "$1: unreadable"
}
# is WHAT GOT WANT
is() {
	[ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}
# check NAME BASE CUR [profflame options -- checker options]: draw and
# check every frame.
check() {
	name=$1 b=$2 c=$3
	shift 3
	pf= ck=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do pf="$pf $1"; shift; done
	[ $# -gt 0 ] && shift
	ck="$*"
	# shellcheck disable=SC2086
	"$FLAME" --svg $pf --base "$b" "$c" -o "$TMP/$name.svg" 2>"$TMP/$name.err" ||
		{ fail "$name: profflame: $(cat "$TMP/$name.err")"; return; }
	# shellcheck disable=SC2086
	svgcheck delta "$TMP/$name.svg" "$BF" "$CF" $ck >"$TMP/$name.counts" ||
		fail "$name: frames disagree with the profiles"
}

# --- inferno#295: parent;first_child 10 -> 30, parent;second_child 10 -> 30 ---
mk p0 <<'EOF2'
parent;first_child 10
parent;second_child 10
EOF2
mk p1 <<'EOF2'
parent;first_child 30
parent;second_child 30
EOF2
BF=$TMP/p0.folded CF=$TMP/p1.folded
check inferno "$TMP/p0.pb" "$TMP/p1.pb" --minwidth 0 -- --minwidth 0
is "inferno#295 parent" "$(frame "$TMP/inferno.svg" parent)" \
    "grew rgb(255,0,0) 40 0|+40 samples (+200.00%) | 20 $arrow 60 | parent"
check inferno-self "$TMP/p0.pb" "$TMP/p1.pb" --minwidth 0 --self-diff -- --minwidth 0 --self
is "inferno#295 parent, own change" "$(frame "$TMP/inferno-self.svg" parent)" \
    "same rgb(255,255,255) 40 0|self 0 samples (+0.00%) | 20 $arrow 60 | parent"
grep -q '<g id="legend">' "$TMP/inferno.svg" || fail "no legend"
for w in grew 'shrank or freed' new 'no change'; do
	grep -q ">$w</text>" "$TMP/inferno.svg" || fail "the legend lacks '$w'"
done
grep -q '<text id="subtitle"[^>]*>widths: larger of before and after' "$TMP/inferno.svg" ||
	fail "the subtitle does not name the widths"

# --- a freed path: drawn and blue, its decrease in the title -------------------
mk f0 <<'EOF2'
main;keep 50
main;freed 30
EOF2
mk f1 <<'EOF2'
main;keep 50
EOF2
BF=$TMP/f0.folded CF=$TMP/f1.folded
check freed "$TMP/f0.pb" "$TMP/f1.pb" --minwidth 0 -- --minwidth 0
is "freed path" "$(frame "$TMP/freed.svg" freed)" \
    "gone rgb(0,0,255) 0 -30|-30 samples (-37.50%) | 30 $arrow 0 | freed"
is "unchanged path" "$(frame "$TMP/freed.svg" keep)" \
    "same rgb(255,255,255) 0 0|0 samples (+0.00%) | 50 $arrow 50 | keep"
# flamegraph.pl's widths: the freed path has none, its change is main's.
check freed-cur "$TMP/f0.pb" "$TMP/f1.pb" --minwidth 0 --diff-width cur -- --minwidth 0 --width cur
[ -z "$(frame "$TMP/freed-cur.svg" freed)" ] || fail "--diff-width cur drew the freed path"
is "main, freed child not drawn" "$(frame "$TMP/freed-cur.svg" main)" \
    "shrank rgb(0,0,255) 0 -30|-30 samples (-37.50%) | 80 $arrow 50 | main"
check freed-base "$TMP/f0.pb" "$TMP/f1.pb" --diff-width base -- --width base
check freed-delta "$TMP/f0.pb" "$TMP/f1.pb" --diff-width delta -- --width delta
[ -z "$(frame "$TMP/freed-delta.svg" keep)" ] || fail "--diff-width delta drew an unchanged path"

# --- a new path: its own hue -----------------------------------------------------
mk n1 <<'EOF2'
main;keep 50
main;fresh 20
EOF2
BF=$TMP/f1.folded CF=$TMP/n1.folded
check new "$TMP/f1.pb" "$TMP/n1.pb" --minwidth 0 -- --minwidth 0
is "new path" "$(frame "$TMP/new.svg" fresh)" \
    "new rgb(170,80,220) 20 0|+20 samples (+40.00%) | 0 $arrow 20 | fresh"
check new-negate "$TMP/f1.pb" "$TMP/n1.pb" --negate -- --negate
is "main, --negate" "$(frame "$TMP/new-negate.svg" main | cut -d' ' -f1,2)" \
    "grew rgb(0,0,255)"

# --- a frame under --minwidth: its change reaches its parent ---------------------
mk m0 <<'EOF2'
main;big 1000
main;tiny 1
main;small;leaf 2
EOF2
mk m1 <<'EOF2'
main;big 1000
main;tiny 5
EOF2
BF=$TMP/m0.folded CF=$TMP/m1.folded
check narrow "$TMP/m0.pb" "$TMP/m1.pb" --minwidth 1% -- --minwidth 1%
[ -z "$(frame "$TMP/narrow.svg" tiny)$(frame "$TMP/narrow.svg" small)" ] ||
	fail "frames under --minwidth 1% drawn"
is "main, narrow children" "$(frame "$TMP/narrow.svg" main)" \
    "grew rgb(255,0,0) 4 -2|+2 samples (+0.20%) | 1,003 $arrow 1,005 | main"
is "root, narrow children" "$(frame "$TMP/narrow.svg" all | cut -d'|' -f2)" \
    "+2 samples (+0.20%) "
check narrow-self "$TMP/m0.pb" "$TMP/m1.pb" --minwidth 1% --self-diff -- --minwidth 1% --self
is "main's own change, narrow children" "$(frame "$TMP/narrow-self.svg" main | cut -d'|' -f2)" \
    "self +2 samples (+0.20%) "
check narrow-px "$TMP/m0.pb" "$TMP/m1.pb" --minwidth 20 -- --minwidth 20

# --- the noise floor ----------------------------------------------------------------
mk z0 <<'EOF2'
main;a 100
main;b 100
EOF2
mk z1 <<'EOF2'
main;a 101
main;b 150
EOF2
BF=$TMP/z0.folded CF=$TMP/z1.folded
check floor "$TMP/z0.pb" "$TMP/z1.pb" --min-delta 1 -- --min-delta 1
is "a change under the floor" "$(frame "$TMP/floor.svg" a | cut -d' ' -f1,2)" "same rgb(255,255,255)"
is "a change over the floor" "$(frame "$TMP/floor.svg" b | cut -d' ' -f1)" grew
grep -q 'white under 1% of before (2 samples)' "$TMP/floor.svg" || fail "the subtitle does not name the floor"
check no-floor "$TMP/z0.pb" "$TMP/z1.pb"
is "no floor" "$(frame "$TMP/no-floor.svg" a | cut -d' ' -f1)" "grew"

# --- usage --------------------------------------------------------------------------
run 2 "$FLAME" --svg --self-diff "$TMP/z1.pb"
head -n 1 "$TMP/err" | grep -qx 'profflame: --self-diff draws a differential graph: add --base' ||
	fail "--self-diff without --base: $(cat "$TMP/err")"
run 2 "$FLAME" --svg --diff-width wide --base "$TMP/z0.pb" "$TMP/z1.pb"
head -n 1 "$TMP/err" | grep -qx "profflame: invalid --diff-width 'wide' (max, cur, base or delta)" ||
	fail "--diff-width wide: $(cat "$TMP/err")"
run 2 "$FLAME" --svg --min-delta 101 --base "$TMP/z0.pb" "$TMP/z1.pb"
run 2 "$FLAME" --min-delta 1 --base "$TMP/z0.pb" "$TMP/z1.pb"

# --- real dumps: two of one process ---------------------------------------------------
if command -v cc >/dev/null 2>&1 && have_tcmalloc &&
    cc -O1 -g -fno-omit-frame-pointer -o "$TMP/diffpair" \
    "$PROFCONV_SRCDIR/tests/producers/diffpair.c" -ltcmalloc 2>/dev/null; then
	HEAPPROFILE=$TMP/dp "$TMP/diffpair" 2>/dev/null || fail "diffpair failed"
	D0=$TMP/dp.0001.heap D1=$TMP/dp.0002.heap
	"$FLAME" -t inuse_space "$D0" >"$TMP/d0.folded" || fail "folded base"
	"$FLAME" -t inuse_space "$D1" >"$TMP/d1.folded" || fail "folded cur"
	BF=$TMP/d0.folded CF=$TMP/d1.folded
	for w in max cur base delta; do
		check "dp-$w" "$D0" "$D1" -t inuse_space --diff-width "$w" -- --width "$w"
		check "dp-$w-self" "$D0" "$D1" -t inuse_space --diff-width "$w" --self-diff -- --width "$w" --self
		check "dp-$w-0" "$D0" "$D1" -t inuse_space --diff-width "$w" --minwidth 0 -- --width "$w" --minwidth 0
	done
	check dp-floor "$D0" "$D1" -t inuse_space --min-delta 0.5 --minwidth 0 -- --min-delta 0.5 --minwidth 0
	svg=$TMP/dp-max.svg
	is "freed cache" "$(frame "$svg" cache_fill | cut -d' ' -f1,3-)" \
	    "gone 0 -2867200|-2,867,200 bytes (-75.90%) | 2,867,200 $arrow 0 | cache_fill"
	is "leak" "$(frame "$svg" leak_more | cut -d'|' -f2)" \
	    "+100,352 bytes (+2.66%) "
	is "leak colour" "$(frame "$svg" leak_more | cut -d' ' -f1)" grew
	is "new path" "$(frame "$svg" fresh_path | cut -d' ' -f1)" new
	is "parent of two grown children" "$(frame "$svg" parent_work | cut -d'|' -f2)" \
	    "+40,960 bytes (+1.08%) "
	is "parent colour" "$(frame "$svg" parent_work | cut -d' ' -f1)" grew
	is "steady" "$(frame "$svg" steady | cut -d' ' -f1,2)" "same rgb(255,255,255)"
	is "under the floor" "$(frame "$TMP/dp-floor.svg" tiny_change | cut -d' ' -f1)" same
	# The root's change is the total change profconv show reports.
	want=$(( $(show_total inuse_space "$D1") - $(show_total inuse_space "$D0") ))
	is "total change" "$(frame "$svg" all | sed 's/^[^|]*|\([-+0-9,]*\) .*/\1/' | tr -d ,+)" "$want"
	# One judgement everywhere: profdiff --json says of each function what
	# the picture says of its frame.
	"$CMD/profdiff" --json "$D0" "$D1" >"$TMP/dp.json"
	for f in cache_fill fresh_path leak_more trim steady first_child; do
		j=$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["rows"] if r["name"] == sys.argv[2]]
print(rows[0]["values"]["inuse_space"]["change"] if rows else "same")' "$TMP/dp.json" "$f")
		is "profdiff --json and the SVG on $f" "$j" "$(frame "$svg" "$f" | cut -d' ' -f1)"
	done
else
	echo "note: no C compiler or tcmalloc: diffpair part not run" >&2
fi

# --- real dumps: the picture tests' pair; the folded form is difffolded.pl's ---------
make_profiles
"$FLAME" "$TC_OLD" >"$TMP/o.folded" || fail "folded old"
"$FLAME" "$TC_NEW" >"$TMP/n.folded" || fail "folded new"
BF=$TMP/o.folded CF=$TMP/n.folded
for w in max cur base delta; do
	check "tc-$w" "$TC_OLD" "$TC_NEW" --diff-width "$w" --minwidth 0 -- --width "$w" --minwidth 0
done
# difffolded.pl's rules: every stack of either, "stack BASE CUR", 0 where
# missing (its order is Perl's hash order: compared sorted).
"$FLAME" --base "$TC_OLD" "$TC_NEW" | sort >"$TMP/ours.two"
awk 'FNR == NR { n = $NF; $NF = ""; sub(/ $/, ""); b[$0] += n; s[$0] = 1; next }
     { n = $NF; $NF = ""; sub(/ $/, ""); c[$0] += n; s[$0] = 1 }
     END { for (k in s) print k, b[k] + 0, c[k] + 0 }' \
    "$TMP/o.folded" "$TMP/n.folded" | sort >"$TMP/rule.two"
cmp -s "$TMP/rule.two" "$TMP/ours.two" || fail "profflame --base is not difffolded.pl's form"
DF=${DIFFFOLDED:-}
[ -z "$DF" ] && [ -n "${FLAMEGRAPH:-}" ] && DF=$(dirname "$FLAMEGRAPH")/difffolded.pl
if [ -n "$DF" ] && [ -f "$DF" ] && command -v perl >/dev/null 2>&1; then
	perl "$DF" "$TMP/o.folded" "$TMP/n.folded" | sort >"$TMP/theirs.two"
	cmp -s "$TMP/theirs.two" "$TMP/ours.two" || fail "profflame --base differs from difffolded.pl"
else
	echo "note: difffolded.pl not found (DIFFFOLDED, or beside FLAMEGRAPH): compared with its rules only" >&2
fi
finish
