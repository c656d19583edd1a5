# SPDX-License-Identifier: MIT
# names-pprof.sh - function names as go tool pprof shows them.  A C++
# program with templates, operators and lambdas runs under tcmalloc's heap
# profiler; profconv symbolizes the dump keeping the linker's names
# (--demangle=none), and then every name profconv shows in the default
# (simple) mode for a mangled function must be one that go tool pprof
# -symbolize=local:demangle=simple shows for the same file.  (pprof's
# templates mode is no oracle: Go 1.19's demangler gives no name at all
# for members of templates with ABI tags.)
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
use_go
need_tcmalloc

prog=$TMP/names
g++ -O1 -g -fno-omit-frame-pointer -o "$prog" \
	"$PROFCONV_SRCDIR/tests/producers/names.cc" -ltcmalloc ||
	{ fail "cannot build the producer"; finish; }
HEAPPROFILE=$TMP/h "$prog" 2>/dev/null || fail "producer failed"
dump=$(ls "$TMP"/h.*.heap | tail -n 1)
run 0 "$PROFCONV" symbolize --demangle=none -o "$TMP/sym.pb.gz" "$dump"

# functions MODE: "id<TAB>name" of every function, as profconv shows it.
functions() {
	"$PROFCONV" show --demangle="$1" "$TMP/sym.pb.gz" |
		sed -n '/^functions:/,/^mappings:/s/^ *\([0-9]*\): \(.*\) \[[^]]*\] .*$/\1	\2/p'
}
functions none >"$TMP/none" || fail "show --demangle=none failed"
functions simple >"$TMP/simple" || fail "show --demangle=simple failed"
# Ours, for the functions with a mangled linker name.
awk -F '\t' 'NR == FNR { if ($2 ~ /^_Z/) z[$1] = 1; next }
	($1 in z) { print $2 }' "$TMP/none" "$TMP/simple" | sort -u >"$TMP/ours"
[ "$(wc -l <"$TMP/ours")" -ge 12 ] ||
	fail "too few mangled functions symbolized: $(cat "$TMP/ours")"
for want in 'app::Box::operator<' 'operator<' 'operator<<' 'operator>' first; do
	grep -qxF -- "$want" "$TMP/ours" ||
		fail "'$want' is missing from: $(cat "$TMP/ours")"
done

go tool pprof -traces -symbolize=local:demangle=simple "$TMP/sym.pb.gz" \
	>"$TMP/traces" 2>"$TMP/pprof.err" ||
	fail "go tool pprof failed: $(cat "$TMP/pprof.err")"
# Frame lines: the name after the value column, less " (inline)".
sed -n 's/^ *//; s/^[0-9][0-9.]*[kMGT]\{0,1\}B\{0,1\}  *//; /^-\|^File:\|^Build ID:\|^Type:\|^bytes:/d; s/ (inline)$//; p' \
	"$TMP/traces" | sort -u >"$TMP/pprof"
# Names the file's drop_frames matches (the allocation wrappers profconv
# writes there, such as std::allocator::allocate) pprof cuts by design.
drop=$("$PROFCONV" show "$TMP/sym.pb.gz" | sed -n 's/^drop frames: //p')
grep -vxE -- "($drop)" "$TMP/ours" >"$TMP/ours-kept"
[ "$(wc -l <"$TMP/ours-kept")" -ge 10 ] ||
	fail "too few names left to compare: $(cat "$TMP/ours-kept")"
while IFS= read -r name; do
	grep -qxF -- "$name" "$TMP/pprof" ||
		fail "profconv shows '$name', which go tool pprof does not"
done <"$TMP/ours-kept"
[ "$failures" -eq 0 ] || { echo "pprof's names:" >&2; cat "$TMP/pprof" >&2; }
finish
