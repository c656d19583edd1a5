# SPDX-License-Identifier: MIT
# svg-flamegraph.sh - profflame --svg against flamegraph.pl itself: for the
# same folded stacks (profflame's own folded output) and the same options,
# both SVGs are parsed and every frame compared (svg-check.py fg): fill,
# value, share, change, row, width, label, and x where flamegraph.pl's
# whole-line sort gives our order; image size and background too.
# Palettes (one-hue, language, chain), --hash, layout options, fonts,
# --total, --factor, --base/--negate, on real tcmalloc and jemalloc
# profiles, the Go heap profile and profiles of annotated names.
# flamegraph.pl is not ours and Debian does not package it: give its path
# in FLAMEGRAPH, or put it on PATH; without it the test skips.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

FG=${FLAMEGRAPH:-$(command -v flamegraph.pl 2>/dev/null)}
[ -n "$FG" ] || skip "flamegraph.pl not found: set FLAMEGRAPH=/path/to/flamegraph.pl or put it on PATH (Debian does not package it)"
[ -f "$FG" ] || skip "FLAMEGRAPH=$FG is not a file"
command -v perl >/dev/null 2>&1 || skip "perl not installed, flamegraph.pl cannot run"
FLAME=$CMD/profflame
export LC_ALL=C

# compare NAME IN FOLDED [--ours OPT...] [--fg OPT...] [--check OPT...] -- OPT...
# draws IN with profflame --svg and FOLDED with flamegraph.pl, both with
# the options after --, plus their own ones.
compare() {
	name=$1 in=$2 folded=$3
	shift 3
	ours= theirs= check=
	while [ "$1" != -- ]; do
		case $1 in
		--ours) ours="$ours $2" ;;
		--fg) theirs="$theirs $2" ;;
		--check) check="$check $2" ;;
		esac
		shift 2
	done
	shift
	# shellcheck disable=SC2086
	"$FLAME" --svg $ours "$@" "$in" -o "$TMP/$name.ours.svg" 2>"$TMP/$name.err" ||
		{ fail "$name: profflame: $(head -n 1 "$TMP/$name.err")"; return; }
	# shellcheck disable=SC2086
	perl "$FG" $theirs "$@" "$folded" >"$TMP/$name.fg.svg" 2>"$TMP/$name.fg.err" ||
		{ fail "$name: flamegraph.pl: $(head -n 1 "$TMP/$name.fg.err")"; return; }
	# shellcheck disable=SC2086
	n=$(svgcheck fg "$TMP/$name.ours.svg" "$TMP/$name.fg.svg" "$folded" $check) ||
		{ fail "$name: our SVG differs from flamegraph.pl's"; return; }
	[ "$n" -gt 3 ] || fail "$name: only $n frames compared"
	compared=$((compared + n))
}
compared=0

# --- the Go heap profile: layout and text options --------------------------------
mem=$DATA/go/mem.pb.gz
"$FLAME" "$mem" >"$TMP/mem.folded" || fail "folded"
"$FLAME" -t alloc_space "$mem" >"$TMP/alloc.folded" || fail "folded"
b="--fg --countname --fg bytes"
compare hot "$mem" "$TMP/mem.folded" $b --
compare mem "$mem" "$TMP/mem.folded" $b -- --colors mem
compare hash "$mem" "$TMP/mem.folded" $b -- --hash --colors io
compare inverted "$mem" "$TMP/mem.folded" $b -- --inverted --minwidth 1%
compare reverse "$mem" "$TMP/alloc.folded" $b --ours "-t alloc_space" --check --reverse -- --reverse
compare geometry "$mem" "$TMP/mem.folded" $b -- --width 800 --height 20 --minwidth 3 \
    --subtitle sub --bgcolors blue
compare fonts "$mem" "$TMP/alloc.folded" $b --ours "-t alloc_space" -- --fontsize 15 \
    --fontwidth 0.7 --bgcolors '#123456'
compare total "$mem" "$TMP/alloc.folded" --ours "-t alloc_space" --check --total -- \
    --total 9000000000 --countname KB --factor 0.001
compare factor "$mem" "$TMP/alloc.folded" --ours "-t alloc_space" -- --factor 0.37 \
    --countname KB --colors aqua

# --- annotated names: language palettes, with and without --hash ----------------
cat >"$TMP/names.in" <<'EOF'
main;java/lang/Thread.run_[j];Ljava/util/HashMap.put 40
main;java/lang/Thread.run_[j];org/x/Y.z_[i] 30
main;Interpreter;com/a:::b 25
main;std::vector<int>::push_back;grow 35
main;do_sys_open_[k];vfs_read_[k] 20
main;perl_run;Perl_pp_entersub;/usr/lib/x.pl 15
main;node;/app/src/index.js:10;LazyCompile:*foo_[j] 30
main;node;Builtin:ArrayMap;v8::internal::Foo 12
main;node; ;x_[k]y 9
main;libc.so`malloc;`abc;ab` 14
main;été;日本語`x;a`b`c` 11
EOF
svgcheck pprof "$TMP/names.in" "$TMP/names.pb" || fail "cannot write names.pb"
"$FLAME" "$TMP/names.pb" >"$TMP/names.folded" || fail "folded names"
for p in hot java js perl wakeup purple; do
	compare "names-$p" "$TMP/names.pb" "$TMP/names.folded" -- --minwidth 0 --colors "$p"
	compare "names-$p-hash" "$TMP/names.pb" "$TMP/names.folded" -- --minwidth 0 \
	    --colors "$p" --hash
done
# chain: every stack has its "--" (flamegraph.pl adds one to stacks
# without, which we do not).
cat >"$TMP/chain.in" <<'EOF'
main;read;schedule;--;irq;wake_up 40
main;write;schedule;--;kworker;try_to_wake_up;-;x 30
main;write;schedule;--;kworker2;y;--;z 30
EOF
svgcheck pprof "$TMP/chain.in" "$TMP/chain.pb" || fail "cannot write chain.pb"
"$FLAME" "$TMP/chain.pb" >"$TMP/chain.folded" || fail "folded chain"
compare chain "$TMP/chain.pb" "$TMP/chain.folded" --check --chain -- --minwidth 0 --colors chain
compare chain-hash "$TMP/chain.pb" "$TMP/chain.folded" --check --chain -- --minwidth 0 \
    --colors chain --hash

# --- real tcmalloc and jemalloc profiles; differential ---------------------------
make_profiles
"$FLAME" "$TC_NEW" >"$TMP/tc.folded" || fail "folded tc"
compare tc "$TC_NEW" "$TMP/tc.folded" $b -- --colors java
compare tc-perl "$TC_NEW" "$TMP/tc.folded" $b -- --colors perl --hash --inverted
"$FLAME" --base "$TC_OLD" "$TC_NEW" >"$TMP/diff.folded" || fail "folded --base"
# flamegraph.pl's colours are ours with own changes and current widths.
d="--ours --self-diff --ours --diff-width --ours cur"
compare diff "$TC_NEW" "$TMP/diff.folded" $b $d --ours "--base $TC_OLD" -- --minwidth 0
compare negate "$TC_NEW" "$TMP/diff.folded" $b $d --check --negate --ours "--base $TC_OLD" -- --minwidth 0 --negate
if [ -n "$JE" ]; then
	"$FLAME" -t inuse_space "$JE" >"$TMP/je.folded" || fail "folded je"
	compare je "$JE" "$TMP/je.folded" $b --ours "-t inuse_space" -- --colors mem --minwidth 0
	compare je-js "$JE" "$TMP/je.folded" $b --ours "-t inuse_space" --check --reverse -- \
	    --colors js --reverse
else
	echo "note: libjemalloc.so.2 missing, jemalloc part not run" >&2
fi
echo "compared $compared frames with flamegraph.pl ($FG)" >&2
finish
