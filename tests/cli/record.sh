# SPDX-License-Identifier: MIT
# record.sh - "profconv record -- PROG" on a real program built now
# (tests/producers/recordleak.c, which leaks 64 KiB a step from
# leak_buffer()): under preloaded jemalloc and tcmalloc its dumps land in
# the directory, the last one is symbolized and names the leak, the
# report and the verdicts name it, and PROG's output and exit status are
# its own; dumps by growth (--every), by time (--interval) and on demand
# (--dump from another process, reaching each process of a program that
# forked); a static program is refused.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
use_jemalloc
PROG=$TMP/recordleak
cc -O1 -g -fno-omit-frame-pointer -o "$PROG" \
    "$PROFCONV_SRCDIR/tests/producers/recordleak.c" ||
	skip "cannot build tests/producers/recordleak.c"
cd "$TMP" || exit 1

# record DIR ARGS...: profconv record -o DIR ARGS, its stdout in
# $TMP/DIR.out, stderr in $TMP/DIR.err, exit status in $st.
record() {
	d=$1
	shift
	"$PROFCONV" record -o "$TMP/$d" "$@" >"$TMP/$d.out" 2>"$TMP/$d.err"
	st=$?
}

# check_run DIR WHAT: the dumps, the symbolized last one, the report and
# the verdict name leak_buffer.
check_run() {
	ls "$TMP/$1"/*.heap >/dev/null 2>&1 || fail "$2: no dump in $1"
	sym=$(ls "$TMP/$1"/*.sym.pb.gz 2>/dev/null | head -1)
	if [ -z "$sym" ]; then
		fail "$2: no symbolized dump"
	else
		"$PROFCONV" show -s "$sym" | grep -q leak_buffer ||
			fail "$2: the symbolized dump does not name leak_buffer"
	fi
	grep -q leak_buffer "$TMP/$1/report.html" 2>/dev/null ||
		fail "$2: report.html missing or without leak_buffer"
	# The page profconv report writes of the dumps, in DIR.
	(cd "$TMP/$1" && "$PROFCONV" report --quiet -o "$TMP/$1.html" *.heap 2>/dev/null)
	cmp -s "$TMP/$1.html" "$TMP/$1/report.html" ||
		fail "$2: report.html is not profconv report's page of the dumps"
	grep -Eq '^  leak +.*leak_buffer' "$TMP/$1.err" ||
		fail "$2: no leak verdict for leak_buffer: $(cat "$TMP/$1.err")"
	[ "$(cat "$TMP/$1.out")" = "recordleak: 40 steps" ] ||
		fail "$2: PROG's stdout changed: $(cat "$TMP/$1.out")"
}

# jemalloc (the default), by growth: several dumps, exit status 3 kept.
record je --every 1M --sample-rate 4K -- "$PROG" 40 0 3
[ "$st" = 3 ] || fail "jemalloc: exit status $st, expected 3: $(cat "$TMP/je.err")"
n=$(ls "$TMP/je"/recordleak.*.i*.heap 2>/dev/null | wc -l)
[ "$n" -ge 4 ] || fail "jemalloc --every 1M: $n interval dumps, expected 4 or more"
ls "$TMP/je"/recordleak.*.f.heap >/dev/null 2>&1 || fail "jemalloc: no final dump"
check_run je jemalloc

# tcmalloc, by growth, when installed.
LIBTC=$(find_lib libtcmalloc.so.4)
if [ -n "$LIBTC" ]; then
	record tc --allocator tcmalloc --every 1M -- "$PROG" 40 0 3
	[ "$st" = 3 ] || fail "tcmalloc: exit status $st: $(cat "$TMP/tc.err")"
	n=$(ls "$TMP/tc"/recordleak.*.heap 2>/dev/null | wc -l)
	[ "$n" -ge 4 ] || fail "tcmalloc --every 1M: $n dumps, expected 4 or more"
	check_run tc tcmalloc
else
	echo "note: libtcmalloc.so.4 not found: tcmalloc part skipped" >&2
fi

# By time: 30 steps of 50 ms, a dump every 300 ms.
record iv --interval 300ms --sample-rate 4K -- "$PROG" 30 50 0
[ "$st" = 0 ] || fail "--interval: exit status $st: $(cat "$TMP/iv.err")"
n=$(ls "$TMP/iv"/recordleak.*.m*.heap 2>/dev/null | wc -l)
[ "$n" -ge 3 ] || fail "--interval 300ms over 1.5 s: $n dumps, expected 3 or more"

# Without --every or --interval, the dump at exit only: no trend, and
# the lines say how to get one.
record one -- "$PROG" 5 0 0
grep -q "one dump, no trend to judge: --every SIZE or --interval TIME" "$TMP/one.err" ||
	fail "one dump: no hint: $(cat "$TMP/one.err")"

# On demand, from another process, while PROG sleeps.
"$PROFCONV" record -o "$TMP/od" -- "$PROG" 20 100 0 >"$TMP/od.out" 2>"$TMP/od.err" &
rpid=$!
sleep 0.5
run 0 "$PROFCONV" record --dump "$TMP/od"
wait $rpid || fail "--dump: the recording failed: $(cat "$TMP/od.err")"
n=$(ls "$TMP/od"/recordleak.*.m*.heap 2>/dev/null | wc -l)
[ "$n" = 1 ] || fail "--dump: $n on-demand dumps, expected 1"
# The same under tcmalloc (HeapProfilerDump()).
if [ -n "$LIBTC" ]; then
	"$PROFCONV" record -o "$TMP/od-tc" --allocator tcmalloc -- "$PROG" 10 100 0 \
	    >"$TMP/od-tc.out" 2>"$TMP/od-tc.err" &
	rpid=$!
	sleep 0.5
	run 0 "$PROFCONV" record --dump "$TMP/od-tc"
	wait $rpid || fail "--dump, tcmalloc: the recording failed"
	grep -aq "recordleak.0001.heap (profconv record)" "$TMP/od-tc.err" ||
		fail "--dump, tcmalloc: no dump on demand: $(cat "$TMP/od-tc.err")"
fi
# Nobody recording: a one-line error, status 1.
mkdir "$TMP/nobody"
run 1 "$PROFCONV" record --dump "$TMP/nobody"

# A program that forks: each process its own series, report and verdict,
# under each allocator (tcmalloc would write the child's dumps over the
# parent's: the helper gives the child its own names).
cc -O1 -g -fno-omit-frame-pointer -o "$TMP/recordfork" \
    "$PROFCONV_SRCDIR/tests/producers/recordfork.c" ||
	fail "cannot build tests/producers/recordfork.c"
for a in jemalloc ${LIBTC:+tcmalloc}; do
	record fk-$a --allocator $a --every 1M --sample-rate 4K -- "$TMP/recordfork" 40
	[ "$st" = 0 ] || fail "fork, $a: exit status $st: $(cat "$TMP/fk-$a.err")"
	[ "$(cat "$TMP/fk-$a.out")" = "recordfork: 40 steps" ] ||
		fail "fork, $a: stdout: $(cat "$TMP/fk-$a.out")"
	grep -Eq '^  leak +.*parent_leak' "$TMP/fk-$a.err" ||
		fail "fork, $a: no leak verdict for parent_leak: $(cat "$TMP/fk-$a.err")"
	grep -Eq '^  leak +.*child_leak' "$TMP/fk-$a.err" ||
		fail "fork, $a: no leak verdict for child_leak: $(cat "$TMP/fk-$a.err")"
	grep -q parent_leak "$TMP/fk-$a/report.html" 2>/dev/null ||
		fail "fork, $a: report.html lacks parent_leak"
	child=$(ls "$TMP/fk-$a"/report-*.html 2>/dev/null | head -1)
	[ -n "$child" ] && grep -q child_leak "$child" && ! grep -q child_leak "$TMP/fk-$a/report.html" ||
		fail "fork, $a: the child's report is missing, or mixed with the parent's"
done

# tcmalloc: children forked while another thread allocates, so that
# gperftools' heap profiler lock is often held at the fork; each child
# exits at once (as before an exec), and none may hang: the helper does
# nothing in the child's fork handler that takes that lock.
if [ -n "$LIBTC" ]; then
	cc -O1 -g -pthread -o "$TMP/forkspin" "$PROFCONV_SRCDIR/tests/producers/forkspin.c" ||
		fail "cannot build tests/producers/forkspin.c"
	record fs --allocator tcmalloc --interval 100ms -- "$TMP/forkspin" 200
	[ "$st" = 0 ] && [ "$(cat "$TMP/fs.out")" = "forkspin: 200 forks" ] ||
		fail "tcmalloc, forks while allocating: status $st: $(cat "$TMP/fs.out")"
fi

# --dump reaches every process of a program that forked: the parent and
# its child, alive together for 6 s, each dump on demand, and --dump
# waits for both.
for a in jemalloc ${LIBTC:+tcmalloc}; do
	"$PROFCONV" record -o "$TMP/odf-$a" --allocator $a -- "$TMP/recordfork" 60 100 \
	    >"$TMP/odf-$a.out" 2>"$TMP/odf-$a.err" &
	rpid=$!
	sleep 0.8
	run 0 "$PROFCONV" record --dump "$TMP/odf-$a"
	wait $rpid || fail "--dump, fork, $a: the recording failed: $(cat "$TMP/odf-$a.err")"
	if [ $a = jemalloc ]; then
		n=$(ls "$TMP/odf-$a" | sed -n 's/^recordfork\.\([0-9]*\)\.[0-9]*\.m[0-9]*\.heap$/\1/p' |
		    sort -u | wc -l)
	else
		n=$(grep -ac 'Dumping heap profile to .*(profconv record)' "$TMP/odf-$a.err")
	fi
	[ "$n" = 2 ] || fail "--dump, fork, $a: $n processes dumped on demand, expected 2"
done

# A process that does not answer (stopped here) is named after the wait,
# in one line, status 1; the others still dump.
"$PROFCONV" record -o "$TMP/ods" -- "$TMP/recordfork" 120 100 \
    >"$TMP/ods.out" 2>"$TMP/ods.err" &
rpid=$!
# Both register as their helpers start (within 5 s on a loaded host).
for i in $(seq 50); do
	main=$(cat "$TMP/ods/.recording" 2>/dev/null)
	child=$(ls -a "$TMP/ods" 2>/dev/null | sed -n 's/^\.process\.\([0-9]*\)$/\1/p' |
	    grep -vx "$main" | head -1)
	[ -n "$child" ] && [ -n "$main" ] && break
	sleep 0.1
done
if [ -n "$child" ] && [ -n "$main" ]; then
	kill -STOP "$child"
	run 1 "$PROFCONV" record --dump "$TMP/ods"
	kill -CONT "$child"
	expect_err "profconv record: no dump in '$TMP/ods' after 10 s from process $child (of 2 recording)"
	ls "$TMP/ods" | grep -q "^recordfork\.$main\.[0-9]*\.m[0-9]*\.heap$" ||
		fail "--dump, a stopped child: no dump from the parent"
else
	fail "--dump, a stopped child: the processes did not register: $(ls -a "$TMP/ods")"
fi
wait $rpid || fail "--dump, a stopped child: the recording failed: $(cat "$TMP/ods.err")"

# A C++ program: the leak is a member function, demangled.
if command -v c++ >/dev/null 2>&1 && c++ -O1 -g -fno-omit-frame-pointer \
    -o "$TMP/recordleakxx" "$PROFCONV_SRCDIR/tests/producers/recordleak.cc"; then
	record cx --every 1M --sample-rate 4K -- "$TMP/recordleakxx" 40
	[ "$st" = 0 ] || fail "C++: exit status $st: $(cat "$TMP/cx.err")"
	grep -Eq '^  leak +.* app::Session::remember$' "$TMP/cx.err" ||
		fail "C++: no leak verdict for app::Session::remember: $(cat "$TMP/cx.err")"
	[ "$(cat "$TMP/cx.out")" = "recordleakxx: 40 steps" ] ||
		fail "C++: stdout: $(cat "$TMP/cx.out")"
else
	echo "note: no C++ compiler: the C++ part skipped" >&2
fi

# A threaded program (tests/producers/threadleak.c: worker-2 leaks through
# hold(), as the other threads hold memory through it): --by-thread
# names the leaking thread, from jemalloc's per-thread data and names.
if cc -O1 -g -fno-omit-frame-pointer -pthread -o "$TMP/threadleak" \
    "$PROFCONV_SRCDIR/tests/producers/threadleak.c" -ldl; then
	record th --by-thread --sample-rate 1 -- "$TMP/threadleak" 10
	[ "$st" = 0 ] || fail "threads: exit status $st: $(cat "$TMP/th.err")"
	grep -Eq '^  leak +.*thread [0-9]+ \(worker-2\): hold$' "$TMP/th.err" ||
		fail "threads: the leak's thread not named: $(cat "$TMP/th.err")"
	grep -Eq '^  leak .*worker-[13]' "$TMP/th.err" &&
		fail "threads: another thread judged a leak: $(cat "$TMP/th.err")"
	grep -q 'worker-2' "$TMP/th/report.html" ||
		fail "threads: report.html does not name worker-2"
else
	fail "cannot build tests/producers/threadleak.c"
fi

# SIGTERM sent to record goes on to PROG; record exits as a shell would.
"$PROFCONV" record -o "$TMP/sig" --interval 200ms -- "$PROG" 100 100 0 \
    >"$TMP/sig.out" 2>"$TMP/sig.err" &
rpid=$!
# Not before record runs PROG and forwards signals (it then marks DIR).
for i in $(seq 100); do
	[ -e "$TMP/sig/.recording" ] && break
	sleep 0.1
done
sleep 0.3
kill -TERM $rpid
wait $rpid
st=$?
[ "$st" = 143 ] || fail "SIGTERM: record exited $st, expected 143: $(cat "$TMP/sig.err")"
grep -q 'killed by signal 15' "$TMP/sig.err" || fail "SIGTERM: not said: $(cat "$TMP/sig.err")"

# A program linked with jemalloc records with it, and another allocator
# cannot be forced on it.
if cc -O1 -g -fno-omit-frame-pointer -o "$TMP/linked" \
    "$PROFCONV_SRCDIR/tests/producers/recordleak.c" -ljemalloc 2>/dev/null; then
	run 2 "$PROFCONV" record -o "$TMP/lk2" --allocator tcmalloc -- "$TMP/linked" 1 0 0
	grep -q "already uses jemalloc" "$TMP/err" || fail "linked: $(cat "$TMP/err")"
	record lk --every 1M --sample-rate 4K -- "$TMP/linked" 40 0 0
	[ "$st" = 0 ] || fail "linked: exit status $st: $(cat "$TMP/lk.err")"
	ls "$TMP/lk"/linked.*.f.heap >/dev/null 2>&1 || fail "linked: no final dump"
fi

# A static program is refused, in one line, with status 2.
if cc -static -o "$TMP/static" "$PROFCONV_SRCDIR/tests/producers/recordleak.c" 2>/dev/null; then
	run 2 "$PROFCONV" record -o "$TMP/st" -- "$TMP/static" 1 0 0
	[ "$(wc -l <"$TMP/err")" -le 2 ] && grep -q 'statically linked' "$TMP/err" ||
		fail "static: $(cat "$TMP/err")"
	[ ! -e "$TMP/st" ] || fail "static: the directory was made"
fi
# A script is what its "#!" line runs: a static interpreter is refused,
# named; so is a file that is neither ELF nor a script, which the kernel
# does not run.
if [ -x "$TMP/static" ]; then
	printf '#!%s\n' "$TMP/static" >"$TMP/static.sh"
	chmod +x "$TMP/static.sh"
	run 2 "$PROFCONV" record -o "$TMP/sts" -- "$TMP/static.sh"
	grep -q "^profconv record: '$TMP/static', the interpreter of '$TMP/static.sh', is statically linked" "$TMP/err" ||
		fail "static interpreter: $(cat "$TMP/err")"
	[ ! -e "$TMP/sts" ] || fail "static interpreter: the directory was made"
fi
printf 'echo hello\n' >"$TMP/noshebang"
chmod +x "$TMP/noshebang"
run 2 "$PROFCONV" record -o "$TMP/nsb" -- "$TMP/noshebang"
grep -q "^profconv record: cannot record '$TMP/noshebang': '$TMP/noshebang' is neither an ELF file nor a script ('#!')$" "$TMP/err" ||
	fail "no '#!': $(cat "$TMP/err")"
# Usage errors: one line and the hint, status 2.
run 2 "$PROFCONV" record
expect_err "profconv record: expected PROG to run
Try 'profconv record --help'."
run 2 "$PROFCONV" record --interval 0 -- "$PROG" 1 0 0
grep -q "invalid --interval value '0'" "$TMP/err" || fail "--interval 0: $(cat "$TMP/err")"
run 2 "$PROFCONV" record --allocator glibc -- "$PROG" 1 0 0
run 2 "$PROFCONV" record --dump "$TMP/od" "$PROG"
run 2 "$PROFCONV" record -o "$TMP/nf" -- "$TMP/no-such-program"
# --every that is no power of two: jemalloc's is said.
record pw --every 7M -- "$PROG" 1 0 0
grep -q "jemalloc dumps every 2^23 bytes (8388608)" "$TMP/pw.err" ||
	fail "--every 7M: $(cat "$TMP/pw.err")"
# Options after PROG are PROG's, even without "--".
record po "$PROG" 1 0 0 -o x
[ "$st" = 98 ] || fail "PROG's own options: record exited $st, expected PROG's 98"

# A ',' in the directory's path (here the current directory's), which
# MALLOC_CONF cannot hold, is refused before anything is made.
mkdir "$TMP/a,b"
(cd "$TMP/a,b" && "$PROFCONV" record -o x -- "$PROG" 1 0 0 >"$TMP/out" 2>"$TMP/err")
st=$?
[ "$st" = 2 ] && grep -q "holds a ','" "$TMP/err" ||
	fail "a ',' in the path: status $st: $(cat "$TMP/err")"
[ ! -e "$TMP/a,b/x" ] || fail "a ',' in the path: the directory was made"

# A non-empty directory is refused.
run 2 "$PROFCONV" record -o "$TMP/je" -- "$PROG" 1 0 0

# Processes a script forks that dump once each (short commands, or a
# shell per step as a pyenv shim runs): one line for them all, and
# their pages.
record sh -- sh -c '/bin/true & /bin/true & wait'
grep -q "^profconv record: 2 forked processes with one dump each" "$TMP/sh.err" ||
	fail "one-dump forks: $(cat "$TMP/sh.err")"
! grep -q "forked: 1 dump" "$TMP/sh.err" ||
	fail "one-dump forks listed one by one: $(cat "$TMP/sh.err")"
[ "$(ls "$TMP/sh"/report-*.html 2>/dev/null | wc -l)" = 2 ] ||
	fail "one-dump forks: not a report-PID.html each"

# An interpreter: python3 keeps 30 MB of strings in a list to its end,
# which frees them; the series names the row and says so.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
if [ -n "$py" ] && [ "$(head -c 2 "$py")" != "#!" ]; then
	record py --every 4M -- "$py" -c '
k = []
for i in range(3000):
    k.append("x" * 10000 + str(i))
    d = {j: "y" * 100 for j in range(200)}
print("done")'
	[ "$st" = 0 ] && [ "$(cat "$TMP/py.out")" = done ] ||
		fail "python3: status $st, output $(cat "$TMP/py.out")"
	grep -Eq '^  freed-at-exit +[0-9]+ -> 0 +PyUnicode_Concat$' "$TMP/py.err" ||
		fail "python3: no freed-at-exit row for the strings: $(cat "$TMP/py.err")"
	grep -q PyUnicode_Concat "$TMP/py/report.html" ||
		fail "python3: the report does not name PyUnicode_Concat"
fi

finish
