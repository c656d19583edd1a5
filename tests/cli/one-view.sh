# SPDX-License-Identifier: MIT
# one-view.sh - one profile shows the same stacks, names and totals in
# every command: show --summary's heaviest stack and top functions,
# profdiff's rows (from --json) and profflame's folded lines agree, on
# real profiles made now:
#   - a C++ program with templates, a lambda, an anonymous namespace and
#     members inlined into main, under tcmalloc's heap profiler;
#   - python3 under Debian's stripped libjemalloc (prof:true).
# Default names are pprof's simple ones; --demangle=full gives c++filt's.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "no python3 (to read JSON)"
SHOW="$PROFCONV show"
PROFDIFF=$CMD/profdiff
FLAME=$CMD/profflame

# The folded lines, heaviest first: "count<TAB>stack".
heaviest_folded() {
	"$FLAME" "$@" | awk '{n = $NF; sub(/ [^ ]*$/, ""); print n "\t" $0}' |
		sort -t "$(printf '\t')" -k1,1nr -k2,2 | head -n 1
}

# show --summary's heaviest stack, the same way.
heaviest_show() {
	$SHOW -s -n 1 "$@" | awk '/^top [0-9]+ stacks/ {getline;
	    n = $1; sub(/^ *-?[0-9]+ +[0-9.]+% /, ""); print n "\t" $0; exit}'
}

# Flat values per function from show --summary: "name<TAB>flat".
flat_show() {
	$SHOW -s -n 1000000 "$@" | awk '/^top [0-9]+ functions/ {f = 1; next}
	    f && $1 != 0 {v = $1; sub(/^ *-?[0-9]+ +[0-9.]+% +-?[0-9]+ +[0-9.-]+%? /, "");
	    print $0 "\t" v}' | sort
}

# Flat values per leaf frame, summed over the folded lines.
flat_folded() {
	"$FLAME" "$@" | awk '{n = $NF; sub(/ [^ ]*$/, ""); k = split($0, f, ";");
	    s[f[k]] += n} END {for (x in s) if (s[x] != 0) print x "\t" s[x]}' |
		sort
}

# Flat values per row from profdiff --json against an empty base: FIELD
# is a heap column (allocatedSize) or "values.TYPE".
flat_diff() {
	field=$1
	shift
	"$PROFDIFF" -q -o "$TMP/empty.pb.gz" "$@" "$@" ||
		{ fail "profdiff of a profile with itself differs"; return; }
	"$PROFDIFF" --json "$TMP/empty.pb.gz" "$@" >"$TMP/diff.json"
	python3 - "$field" "$TMP/diff.json" <<'PY' | sort
import json, sys
field, path = sys.argv[1], sys.argv[2]
d = json.load(open(path))
for r in d["rows"]:
    if field.startswith("values."):
        v = r["values"][field[7:]]["delta"]
    else:
        v = r[field]
    if v != 0:
        print("%s\t%d" % (r["name"], v))
PY
}

# check_agree LABEL TYPE DIFF-FIELD PROFILE [VIEW OPTIONS...]
check_agree() {
	label=$1 type=$2 field=$3
	shift 3
	hs=$(heaviest_show -t "$type" "$@")
	hf=$(heaviest_folded -t "$type" "$@")
	[ -n "$hs" ] || fail "$label: show --summary printed no stack"
	[ "$hs" = "$hf" ] || fail "$label: heaviest stack differs:
  show:      $hs
  profflame: $hf"
	flat_show -t "$type" "$@" >"$TMP/fs"
	flat_folded -t "$type" "$@" >"$TMP/ff"
	flat_diff "$field" "$@" >"$TMP/fd"
	[ -s "$TMP/fs" ] || fail "$label: no top functions"
	diff -u "$TMP/fs" "$TMP/ff" >&2 ||
		fail "$label: show's flat functions differ from profflame's leaves"
	diff -u "$TMP/fs" "$TMP/fd" >&2 ||
		fail "$label: show's flat functions differ from profdiff's rows"
	if grep -E '^lib(jemalloc|tcmalloc)[^	]*\+0x' "$TMP/fs" >&2; then
		fail "$label: an unsymbolized allocator frame is a top function"
	fi
}

ran=0

# --- C++ with templates under tcmalloc -------------------------------------
if command -v c++ >/dev/null 2>&1 && ldconfig -p | grep -q 'libtcmalloc\.so\.4'; then
	ran=1
	c++ -O2 -g -fno-omit-frame-pointer -o "$TMP/tprog" \
		"$PROFCONV_SRCDIR/tests/producers/templates.cc" -ltcmalloc ||
		fail "cannot build templates.cc"
	HEAPPROFILE=$TMP/t "$TMP/tprog" 20000 >/dev/null 2>&1
	cxx=$TMP/t.0001.heap
	[ -s "$cxx" ] || fail "tcmalloc wrote no heap profile"
	check_agree "C++/tcmalloc alloc_space" alloc_space allocatedSize "$cxx"
	check_agree "C++/tcmalloc alloc_objects" alloc_objects newCount "$cxx"
	check_agree "C++/tcmalloc inuse_space" inuse_space sizeDelta "$cxx"
	check_agree "C++/tcmalloc --demangle=full" alloc_space allocatedSize \
		"$cxx" --demangle=full
	check_agree "C++/tcmalloc --no-inline" alloc_space allocatedSize "$cxx" \
		--no-inline

	# Default names: pprof's simple form, no parameters or template
	# arguments anywhere.
	"$FLAME" -t alloc_space "$cxx" >"$TMP/simple"
	for name in 'app::Cache::put' 'app::Pool::grow' 'std::vector::push_back' \
	    '(anonymous namespace)::Maker::operator()'; do
		grep -q "$name;" "$TMP/simple" || fail "C++: no frame '$name'"
	done
	if grep -E '\((int|unsigned|char|std)|<(int|char|std)' "$TMP/simple" >&2; then
		fail "C++: default names keep parameters or template arguments"
	fi
	# --demangle=full: the demangler's text, as c++filt prints it.
	"$FLAME" -t alloc_space --demangle=full "$cxx" >"$TMP/full"
	mangled=$(nm "$TMP/tprog" | awk '$3 ~ /^_ZN3app5CacheI.*3putE/ {print $3; exit}')
	if [ -n "$mangled" ] && command -v c++filt >/dev/null 2>&1; then
		want=$(c++filt "$mangled")
		grep -qF ";$want;" "$TMP/full" ||
			fail "C++: --demangle=full lacks '$want'"
	fi
	# --demangle=none: the linker's names.
	"$FLAME" -t alloc_space --demangle=none "$cxx" >"$TMP/none"
	grep -q ';_ZN3app4Pool4growEm;' "$TMP/none" ||
		fail "C++: --demangle=none does not show the mangled name"
	# templates: template arguments kept, parameters dropped.
	"$FLAME" -t alloc_space --demangle=templates "$cxx" >"$TMP/tmpl"
	grep -q ';app::Cache<int, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > >::put;' "$TMP/tmpl" ||
		fail "C++: --demangle=templates lacks app::Cache<...>::put"
fi

# --- python3 under Debian's stripped libjemalloc ---------------------------
# Debian's own interpreter, not a wrapper script (pyenv's shims are bash,
# whose allocations would be profiled instead).
je=$(ldconfig -p | awk '/libjemalloc\.so\.2 / {print $NF; exit}')
if [ -n "$je" ] && [ -x /usr/bin/python3 ]; then
	ran=1
	mkdir "$TMP/py"
	LD_PRELOAD=$je MALLOC_CONF="prof:true,prof_final:true,lg_prof_sample:12,prof_prefix:$TMP/py/je" \
		/usr/bin/python3 -S -c '
keep = [[i] * 10 for i in range(20000)]
d = {i: str(i) * 3 for i in range(20000)}
' || fail "python3 under jemalloc failed"
	py=$(ls -S "$TMP"/py/je.*.heap 2>/dev/null | head -n 1)
	if [ -z "$py" ]; then
		fail "jemalloc wrote no heap profile (prof:true)"
	else
		check_agree "python3/jemalloc inuse_space" inuse_space \
			values.inuse_space "$py"
		check_agree "python3/jemalloc inuse_objects" inuse_objects \
			values.inuse_objects "$py"
		# The stripped allocator's frames are cut: no folded stack
		# ends inside libjemalloc.
		if "$FLAME" "$py" | grep -E 'libjemalloc[^;]*\+0x[0-9a-f]+ [0-9]+$' >&2; then
			fail "python3/jemalloc: a stack ends in libjemalloc"
		fi
		# CPython's allocation wrappers are cut like malloc: the
		# functions that called them end the stacks.
		"$FLAME" "$py" | grep -q ';PyList_New[; ]\|;list_new' ||
			fail "python3/jemalloc: no CPython allocation function"
		if "$FLAME" "$py" | grep -E ';_?PyObject_(Malloc|GC_New)[A-Za-z]* [0-9]+$' >&2; then
			fail "python3/jemalloc: a stack ends in a CPython allocation wrapper"
		fi
	fi
fi
[ "$ran" = 1 ] || skip "neither tcmalloc with a C++ compiler nor jemalloc"
finish
