# SPDX-License-Identifier: MIT
# lib.sh - shared helpers of the CLI tests; sourced, never run.
#
# Each test runs commands, compares their output with expectations and
# exits 0 (pass), 1 (fail) or 77 (skip).  $PROFCONV and friends come from
# AM_TESTS_ENVIRONMENT in Makefile.am.

set -u
: "${PROFCONV:?run through make check}"
BIN=${PROFCONV_BINDIR:-$(dirname "$PROFCONV")}
# CMD: where the commands are run from.  In a build tree with the shared
# library, $BIN holds libtool's wrapper scripts, which start a shell and
# a few seds on each run (about 0.1 s, minutes over the suite); run the
# programs in $BIN/.libs instead, the ones make install copies, with the
# library just built first on LD_LIBRARY_PATH.  $PROFCONV follows when
# it is $BIN's.
CMD=$BIN
if [ -x "$BIN/.libs/profconv" ] && [ -d "$BIN/../lib/.libs" ]; then
	CMD=$BIN/.libs
	LD_LIBRARY_PATH=$(cd "$BIN/../lib/.libs" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export LD_LIBRARY_PATH
	[ "$PROFCONV" != "$BIN/profconv" ] || PROFCONV=$CMD/profconv
fi
DATA=${PROFCONV_TEST_DATA:?}
# built PATH: the build tree's program PATH (tests/htfold), as CMD runs
# the commands: the binary rather than libtool's wrapper.
built() {
	set -- "$BIN/../$(dirname "$1")" "$(basename "$1")"
	if [ "$CMD" != "$BIN" ] && [ -x "$1/.libs/$2" ]; then
		echo "$1/.libs/$2"
	else
		echo "$1/$2"
	fi
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/profconv-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
failures=0
# When it started: finish() puts how long it took in the test's log.
started=$(date +%s)

fail() {
	echo "FAIL: $*" >&2
	failures=$((failures + 1))
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

# find_lib NAME: the path of shared library NAME (ldconfig's, then the
# usual directories), or nothing.
find_lib() {
	for f in $(ldconfig -p 2>/dev/null | awk -v n="$1" '$1 == n {print $NF}') \
	    /usr/lib/*/"$1" /usr/lib/"$1" /usr/local/lib/"$1"; do
		[ -f "$f" ] && { echo "$f"; return; }
	done
}

# copy_sources DEST DIR...: the source tree's DIRs copied under DEST, their
# sources and documents only (.c .h .css .js .html .md .json): not what a
# build in the source tree put beside them (objects, libraries, test
# programs, logs: 100 MB), for the policy checks that plant faults in a
# copy.
copy_sources() {
	dest=$1
	shift
	mkdir -p "$dest"
	(cd "$PROFCONV_SRCDIR" && find "$@" \( -name .libs -o -name .deps \) \
	    -prune -o -type f \( -name '*.[ch]' -o -name '*.css' -o -name '*.js' \
	    -o -name '*.html' -o -name '*.md' -o -name '*.json' \) -print0 |
	    tar --null -T - -cf -) | tar -C "$dest" -xf -
}

# je_heap OUT N [START [MID]]: bench/gen-je-heap.sh's profiles (DEPTH and
# JEMALLOC as it takes them) made by one program for the whole test run,
# $JEPROG in the build tree: it takes half a minute to compile, and the
# script builds it only when missing (a test that runs it while another
# builds it waits).
JEPROG=$BIN/../tests/je-prog
je_heap() {
	bash "$PROFCONV_SRCDIR/bench/gen-je-heap.sh" "$JEPROG" "$@"
}

# go_env: what go runs under in the tests: a private HOME, build cache
# and GOPATH under $TMP, the installed toolchain only, and the C locale.
# For a test that runs go only when it is there (command -v go first).
go_env() {
	export HOME="$TMP" GOCACHE="$TMP/gocache" GOPATH="$TMP/gopath" \
		GOTOOLCHAIN=local LC_ALL=C
}

# use_go: skip unless go is installed, then go_env.
use_go() {
	command -v go >/dev/null 2>&1 || skip "go not installed (Debian: golang-go)"
	go_env
}

# make_var NAME FILE: the words of make variable NAME in FILE (a Makefile
# or Makefile.am: its "NAME =" and "NAME +=" lines, continued ones too),
# one a line.
make_var() {
	awk -v n="$1" '
		!on && $1 == n && ($2 == "=" || $2 == "+=") { on = 1; s = 3 }
		on { c = sub(/\\$/, ""); for (i = s; i <= NF; i++) print $i; s = 1; on = c }
	' "$2"
}

# all_tools: ALL_TOOLS, the commands the build made (profconv, profdiff,
# ...), from the bin_PROGRAMS of the build tree's Makefile (of
# Makefile.am when the commands are not a build tree's); MAKEFILE, that
# file.  The one list of the commands for the tests.
all_tools() {
	MAKEFILE=$BIN/../Makefile
	[ -f "$MAKEFILE" ] || MAKEFILE=$PROFCONV_SRCDIR/Makefile.am
	ALL_TOOLS=$(make_var bin_PROGRAMS "$MAKEFILE" |
		sed -n 's/\$(EXEEXT)$//; s|^cmd/\([a-z0-9]*\)$|\1|p' | tr '\n' ' ')
	case " $ALL_TOOLS " in
	*" profconv "*) ;;
	*) fail "no profconv in the bin_PROGRAMS of $MAKEFILE: '$ALL_TOOLS'"; finish ;;
	esac
}

# subcommands: profconv's commands as its --help lists them, one a line.
subcommands() {
	"$PROFCONV" --help | awk '/^commands:/ {c = 1; next} /^$/ {c = 0} c {print $1}'
}

# use_jemalloc: LIBJE, the path of libjemalloc.so.2 to LD_PRELOAD, or skip.
use_jemalloc() {
	LIBJE=$(find_lib libjemalloc.so.2)
	[ -n "$LIBJE" ] || skip "libjemalloc.so.2 not found (Debian: libjemalloc2)"
}

# have_tcmalloc: true when gperftools' headers are installed (and with
# them -ltcmalloc and its heap profiler, HEAPPROFILE=PREFIX).
# need_tcmalloc: the same, or skip.
have_tcmalloc() {
	[ -e /usr/include/gperftools/heap-profiler.h ]
}
need_tcmalloc() {
	have_tcmalloc || skip "libgoogle-perftools-dev missing"
}

# use_tcmalloc: LIBTC, the path of libtcmalloc.so.4 to LD_PRELOAD (its
# heap profiler writes HEAPPROFILE.NNNN.heap), or skip.
use_tcmalloc() {
	LIBTC=$(find_lib libtcmalloc.so.4)
	[ -n "$LIBTC" ] || skip "libtcmalloc.so.4 not found (Debian: libgoogle-perftools4)"
}

# tc_alloc_pb: tests/producers/alloc.c built now and run under
# tcmalloc's heap profiler, when it is installed (have_tcmalloc), its
# last dump through text2pb and symbolize into TC_PB; TC_PB empty when
# tcmalloc is not there (the caller goes on without it), a failure when
# it is and no profile comes out.
tc_alloc_pb() {
	TC_PB=
	have_tcmalloc && LIBTC=$(find_lib libtcmalloc.so.4) && [ -n "$LIBTC" ] ||
		return 0
	cc -O1 -g -fno-omit-frame-pointer -pthread -o "$TMP/alloc_tc" \
	    "$PROFCONV_SRCDIR/tests/producers/alloc.c" -ldl ||
		{ fail "cannot build tests/producers/alloc.c"; return 0; }
	HEAPPROFILE=$TMP/tc HEAP_PROFILE_ALLOCATION_INTERVAL=1048576 \
	    LD_PRELOAD=$LIBTC "$TMP/alloc_tc" 0 4 >/dev/null 2>"$TMP/tc.err" ||
		fail "alloc under tcmalloc: $(head -n 2 "$TMP/tc.err")"
	tc=$(ls "$TMP"/tc.*.heap 2>/dev/null | tail -n 1)
	[ -n "$tc" ] || { fail "tcmalloc wrote no heap profile"; return 0; }
	"$PROFCONV" text2pb -o "$TMP/tc.raw.pb.gz" "$tc" || fail "text2pb $tc"
	"$PROFCONV" symbolize -o "$TMP/tc.pb.gz" "$TMP/tc.raw.pb.gz" 2>/dev/null ||
		{ fail "symbolize $tc"; return 0; }
	TC_PB=$TMP/tc.pb.gz
}

# use_some_allocator: LIBJE and LIBTC, the paths of libjemalloc.so.2 and
# libtcmalloc.so.4 to LD_PRELOAD (either may be empty), or skip when
# neither is installed.
use_some_allocator() {
	LIBJE=$(find_lib libjemalloc.so.2)
	LIBTC=$(find_lib libtcmalloc.so.4)
	[ -n "$LIBJE$LIBTC" ] ||
		skip "neither libjemalloc.so.2 nor libtcmalloc.so.4 found (Debian: libjemalloc2, libgoogle-perftools4)"
}

# je_producer [-f] NAME ARGS...: tests/producers/NAME.c built now with
# threads (-pthread -ldl) into $TMP/NAME and run with ARGS under
# LD_PRELOAD'ed jemalloc ($LIBJE: call use_jemalloc first), every
# allocation sampled and each thread's name kept, $JE_CONF (when set)
# added to MALLOC_CONF; its dumps in $TMP/je/je.*.heap, its stdout in
# $TMP/run.out.  Skips without a C compiler or, without -f, when NAME.c
# does not build (with -f that fails the test); fails, with the
# program's stderr, when it fails.
je_producer() {
	je_build=skip
	[ "$1" = -f ] && { je_build=fail; shift; }
	command -v cc >/dev/null 2>&1 || skip "no C compiler"
	je_p=$1
	shift
	cc -O1 -g -fno-omit-frame-pointer -pthread -o "$TMP/$je_p" \
	    "$PROFCONV_SRCDIR/tests/producers/$je_p.c" -ldl ||
		$je_build "cannot build tests/producers/$je_p.c"
	mkdir -p "$TMP/je"
	LD_PRELOAD=$LIBJE \
	MALLOC_CONF="prof:true,lg_prof_sample:0,prof_prefix:$TMP/je/je,prof_sys_thread_name:true${JE_CONF:+,$JE_CONF}" \
	    "$TMP/$je_p" "$@" >"$TMP/run.out" 2>"$TMP/run.err" ||
		fail "$je_p under jemalloc: $(cat "$TMP/run.err")"
}

# je_alloc_pb [TEXT2PB-OPTION...]: tests/producers/alloc.c under jemalloc
# (every allocation, prof_accum, thread names), its prof.dump profile
# converted with the options and symbolized: $PB.
je_alloc_pb() {
	JE_CONF=prof_final:true,prof_accum:true je_producer -f alloc 0 4
	je_m0=$(ls "$TMP"/je/je.*.m0.heap 2>/dev/null | head -n 1)
	[ -n "$je_m0" ] || { fail "jemalloc wrote no prof.dump profile"; finish; }
	"$PROFCONV" text2pb "$@" -o "$TMP/raw.pb.gz" "$je_m0" ||
		fail "text2pb $*"
	"$PROFCONV" symbolize -o "$TMP/sym.pb.gz" "$TMP/raw.pb.gz" 2>/dev/null ||
		fail "symbolize"
	PB=$TMP/sym.pb.gz
}

# pprof_as_show ARGS: go tool pprof's report options ARGS ("-cum -lines
# -focus=RE ...") as profconv show spells them.
pprof_as_show() {
	echo "$1" | sed 's/^-sample_index=/--type=/; s/-cum/--sort=cum/;
	    s/-relative_percentages/--relative-percentages/;
	    s/-show_from=/--show-from=/; s/-noinlines/--no-inline/;
	    s/ -\([a-z]\)/ --\1/g; s/^-\([a-z]\)/--\1/'
}

# same_as_pprof REPORT PB WHAT ARGS...: for each ARGS, go tool pprof
# -REPORT -compact_labels ARGS and profconv show --REPORT on PB are byte
# for byte equal; the last outputs in $TMP/go.REPORT and $TMP/our.REPORT.
same_as_pprof() {
	sp_report=$1 sp_pb=$2 sp_what=$3
	shift 3
	for sp_args in "$@"; do
		sp_o=$(pprof_as_show "$sp_args")
		# shellcheck disable=SC2086
		go tool pprof -"$sp_report" -compact_labels -symbolize=none $sp_args \
		    "$sp_pb" >"$TMP/go.$sp_report" 2>"$TMP/go.err" || {
			fail "$sp_what: go tool pprof -$sp_report $sp_args: $(head -n 2 "$TMP/go.err")"
			continue
		}
		# shellcheck disable=SC2086
		"$PROFCONV" show --"$sp_report" $sp_o "$sp_pb" >"$TMP/our.$sp_report" \
		    2>"$TMP/our.err" || {
			fail "$sp_what: show --$sp_report $sp_o: $(head -n 2 "$TMP/our.err")"
			continue
		}
		[ "$(wc -l <"$TMP/go.$sp_report")" -gt 3 ] ||
			fail "$sp_what: -$sp_report $sp_args: pprof shows almost nothing"
		same_as_go "$sp_what: show --$sp_report $sp_o" "$TMP/go.$sp_report" \
		    "$TMP/our.$sp_report"
	done
}

# same_as_go WHAT GO OURS: the two files are byte for byte equal, else
# the start of their diff and a failure.
same_as_go() {
	if ! cmp -s "$2" "$3"; then
		diff -u "$2" "$3" | head -n 30 >&2
		fail "$1 differs from go tool pprof's"
	fi
}

# names_profile NAMES: $TMP/h.pb, a pprof file of one stack "main;NAME"
# per line NAME of the file NAMES (the Nth weighing N*100), the names
# taken byte for byte (markup, quotes and all); its folded stacks in
# $TMP/h.folded.
names_profile() {
	n=0
	while IFS= read -r name; do
		n=$((n + 1))
		printf 'main;%s %d\n' "$name" $((n * 100))
	done <"$1" >"$TMP/h.folded"
	python3 "$PROFCONV_SRCDIR/tests/cli/svg-check.py" pprof "$TMP/h.folded" \
	    "$TMP/h.pb" || fail "cannot write h.pb"
}

# use_caps: the caps bounded() runs hostile inputs under, LIMIT_KB of
# address space and LIMIT_S seconds (a test may change LIMIT_S).  A
# sanitizer build cannot run under an address-space cap (its shadow
# memory is terabytes of reservations): time bounds only, then.
use_caps() {
	LIMIT_KB=1048576	# 1 GiB of address space
	LIMIT_S=30
	# The probe's failure is expected under a sanitizer: its report goes
	# to the probe's stderr, not to the run's sanitizer log files.
	if (ulimit -v "$LIMIT_KB" &&
	    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=stderr \
	    exec "$PROFCONV" --version) >/dev/null 2>&1; then
		CAP="ulimit -v $LIMIT_KB"
	else
		echo "note: no memory cap: '$PROFCONV' cannot run under ulimit -v" >&2
		CAP=:
	fi
}

# bounded STATUS CMD...: run CMD as run() does, under the caps; a cap hit
# shows as a kill by signal or a failed allocation.
bounded() {
	want=$1
	shift
	($CAP && exec timeout "$LIMIT_S" "$@") >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" != "$want" ]; then
		fail "'$*' exited $got under ${LIMIT_KB} KB/${LIMIT_S} s, expected $want"
		sed 's/^/  stderr: /' "$TMP/err" | head -n 5 >&2
	fi
}

# run EXPECTED_STATUS CMD...: run CMD with stdout/stderr in $TMP/out, $TMP/err.
run() {
	want=$1
	shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" != "$want" ]; then
		fail "'$*' exited $got, expected $want"
		sed 's/^/  stderr: /' "$TMP/err" >&2
	fi
}

# expect_err TEXT: stderr is exactly the one line TEXT.
expect_err() {
	printf '%s\n' "$1" >"$TMP/want-err"
	diff -u "$TMP/want-err" "$TMP/err" >&2 || fail "stderr differs"
}

# expect_out_has PATTERN: stdout matches the grep -E pattern.
expect_out_has() {
	grep -Eq -- "$1" "$TMP/out" || fail "stdout lacks /$1/"
}

# leaky_dumps [INTERVAL]: the quick start's program (examples/leaky.c)
# built with tcmalloc and run for 20000 steps, its heap profiler's dumps
# in $TMP/leaky.*.heap (also one per INTERVAL bytes in use, when given).
# Skips without a C compiler or gperftools' headers.
leaky_dumps() {
	command -v cc >/dev/null 2>&1 || skip "no C compiler"
	need_tcmalloc
	cc -O1 -g -fno-omit-frame-pointer -o "$TMP/leaky" \
	    "$PROFCONV_SRCDIR/examples/leaky.c" -ltcmalloc ||
		skip "cannot build examples/leaky.c"
	env HEAPPROFILE="$TMP/leaky" ${1:+HEAP_PROFILE_INUSE_INTERVAL=$1} \
	    "$TMP/leaky" 20000 2>/dev/null || fail "leaky failed"
}

finish() {
	echo "# took $(($(date +%s) - started)) s" >&2
	if [ "$failures" -ne 0 ]; then
		echo "$failures check(s) failed" >&2
		exit 1
	fi
	exit 0
}
