# SPDX-License-Identifier: MIT
# unnamed-binaries.sh - the commands that symbolize on the fly (show,
# profdiff, profflame, proftrend) say in one stderr line how many
# locations stayed unnamed and why, per binary (not found, stripped,
# another build), and take --search-path, --sysroot and --debuginfo-path
# to be pointed at the binaries (issue 30 item 5).  On a real tcmalloc
# heap profile of examples/leaky.c, made now.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
command -v objcopy >/dev/null 2>&1 || skip "no objcopy"
use_tcmalloc
export LC_ALL=C

mkdir -p "$TMP/app" "$TMP/moved" "$TMP/root" "$TMP/dbg"
prog=$TMP/app/leaky
cc -O1 -g -fno-omit-frame-pointer -o "$prog" "$PROFCONV_SRCDIR/examples/leaky.c" ||
	skip "cannot build examples/leaky.c"
HEAPPROFILE=$TMP/h HEAP_PROFILE_ALLOCATION_INTERVAL=1048576 LD_PRELOAD=$LIBTC \
    "$prog" 20000 >/dev/null 2>&1 || fail "leaky failed"
set -- "$TMP"/h.*.heap
[ $# -ge 2 ] || skip "fewer than two heap dumps"
old=$1
eval "new=\${$#}"

# run NAME CMD...: stdout to NAME.out, stderr to NAME.err; status kept.
run() {
	name=$1
	shift
	"$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
}
# warning NAME: the one "have no name" line of NAME.err (fails on more).
warning() {
	n=$(grep -c 'locations have no name' "$TMP/$1.err")
	[ "$n" -le 1 ] || fail "$1: $n lines about unnamed locations"
	grep 'locations have no name' "$TMP/$1.err"
}

# 1. All there: no line names leaky (tcmalloc's own library may be
# stripped; that is its own entry).
run found "$CMD/profconv" show -s "$new" || fail "show found"
warning found | grep -q "'$prog'" && fail "found: leaky reported: $(warning found)"
grep -q 'remember' "$TMP/found.out" || fail "found: no remember in show -s"

# 2. The binary gone: one line per command, naming it as not found,
# however many profiles the command read.
mv "$prog" "$TMP/moved/leaky"
for cmd in "profconv show -s $new" "profflame $new" "profdiff $old $new" \
    "proftrend $old $new"; do
	name=$(echo "$cmd" | cut -d' ' -f1)
	shown=$name
	[ "$name" = profconv ] && shown="profconv show"
	# shellcheck disable=SC2086
	run "$name" "$CMD"/$cmd
	# profdiff and proftrend exit 1 for a difference, a suspect.
	[ $? -le 1 ] || fail "$name: failed without the binary: $(cat "$TMP/$name.err")"
	w=$(warning "$name")
	echo "$w" | grep -Eq "^$shown: warning: [0-9]+ of [0-9]+ locations have no name: .*[0-9]+ in '$prog' \\(not found\\)" ||
		fail "$name: no 'not found' line for leaky: $(cat "$TMP/$name.err")"
done
grep -q 'remember' "$TMP/profconv.out" && fail "show -s names remember without the binary"

# 3. Pointed at it: --search-path (by base name), --sysroot (the mapped
# path under a root).
for how in "--search-path $TMP/moved" "--sysroot $TMP/root"; do
	mkdir -p "$TMP/root$TMP/app"
	cp "$TMP/moved/leaky" "$TMP/root$TMP/app/leaky"
	# shellcheck disable=SC2086
	run pointed "$CMD/profconv" show -s $how "$new" || fail "show $how"
	grep -q 'remember' "$TMP/pointed.out" || fail "show $how: remember not named"
	warning pointed | grep -q "leaky'" && fail "show $how: leaky still reported"
	# shellcheck disable=SC2086
	run pointed "$CMD/profflame" $how "$new" || fail "profflame $how"
	grep -q 'remember' "$TMP/pointed.out" || fail "profflame $how: remember not named"
done
rm -rf "$TMP/root"

# 4. Stripped in place: found, but no symbols; with its debug info in a
# --debuginfo-path directory (found through its .gnu_debuglink), named.
objcopy --only-keep-debug "$TMP/moved/leaky" "$TMP/dbg/leaky.debug"
objcopy --strip-all --add-gnu-debuglink="$TMP/dbg/leaky.debug" \
    "$TMP/moved/leaky" "$prog"
run stripped "$CMD/profconv" show -s "$new" || fail "show stripped"
warning stripped | grep -q "in '$prog' (no symbols there; stripped?)" ||
	fail "stripped: not reported: $(cat "$TMP/stripped.err")"
mv "$TMP/dbg/leaky.debug" "$TMP/dbg/elsewhere.debug" 2>/dev/null
mkdir -p "$TMP/dbgdir"
mv "$TMP/dbg/elsewhere.debug" "$TMP/dbgdir/leaky.debug"
run debug "$CMD/profconv" show -s --debuginfo-path "$TMP/dbgdir" "$new" ||
	fail "show --debuginfo-path"
grep -q 'remember' "$TMP/debug.out" || fail "--debuginfo-path: remember not named"
warning debug | grep -q "'$prog'" && fail "--debuginfo-path: leaky still reported"

# 5. Another build at the path, by layout: the profile's mapping of
# leaky moved to a file offset no segment of it holds.
cp "$TMP/moved/leaky" "$prog"
awk -v p="$prog" '$NF == p && $2 ~ /x/ { $3 = "7f000000" } { print }' "$new" >"$TMP/other.heap"
grep -q ' 7f000000 ' "$TMP/other.heap" || fail "could not rewrite the mapping"
run other "$CMD/profconv" show -s "$TMP/other.heap" || fail "show other"
warning other | grep -q "in '$prog' (its segments do not match the mapping; another build?)" ||
	fail "layout: not reported: $(cat "$TMP/other.err")"

# 6. --no-symbolize: nothing looked up, nothing said.
run nosym "$CMD/profconv" show -s --no-symbolize "$new" || fail "show --no-symbolize"
[ -z "$(warning nosym)" ] || fail "--no-symbolize: $(cat "$TMP/nosym.err")"

finish
