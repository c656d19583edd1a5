# SPDX-License-Identifier: MIT
# real-diff-flame.sh - profdiff and profflame on real allocator output
# made now from examples/leaky.c, whose leaks are known exactly:
#   make_request_buffer leaks 1024 bytes for every 10th request,
#   remember keeps a 248-byte node for every 3rd request,
#   scratch_work frees everything it allocates.
# Two runs under tcmalloc (ASLR: different addresses) must show exactly
# those deltas, cancel the rest, and agree with go tool pprof -base; two
# jemalloc interval dumps of one process must subtract stack by stack.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
PROFDIFF=$CMD/profdiff
FLAME=$CMD/profflame
src=$PROFCONV_SRCDIR/examples/leaky.c

total() {
	"$PROFCONV" show -s "$2" | sed -n "s/^total $1\/[a-z]*: \(-*[0-9]*\).*/\1/p"
}

# --- tcmalloc: two runs, 10000 and 20000 requests ---------------------------
if [ -e /usr/lib/x86_64-linux-gnu/libtcmalloc.so ] || ldconfig -p | grep -q libtcmalloc.so; then
	cc -O1 -g -fno-omit-frame-pointer -o "$TMP/leaky-tc" "$src" -ltcmalloc ||
		fail "cannot build leaky with tcmalloc"
	HEAPPROFILE=$TMP/a "$TMP/leaky-tc" 10000 2>/dev/null
	HEAPPROFILE=$TMP/b "$TMP/leaky-tc" 20000 2>/dev/null
	a=$TMP/a.0001.heap
	b=$TMP/b.0001.heap
	run 1 "$PROFDIFF" --leaks --bytes "$a" "$b"
	cat >"$TMP/want" <<'WANT'
           1000              0           1000        1024000              0        1024000  make_request_buffer
           3333              0           3333         826584              0         826584  remember
           4333              0           4333        1850584              0        1850584  TOTAL
WANT
	grep -v '^ *New ' "$TMP/out" | diff -u "$TMP/want" - >&2 ||
		fail "tcmalloc: leak view differs from the known leaks"
	# Everything scratch_work allocated was freed: it cancels in use.
	run 1 "$PROFDIFF" --bytes "$a" "$b"
	grep -Eq '^ +10000 +10000 +0 +[0-9]+ +[0-9]+ +0  scratch_work$' "$TMP/out" ||
		fail "tcmalloc: scratch_work does not cancel: $(grep scratch "$TMP/out")"
	# Root-first stacks, named through on-the-fly symbolization.
	run 0 "$FLAME" -t inuse_space "$b"
	grep -q '^_start;.*main;handle_request;make_request_buffer 2048000$' "$TMP/out" ||
		fail "tcmalloc: no root-first make_request_buffer stack"
	awk -f "$PROFCONV_SRCDIR/tests/cli/folded-check.awk" "$TMP/out" >/dev/null ||
		fail "tcmalloc: malformed folded output"
	# Interval dumps of one process (HEAP_PROFILE_ALLOCATION_INTERVAL).
	HEAPPROFILE=$TMP/iv HEAP_PROFILE_ALLOCATION_INTERVAL=4000000 \
		"$TMP/leaky-tc" 20000 2>/dev/null
	i1=$(ls "$TMP"/iv.*.heap | sort | head -n 1)
	i2=$(ls "$TMP"/iv.*.heap | sort | tail -n 1)
	[ "$i1" != "$i2" ] || fail "tcmalloc wrote no interval dumps"
	run 1 "$PROFDIFF" -q --no-symbolize -o "$TMP/ivd.pb.gz" "$i1" "$i2"
	for t in alloc_objects alloc_space inuse_objects inuse_space; do
		want=$(( $(total $t "$i2") - $(total $t "$i1") ))
		[ "$(total $t "$TMP/ivd.pb.gz")" = "$want" ] ||
			fail "tcmalloc intervals $t: delta != $want"
	done
	if command -v go >/dev/null 2>&1; then
		go_env
		for pair in "$a $b" "$i1 $i2"; do
			set -- $pair
			run 1 "$PROFDIFF" -q --no-symbolize -o "$TMP/delta.pb.gz" "$1" "$2"
			go tool pprof -raw -symbolize=none "$TMP/delta.pb.gz" >"$TMP/ours" 2>/dev/null
			go tool pprof -raw -symbolize=none -base "$1" "$2" >"$TMP/theirs" 2>/dev/null
			[ -s "$TMP/theirs" ] && diff -u "$TMP/theirs" "$TMP/ours" >&2 ||
				fail "tcmalloc: delta of $2 differs from go tool pprof -base"
		done
	fi
else
	echo "libtcmalloc not installed: tcmalloc part skipped" >&2
fi

# --- jemalloc: interval dumps of one process --------------------------------
je=$(find_lib libjemalloc.so.2)
if [ -n "$je" ]; then
	cc -O1 -g -fno-omit-frame-pointer -o "$TMP/leaky-je" "$src" ||
		fail "cannot build leaky"
	LD_PRELOAD=$je MALLOC_CONF=prof:true,prof_accum:true,lg_prof_sample:0,lg_prof_interval:21,prof_prefix:$TMP/je \
		"$TMP/leaky-je" 20000 2>/dev/null
	first=$(ls "$TMP"/je.*.i0.heap 2>/dev/null | head -n 1)
	last=$(ls "$TMP"/je.*.i*.heap 2>/dev/null | sed 's/.*\.i\([0-9]*\)\.heap$/\1 &/' |
		sort -n | tail -n 1 | cut -d' ' -f2)
	if [ -z "$first" ] || [ "$first" = "$last" ]; then
		fail "jemalloc wrote no interval dumps"
	else
		run 1 "$PROFDIFF" -q -o "$TMP/jd.pb.gz" "$first" "$last"
		for t in alloc_objects alloc_space inuse_objects inuse_space; do
			want=$(( $(total $t "$last") - $(total $t "$first") ))
			got=$(total $t "$TMP/jd.pb.gz")
			[ "$got" = "$want" ] || fail "jemalloc $t: delta $got != $want"
		done
		run 1 "$PROFDIFF" --bytes "$first" "$last"
		grep -q ' make_request_buffer$' "$TMP/out" &&
			grep -q ' remember$' "$TMP/out" ||
			fail "jemalloc: leaking functions not named: $(cat "$TMP/out")"
		grep -q 'libjemalloc' "$TMP/out" &&
			fail "jemalloc: allocator frames name rows"
		run 0 "$FLAME" -t inuse_space "$last"
		grep -q '^_start;.*main;handle_request;remember [0-9]*$' "$TMP/out" ||
			fail "jemalloc: no root-first remember stack"
		grep -q 'libjemalloc' "$TMP/out" &&
			fail "jemalloc: allocator frames left in folded stacks"
	fi
else
	echo "libjemalloc not installed: jemalloc part skipped" >&2
fi
finish
