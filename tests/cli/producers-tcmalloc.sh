# SPDX-License-Identifier: MIT
# producers-tcmalloc.sh - real gperftools profiles made now: the heap
# profiler's exit and interval dumps (also with HEAP_PROFILE_MMAP), the
# sampled heap and growth stacks from MallocExtension in a second thread.
# Every file converts; go tool pprof -raw agrees on the original and on
# ours; totals equal google-pprof --text --show_bytes (exactly, or for
# sampled heaps within one unit per stack line: go truncates each scaled
# line, google-pprof sums floats).
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v g++ >/dev/null 2>&1 || skip "no C++ compiler"
[ -e /usr/include/gperftools/malloc_extension.h ] || skip "libgoogle-perftools-dev missing"
command -v google-pprof >/dev/null 2>&1 || skip "google-pprof missing (Debian: google-perftools)"
have_go=false
if command -v go >/dev/null 2>&1; then
	have_go=true
	go_env
fi

prog=$TMP/tcprog
g++ -O1 -g -fno-omit-frame-pointer -o "$prog" \
	"$PROFCONV_SRCDIR/tests/producers/tcmalloc.cc" -ltcmalloc -lpthread ||
	{ fail "cannot build the producer"; finish; }

mkdir "$TMP/run1" "$TMP/run2"
HEAPPROFILE=$TMP/run1/h HEAP_PROFILE_ALLOCATION_INTERVAL=12000000 \
TCMALLOC_SAMPLE_PARAMETER=65536 \
	"$prog" "$TMP/run1/sample.heap" "$TMP/run1/growth.heap" 20000 2>/dev/null ||
	fail "producer run 1 failed"
HEAPPROFILE=$TMP/run2/h HEAP_PROFILE_MMAP=true TCMALLOC_SAMPLE_PARAMETER=524288 \
	"$prog" "$TMP/run2/sample.heap" "$TMP/run2/growth.heap" 5000 2>/dev/null ||
	fail "producer run 2 failed"
# Without sampling, tcmalloc writes a note instead of a heap sample.
"$prog" "$TMP/nosample.txt" "$TMP/growth0.txt" 100 2>/dev/null
run 1 "$PROFCONV" text2pb "$TMP/nosample.txt" -o "$TMP/nosample.pb.gz"
expect_err "profconv text2pb: '$TMP/nosample.txt': not a profile: tcmalloc's heap sample was taken with sampling off (set TCMALLOC_SAMPLE_PARAMETER)"

# pprof_total OPTION FILE: google-pprof's "Total: N B|objects".
pprof_total() {
	google-pprof --text --show_bytes "$1" "$prog" "$2" 2>/dev/null |
		sed -n 's/^Total: \([0-9]*\) .*/\1/p' | head -n 1
}

# ours TYPE FILE: profconv's total of a sample type (show -s once a file).
ours() {
	[ -s "$2.s" ] || "$PROFCONV" show -s "$2" >"$2.s"
	sed -n "s/^total $1\/[a-z]*: \([0-9]*\).*/\1/p" "$2.s"
}

n=0
# The last interval dump of each run.
last1=$(ls "$TMP"/run1/h.*.heap | tail -n 1)
last2=$(ls "$TMP"/run2/h.*.heap | tail -n 1)
for f in "$TMP"/run1/*.heap "$TMP"/run2/*.heap; do
	n=$((n + 1))
	out=$f.pb.gz
	"$PROFCONV" text2pb "$f" -o "$out" 2>"$TMP/err" ||
		{ fail "$f: $(cat "$TMP/err")"; continue; }
	lines=$(grep -c ' @ ' "$f")
	case $(head -n 1 "$f") in
	*heapprofile) types="inuse_space:inuse_space inuse_objects:inuse_objects alloc_space:alloc_space alloc_objects:alloc_objects"; slack=0 ;;
	*heap_v2/*) types="space:inuse_space objects:inuse_objects"; slack=$lines ;;
	*growth) types="space:inuse_space objects:inuse_objects"; slack=0 ;;
	*) fail "$f: unexpected header"; continue ;;
	esac
	# The interval dumps between the first and the last are read as they
	# are; google-pprof (3 s a run) checks one type of them.
	case $f in
	*/h.0001.heap | "$last1" | "$last2") ;;
	*/h.*.heap) types=${types%% *} ;;
	esac
	for pair in $types; do
		t=${pair%%:*}
		want=$(pprof_total "--${pair#*:}" "$f")
		# Seen once under distcheck's load: google-pprof (a Perl
		# script running nm and objdump) printed no total; ask again,
		# and say which side had none if it happens twice.
		[ -n "$want" ] || want=$(pprof_total "--${pair#*:}" "$f")
		got=$(ours "$t" "$out")
		[ -n "$want" ] && [ -n "$got" ] || {
			fail "$f $t: no total (google-pprof '$want', profconv '$got', $lines samples)"
			continue
		}
		d=$((want - got))
		[ "${d#-}" -le "$slack" ] ||
			fail "$f $t: profconv $got, google-pprof $want (allowed $slack)"
	done
	if $have_go; then
		# The same, except that profconv names the frames without
		# symbols inside libtcmalloc and its drop_frames cuts them
		# (profconv(1), PPROF OUTPUT): in pprof's listing of the
		# original, the stacks are cut as pprof's Prune cuts them.
		go tool pprof -raw -symbolize=none "$f" >"$TMP/a" 2>/dev/null
		go tool pprof -raw -symbolize=none "$out" >"$TMP/b" 2>/dev/null
		awk -f "$PROFCONV_SRCDIR/tests/cli/raw-prune.awk" "$TMP/a" "$TMP/a" >"$TMP/a.cut"
		sed -n '/^Samples:/,/^Locations/p' "$TMP/b" >"$TMP/b.cut"
		[ -s "$TMP/a" ] && cmp -s "$TMP/a.cut" "$TMP/b.cut" ||
			fail "$f: go tool pprof -raw differs"
		sed -n '/^Mappings/,$p' "$TMP/a" >"$TMP/a.maps"
		sed -n '/^Mappings/,$p' "$TMP/b" >"$TMP/b.maps"
		cmp -s "$TMP/a.maps" "$TMP/b.maps" ||
			fail "$f: go tool pprof -raw mappings differ"
	fi
done
[ "$n" -ge 6 ] || fail "only $n profiles were made"
# The interval dumps are snapshots: later ones allocated more.
first=$(ls "$TMP"/run1/h.*.heap | sort | head -n 1)
last=$(ls "$TMP"/run1/h.*.heap | sort | tail -n 1)
[ "$first" != "$last" ] || fail "no interval dumps"
[ "$(ours alloc_space "$last.pb.gz")" -gt "$(ours alloc_space "$first.pb.gz")" ] ||
	fail "alloc_space does not grow across interval dumps"
finish
