# SPDX-License-Identifier: MIT
# warning-floods.sh - a series of cut dumps gets one warning line, not
# one a file, the same on every run (the first file by name, whatever
# order the reader threads finish in), and proftrend -q prints nothing.
# The dumps are real: tests/producers/threadleak.c under LD_PRELOAD'ed
# libjemalloc, each cut in its memory map.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
use_jemalloc
cc -O1 -g -fno-omit-frame-pointer -pthread -o "$TMP/threadleak" \
    "$PROFCONV_SRCDIR/tests/producers/threadleak.c" -ldl ||
	skip "cannot build tests/producers/threadleak.c"
mkdir "$TMP/je" "$TMP/cut"
LD_PRELOAD=$LIBJE MALLOC_CONF="prof:true,lg_prof_sample:0,prof_prefix:$TMP/je/je" \
    "$TMP/threadleak" 8 2>"$TMP/run.err" ||
	fail "threadleak under jemalloc: $(cat "$TMP/run.err")"
n=0
for f in "$TMP"/je/je.*.m*.heap; do
	n=$((n + 1))
	# Cut in the memory map, mid-line.
	len=$(($(grep -b -m 1 '^MAPPED_LIBRARIES:' "$f" | cut -d: -f1) + 100))
	head -c "$len" "$f" >"$TMP/cut/d$n.heap"
done
[ "$n" -ge 4 ] || { fail "threadleak wrote $n dumps"; finish; }
set -- "$TMP"/cut/d*.heap
for i in 1 2 3; do
	"$CMD/proftrend" -j 2 "$@" >/dev/null 2>"$TMP/err$i"
	[ $? -le 1 ] || fail "proftrend over cut dumps: $(cat "$TMP/err$i")"
done
c=$(grep -c 'cut short' "$TMP/err1")
[ "$c" = 1 ] || fail "$c 'cut short' lines for $n cut dumps: $(cat "$TMP/err1")"
grep -q "^proftrend: warning: $n dumps were cut short; the first by name, '$TMP/cut/d1.heap': " "$TMP/err1" ||
	fail "the line does not count the dumps and name the first: $(cat "$TMP/err1")"
cmp -s "$TMP/err1" "$TMP/err2" && cmp -s "$TMP/err1" "$TMP/err3" ||
	fail "the warnings differ from run to run"
"$CMD/proftrend" -q "$@" >"$TMP/qout" 2>"$TMP/qerr"
[ $? -le 1 ] || fail "proftrend -q"
[ -s "$TMP/qout" ] || [ -s "$TMP/qerr" ] && fail "proftrend -q printed: $(cat "$TMP/qout" "$TMP/qerr")"
# One file alone still gets its own line.
"$CMD/proftrend" "$TMP/cut/d1.heap" "$TMP/je/$(ls "$TMP/je" | head -n 1)" >/dev/null 2>"$TMP/one"
grep -q "^proftrend: warning: '$TMP/cut/d1.heap': .*cut short" "$TMP/one" ||
	fail "one cut dump: $(cat "$TMP/one")"
finish
