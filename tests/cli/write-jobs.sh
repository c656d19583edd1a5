# SPDX-License-Identifier: MIT
# write-jobs.sh - a large real profile written on 1, 2, 3 and 8 threads
# is the same bytes each time, at every compression level: a jemalloc
# profile of tests/producers/paths.c (2^17 call paths, ~4 MB of pprof,
# so several 1 MiB gzip members) is symbolized, then written again by
# text2pb with -j N.
# gzip -d, go tool pprof and profconv itself read every output, and
# all agree with the uncompressed one.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
use_go
command -v gzip >/dev/null 2>&1 || skip "gzip not installed"
use_jemalloc

PROG=$TMP/paths
cc -O1 -g -fno-omit-frame-pointer -o "$PROG" \
    "$PROFCONV_SRCDIR/tests/producers/paths.c" || fail "cannot build paths.c"
mkdir "$TMP/je"
LD_PRELOAD=$LIBJE \
MALLOC_CONF="prof:true,prof_final:true,lg_prof_sample:0,prof_accum:true,prof_prefix:$TMP/je/je" \
    "$PROG" 17 >/dev/null 2>"$TMP/paths.err" || fail "paths: $(cat "$TMP/paths.err")"
heap=$(ls "$TMP"/je/je.*.heap 2>/dev/null | head -n 1)
[ -n "$heap" ] || { fail "jemalloc wrote no profile"; finish; }

# The reference: symbolized, uncompressed, one thread.
run 0 "$PROFCONV" symbolize -j 1 --no-compress -o "$TMP/ref.pb" "$heap"
size=$(wc -c <"$TMP/ref.pb")
[ "$size" -gt 3145728 ] || fail "the profile is too small to span several members ($size bytes)"
"$PROFCONV" show "$TMP/ref.pb" >"$TMP/ref.show" || fail "show ref.pb"
grep -q 'left' "$TMP/ref.show" || fail "ref.pb is not symbolized"
go tool pprof -raw -symbolize=none "$TMP/ref.pb" >"$TMP/ref.raw" 2>"$TMP/go.err" ||
	fail "go tool pprof cannot read ref.pb: $(cat "$TMP/go.err")"

for level in default 0 1 6 9; do
	case $level in
	default) opt= ;;
	0) opt=--no-compress ;;
	*) opt="--level $level" ;;
	esac
	for j in 1 2 3 8; do
		out=$TMP/out.$level.$j.pb
		# shellcheck disable=SC2086
		run 0 "$PROFCONV" text2pb -j "$j" $opt -o "$out" "$TMP/ref.pb"
		[ "$j" = 1 ] && continue
		cmp -s "$TMP/out.$level.1.pb" "$out" ||
			fail "level $level: -j $j wrote other bytes than -j 1"
	done
	out=$TMP/out.$level.1.pb
	if [ "$level" = 0 ]; then
		cmp -s "$TMP/ref.pb" "$out" || fail "--no-compress differs from ref.pb"
		continue
	fi
	gzip -t "$out" 2>"$TMP/gz.err" || fail "level $level: gzip -t: $(cat "$TMP/gz.err")"
	gzip -dc "$out" | cmp -s - "$TMP/ref.pb" ||
		fail "level $level: gzip -d of the output is not the uncompressed output"
	go tool pprof -raw -symbolize=none "$out" >"$TMP/out.raw" 2>"$TMP/go.err" ||
		fail "level $level: go tool pprof cannot read it: $(cat "$TMP/go.err")"
	cmp -s "$TMP/ref.raw" "$TMP/out.raw" ||
		fail "level $level: go tool pprof -raw differs from the uncompressed output's"
	"$PROFCONV" show "$out" >"$TMP/out.show" || fail "level $level: show"
	cmp -s "$TMP/ref.show" "$TMP/out.show" ||
		fail "level $level: profconv show differs from the uncompressed output's"
done

# The level is heeded (which is smaller depends on the data).
cmp -s "$TMP/out.1.1.pb" "$TMP/out.9.1.pb" && fail "levels 1 and 9 wrote the same bytes"
finish
