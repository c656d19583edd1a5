# SPDX-License-Identifier: MIT
# pictures-lib.sh - shared setup of the picture tests (svg.sh,
# svg-browser.sh, speedscope.sh); sourced after lib.sh, never run.
#
# make_profiles: real heap profiles of tests/producers/pictures.cc, made
# now, symbolized (inline frames included):
#   $TC_OLD, $TC_NEW   tcmalloc heap profiler exit dumps of two runs
#                      (MODE 0 and 1: a differential pair)
#   $JE                a jemalloc profile (every allocation sampled), or ""
#                      when libjemalloc.so.2 is missing
# Skips (77) when there is no C++ compiler or no tcmalloc.

CHECK_PY=$PROFCONV_SRCDIR/tests/cli/svg-check.py
command -v python3 >/dev/null 2>&1 || skip "python3 missing (Debian: python3)"
svgcheck() { python3 "$CHECK_PY" "$@"; }

make_profiles() {
	command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
	[ -e /usr/include/gperftools/heap-profiler.h ] ||
		skip "libgoogle-perftools-dev missing"
	src=$PROFCONV_SRCDIR/tests/producers/pictures.cc
	g++ -O2 -g -fno-omit-frame-pointer -o "$TMP/pic-tc" "$src" -ltcmalloc ||
		skip "cannot build $src with tcmalloc"
	mkdir -p "$TMP/tc"
	HEAPPROFILE=$TMP/tc/old "$TMP/pic-tc" 3000 0 2>/dev/null ||
		fail "producer run 1 failed"
	HEAPPROFILE=$TMP/tc/new "$TMP/pic-tc" 3000 1 2>/dev/null ||
		fail "producer run 2 failed"
	"$PROFCONV" symbolize -o "$TMP/tc-old.pb.gz" "$TMP/tc/old.0001.heap" 2>"$TMP/sym.err" ||
		fail "symbolize old"
	"$PROFCONV" symbolize -o "$TMP/tc-new.pb.gz" "$TMP/tc/new.0001.heap" 2>"$TMP/sym.err" ||
		fail "symbolize new"
	TC_OLD=$TMP/tc-old.pb.gz
	TC_NEW=$TMP/tc-new.pb.gz
	JE=
	libje=
	for f in $(ldconfig -p 2>/dev/null | awk '/libjemalloc\.so\.2 / {print $NF}') \
	    /usr/lib/*/libjemalloc.so.2; do
		[ -f "$f" ] && { libje=$f; break; }
	done
	[ -n "$libje" ] || return 0
	g++ -O2 -g -fno-omit-frame-pointer -o "$TMP/pic-je" "$src" ||
		{ fail "cannot build $src"; return 0; }
	mkdir -p "$TMP/je"
	LD_PRELOAD=$libje \
	MALLOC_CONF="prof:true,prof_final:true,lg_prof_sample:0,prof_prefix:$TMP/je/je" \
	    "$TMP/pic-je" 3000 0 2>/dev/null || fail "jemalloc run failed"
	set -- "$TMP"/je/je.*.heap
	[ -f "$1" ] || { fail "jemalloc wrote no profile"; return 0; }
	"$PROFCONV" symbolize -o "$TMP/je.pb.gz" "$1" 2>"$TMP/sym.err" || fail "symbolize jemalloc"
	JE=$TMP/je.pb.gz
}

# show_total TYPE FILE: the profile's total of TYPE, as profconv show says.
show_total() {
	"$PROFCONV" show -s "$2" | sed -n "s/^total $1\/[a-z]*: \(-*[0-9]*\).*/\1/p"
}
