# SPDX-License-Identifier: MIT
# parallel-read.sh - large real profiles read in chunks on several
# threads convert to the same bytes whatever the thread count: a jemalloc
# heap_v2 profile and a gperftools heap profiler dump of
# tests/producers/manystacks.c (tens of thousands of distinct stacks,
# several MB, so that chunk cuts move with -j), made now; plain, gzip,
# zstd and piped; with --threads; and the producers' own small profiles.
# A --max-input below the file's size fails the same way for every -j.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
PROG=$TMP/manystacks
cc -O1 -g -fno-omit-frame-pointer -o "$PROG" \
    "$PROFCONV_SRCDIR/tests/producers/manystacks.c" ||
	skip "cannot build tests/producers/manystacks.c"

use_some_allocator

# same_for_all_jobs FILE [OPTION...]: -j1 (the reference), -j2, -j3 and
# -j8 give the same bytes; and into a file (samples written while the
# text is read: profconv_profile_convert()) as to standard output (the
# profile read whole, then written).
same_for_all_jobs() {
	in=$1
	shift
	"$PROFCONV" text2pb -j 1 "$@" "$in" -o "$TMP/ref1.pb.gz" 2>"$TMP/err" ||
		{ fail "$in -j1 $*: $(cat "$TMP/err")"; return; }
	for j in 1 3; do
		"$PROFCONV" text2pb -j "$j" "$@" "$in" >"$TMP/whole.pb.gz" \
		    2>"$TMP/err" || { fail "$in -j$j $* >: $(cat "$TMP/err")"; continue; }
		cmp -s "$TMP/ref1.pb.gz" "$TMP/whole.pb.gz" ||
			fail "$in: -j$j $* to standard output differs from -o"
	done
	for j in 2 3 8; do
		"$PROFCONV" text2pb -j "$j" "$@" "$in" -o "$TMP/j.pb.gz" \
		    2>"$TMP/err" || { fail "$in -j$j $*: $(cat "$TMP/err")"; continue; }
		cmp -s "$TMP/ref1.pb.gz" "$TMP/j.pb.gz" ||
			fail "$in: -j$j $* differs from -j1"
	done
}

files=
if [ -n "$LIBJE" ]; then
	mkdir "$TMP/je"
	LD_PRELOAD=$LIBJE \
	MALLOC_CONF="prof:true,prof_final:true,prof_prefix:$TMP/je/je,lg_prof_sample:0,prof_accum:true" \
	    "$PROG" 65536 >/dev/null 2>"$TMP/je.err" ||
		fail "manystacks under jemalloc: $(cat "$TMP/je.err")"
	je=$(ls "$TMP"/je/je.*.heap | head -n 1)
	[ -s "$je" ] || fail "jemalloc wrote no profile"
	# Big enough that chunks differ between -j1 and -j3 (256 KiB each),
	# and that -j1 reads it in two rounds of 16 MiB (the samples of the
	# first are written while the second is parsed).
	[ "$(wc -c <"$je")" -gt 17000000 ] || fail "$je: smaller than expected"
	stacks=$(grep -c '^@' "$je")
	[ "$stacks" -gt 20000 ] || fail "$je: only $stacks backtraces"
	same_for_all_jobs "$je"
	same_for_all_jobs "$je" --threads
	# A write that fails (the file size limit, its signal ignored): one
	# line naming the output, exit 1, and neither the output nor a
	# temporary file left behind.
	mkdir "$TMP/small"
	(trap '' XFSZ; ulimit -f 1000 &&
	    exec "$PROFCONV" text2pb -j 1 --no-compress "$je" \
	    -o "$TMP/small/out.pb") 2>"$TMP/err"
	[ $? = 1 ] || fail "file size limit: exit status"
	expect_err "profconv text2pb: '$TMP/small/out.pb': write error: File too large"
	[ -z "$(ls -A "$TMP/small")" ] ||
		fail "file size limit: left $(ls -A "$TMP/small")"
	# Every backtrace with a t*: count is a sample.
	n=$("$PROFCONV" text2pb -j 3 "$je" -o - | "$PROFCONV" show -s - |
		sed -n 's/^samples: *\([0-9]*\).*/\1/p')
	[ "$n" -ge 20000 ] || fail "$je: $n samples"
	files="$files $je"
fi
if [ -n "$LIBTC" ]; then
	mkdir "$TMP/tc"
	HEAPPROFILE=$TMP/tc/h LD_PRELOAD=$LIBTC "$PROG" 20000 \
	    >/dev/null 2>"$TMP/tc.err" ||
		fail "manystacks under tcmalloc: $(cat "$TMP/tc.err")"
	tc=$(ls "$TMP"/tc/h.*.heap | tail -n 1)
	case $(head -n 1 "$tc") in
	"heap profile:"*heapprofile) ;;
	*) fail "$tc: not a heap profiler dump" ;;
	esac
	[ "$(grep -c ' @ ' "$tc")" -gt 2000 ] || fail "$tc: few buckets"
	same_for_all_jobs "$tc"
	files="$files $tc"
fi

for f in $files; do
	"$PROFCONV" text2pb -j 1 "$f" -o "$TMP/ref.pb.gz" || fail "$f"
	# Compressed and piped input is read a batch of chunks at a time.
	gzip -c "$f" >"$TMP/in.gz"
	same_for_all_jobs "$TMP/in.gz"
	cmp -s "$TMP/ref.pb.gz" "$TMP/j.pb.gz" || fail "$f: gzip input differs"
	if command -v zstd >/dev/null 2>&1; then
		zstd -q -c "$f" >"$TMP/in.zst"
		"$PROFCONV" text2pb -j 3 "$TMP/in.zst" -o "$TMP/j.pb.gz" ||
			fail "$f: zstd"
		cmp -s "$TMP/ref.pb.gz" "$TMP/j.pb.gz" ||
			fail "$f: zstd input differs"
	fi
	for j in 1 3; do
		# Standard input from the file, and from a pipe.
		"$PROFCONV" text2pb -j "$j" - -o "$TMP/j.pb.gz" <"$f" ||
			fail "$f: stdin -j$j"
		cmp -s "$TMP/ref.pb.gz" "$TMP/j.pb.gz" ||
			fail "$f: standard input -j$j differs"
		cat "$f" | "$PROFCONV" text2pb -j "$j" - -o "$TMP/j.pb.gz" ||
			fail "$f: pipe -j$j"
		cmp -s "$TMP/ref.pb.gz" "$TMP/j.pb.gz" ||
			fail "$f: piped input -j$j differs"
	done
	# A limit below the size: the same one-line error for every -j.
	for j in 1 2 8; do
		run 1 "$PROFCONV" text2pb -j "$j" --max-input 100000 "$f" \
		    -o "$TMP/lim.pb.gz"
		expect_err "profconv text2pb: '$f': input exceeds the limit of 100000 bytes"
		[ ! -e "$TMP/lim.pb.gz" ] || fail "partial output with -j$j"
	done
	# The same bad line near the end is the same error for every -j:
	# the last stack line's.
	bad=$(grep -n '@' "$f" | tail -n 1 | cut -d: -f1)
	sed "${bad}s/.*/this is not a profile line/" "$f" >"$TMP/bad.heap"
	run 1 "$PROFCONV" text2pb -j 1 "$TMP/bad.heap" -o "$TMP/bad.pb.gz"
	cp "$TMP/err" "$TMP/err1"
	grep -q "line $bad: " "$TMP/err1" || fail "$f: no 'line $bad' in: $(cat "$TMP/err1")"
	for j in 2 3 8; do
		run 1 "$PROFCONV" text2pb -j "$j" "$TMP/bad.heap" -o "$TMP/bad.pb.gz"
		cmp -s "$TMP/err1" "$TMP/err" ||
			fail "$f: -j$j error '$(cat "$TMP/err")' is not '$(cat "$TMP/err1")'"
	done
done

# The producers' small profiles (one chunk each) too.
for f in "$DATA"/*.heap "$DATA"/*/*.heap; do
	[ -f "$f" ] || continue
	"$PROFCONV" text2pb -j 1 "$f" -o "$TMP/ref.pb.gz" 2>/dev/null || continue
	"$PROFCONV" text2pb -j 3 "$f" -o "$TMP/j.pb.gz" ||
		fail "$f: -j3 fails where -j1 does not"
	cmp -s "$TMP/ref.pb.gz" "$TMP/j.pb.gz" || fail "$f: -j3 differs"
done
finish
