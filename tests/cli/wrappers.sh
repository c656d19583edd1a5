# SPDX-License-Identifier: MIT
# wrappers.sh - allocation wrappers and pprof's frame filters on a real
# profile.  tests/producers/wrappers.c allocates through xmalloc and
# xstrdup (GCC's and git's wrappers) and a pool function of its own; run
# under LD_PRELOAD'ed libjemalloc (else libtcmalloc), converted by
# text2pb and symbolize.  By default the view cuts the wrappers like
# malloc, and so does go tool pprof on the written file; --no-wrappers
# keeps them; --hide, --show, --show-from and --prune-from give the same
# functions and flat values as go tool pprof's -hide, -show, -show_from
# and -prune_from on the same file, in every command's view.
# profconv(1) lists the wrappers the written file names.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pprof-top-lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
use_go
use_some_allocator

PROG=$TMP/wrappers
cc -O1 -g -fno-omit-frame-pointer -o "$PROG" \
    "$PROFCONV_SRCDIR/tests/producers/wrappers.c" ||
	skip "cannot build tests/producers/wrappers.c"
if [ -n "$LIBJE" ]; then
	LD_PRELOAD=$LIBJE \
	MALLOC_CONF="prof:true,lg_prof_sample:0,prof_final:true,prof_prefix:$TMP/je" \
	    "$PROG" 2000 || fail "wrappers under jemalloc failed"
	cp "$(ls "$TMP"/je.*.heap | tail -n 1)" "$TMP/w.heap"
elif [ -n "$LIBTC" ]; then
	LD_PRELOAD=$LIBTC HEAPPROFILE=$TMP/tc "$PROG" 2000 2>/dev/null ||
		fail "wrappers under tcmalloc failed"
	cp "$(ls "$TMP"/tc.*.heap | tail -n 1)" "$TMP/w.heap"
fi
"$PROFCONV" text2pb "$TMP/w.heap" -o "$TMP/w.pb.gz" || fail "text2pb"
"$PROFCONV" symbolize --quiet "$TMP/w.pb.gz" -o "$TMP/w.sym.pb.gz" 2>/dev/null ||
	fail "symbolize"
W=$TMP/w.sym.pb.gz

# Default: the wrappers are cut, here and in go tool pprof.
agree "default" "$W" inuse_space -symbolize=none --
ours_flat "$W" inuse_space >"$TMP/default"
for f in parse_config copy_names pool_alloc; do
	grep -q "^$f	" "$TMP/default" || fail "default: $f is no top function"
done
if grep -E '^(xmalloc|xstrdup)	' "$TMP/default" >&2; then
	fail "default: a wrapper is a top function"
fi
# --no-wrappers: xmalloc (which xstrdup calls) holds what its callers did.
ours_flat "$W" inuse_space --no-wrappers >"$TMP/kept"
x=$(awk -F'\t' '$1 == "xmalloc" {print $2}' "$TMP/kept")
pc=$(awk -F'\t' '$1 == "parse_config" || $1 == "pool_alloc" ||
	$1 == "copy_names" {s += $2} END {print s + 0}' "$TMP/default")
[ "${x:-0}" = "$pc" ] ||
	fail "--no-wrappers: xmalloc holds '$x', its callers held $pc"
"$PROFCONV" show -s -n 1000 --no-wrappers "$W" | grep -q ' xstrdup$' ||
	fail "--no-wrappers: no xstrdup row"

# pprof's frame filters, against go tool pprof on the same file.
agree "hide" "$W" inuse_space -symbolize=none -hide pool_alloc -- --hide pool_alloc
grep -q '^build_index	' "$TMP/go.top" || fail "hide: build_index is no top function"
agree "show" "$W" inuse_space -symbolize=none -show 'main|_config|index' -- \
    --show 'main|_config|index'
agree "show_from" "$W" inuse_space -symbolize=none -show_from 'build_index|copy' -- \
    --show-from 'build_index|copy'
agree "prune_from" "$W" inuse_space -symbolize=none -prune_from '^build' -- \
    --prune-from '^build'
agree "prune_from+hide" "$W" inuse_objects -symbolize=none -prune_from 'handle|main' \
    -hide '^_start$' -- --prune-from 'handle|main' --hide '^_start$'
# The keep totals: show-from drops the stacks without a match.
t=$("$PROFCONV" show -s --show-from build_index "$W" |
	sed -n 's/^total inuse_space\/bytes: \([0-9]*\).*/\1/p')
b=$(awk -F'\t' '$1 == "pool_alloc" {print $2}' "$TMP/default")
[ "$t" = "$b" ] || fail "--show-from build_index keeps $t bytes, not pool_alloc's $b"

# Every command's view takes them.
"$CMD/profflame" --prune-from '^build' "$W" >"$TMP/folded" || fail "profflame --prune-from"
grep -q ';build_index [0-9]*$' "$TMP/folded" || fail "profflame --prune-from: no stack ends in build_index"
"$CMD/profdiff" --no-wrappers "$TMP/w.heap" "$W" >/dev/null 2>&1
[ $? -le 1 ] || fail "profdiff --no-wrappers"
"$CMD/proftrend" --hide pool_alloc "$TMP/w.heap" "$W" >/dev/null 2>&1
[ $? -le 1 ] || fail "proftrend --hide"
run 2 "$PROFCONV" show -s --hide '(' "$W"

# The list profconv(1) prints is the one the written file names.
man_list=$(sed -n '/well-known allocation wrappers that the commands/,/^\.Ed/p' \
    "$MANDIR/profconv.1" | sed -n '/^\.Bd/,/^\.Ed/{/^\./d;p}' |
	tr -d '\n' | sed 's/\\e/\\/g')
[ -n "$man_list" ] || fail "no wrapper list in profconv(1)"
"$PROFCONV" show "$W" | grep '^drop frames: ' | grep -qF -- "|$man_list" ||
	fail "profconv(1)'s wrapper list is not the one written: $man_list"
finish
