# SPDX-License-Identifier: MIT
# pprof-goldens.sh - google/pprof's own golden reports as a referee
# (issue #42).  pprof's internal/driver TestParse draws each golden
# pprof.<source>.<flags> from a profile it builds in Go, and
# internal/report's TestSource draws source.rpt and source.dot from
# another; the exporters (tests/pprof-golden/export*_test.go, run in a
# scratch copy of the packages) write those profiles, and
# tests/pprof-golden/cases says, per golden, which profconv command line
# is its counterpart and how far they agree today:
#   exact    byte-identical: a failure here is a regression
#   numbers  equal after the case's normalizer: a failure is a regression
#   differs  a known difference: run, and a note when it now matches
#   missing  no counterpart yet: counted only
# The last line is the tally.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

use_go
PPROF=/usr/share/gocode/src/github.com/google/pprof
[ -f "$PPROF/internal/driver/driver_test.go" ] ||
	skip "pprof sources not found (Debian: golang-github-google-pprof-dev)"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed"
HERE=$PROFCONV_SRCDIR/tests/pprof-golden
GOLDEN=$PPROF/internal/driver/testdata

# The exporter, offline, in GOPATH mode: pprof from a scratch copy (the
# test file goes into its internal/driver), its dependencies from the
# installed tree.
SCRATCH=$TMP/gopath
mkdir -p "$SCRATCH/src/github.com/google" "$TMP/profiles"
cp -r "$PPROF" "$SCRATCH/src/github.com/google/pprof"
chmod -R u+w "$SCRATCH"
# export PACKAGE FILE TEST: run our test file FILE as TEST in pprof's
# internal/PACKAGE (-vet=off: go vet's checks of pprof's own sources are
# not ours to pass).
export_from() {
	cp "$HERE/$2" "$SCRATCH/src/github.com/google/pprof/internal/$1/zz_profconv_$2"
	(cd "$SCRATCH/src/github.com/google/pprof/internal/$1" &&
		GO111MODULE=off GOFLAGS='' GOPROXY=off GOPATH="$SCRATCH:/usr/share/gocode" \
		PPROF_GOLDEN_OUT="$TMP/profiles" \
		go test -vet=off -count=1 -run "^$3\$" . >"$TMP/export.log" 2>&1) || {
		cat "$TMP/export.log" >&2
		fail "exporting pprof's $1 test profiles failed"
		finish
	}
}
export_from driver export_test.go TestExportGoldenSources
export_from report export_report_test.go TestExportGoldenReportSource
# TestSource's sources, where its profile names them (testdata/source1,
# /some/path/testdata/source2 with --trim-path /some/path); copies, as
# profconv list withholds a source reached through a symbolic link.
mkdir "$TMP/profiles/testdata"
cp "$PPROF/internal/report/testdata/source1" "$PPROF/internal/report/testdata/source2" \
	"$TMP/profiles/testdata/"

# trim S: S without its leading and trailing blanks.
trim() {
	t=$1
	while [ "${t# }" != "$t" ]; do t=${t# }; done
	while [ "${t% }" != "$t" ]; do t=${t% }; done
	printf '%s' "$t"
}

exact=0 numbers=0 differs=0 missing=0 ran=0
set -f	# the table's regular expressions are not globs
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	# golden | status | compare | command | note
	IFS='|' read -r name status compare cmd note <<EOF_CASE
$line
EOF_CASE
	name=$(trim "$name") status=$(trim "$status") compare=$(trim "$compare")
	cmd=$(trim "$cmd") note=$(trim "$note")
	case $status in
	exact) exact=$((exact + 1)) ;;
	numbers) numbers=$((numbers + 1)) ;;
	differs) differs=$((differs + 1)) ;;
	missing) missing=$((missing + 1)); continue ;;
	*) fail "cases: $name: unknown status '$status'"; continue ;;
	esac
	# A name with a slash is under pprof's internal/, else under
	# internal/driver/testdata.
	case $name in
	*/*) golden=$PPROF/internal/$name ;;
	*) golden=$GOLDEN/$name ;;
	esac
	[ -f "$golden" ] || { fail "cases: $name: no such golden: $golden"; continue; }
	# Steps split at " ; ", run in turn; their output is compared.
	out=$TMP/out.${name##*/}
	: >"$out"
	rest=$cmd ok=true
	while [ -n "$rest" ]; do
		step=${rest%% ; *}
		case $rest in *" ; "*) rest=${rest#* ; } ;; *) rest= ;; esac
		# shellcheck disable=SC2086
		set -- $step
		prog=$1
		shift
		case $prog in
		profconv) prog=$PROFCONV ;;
		profgraph) prog=$CMD/profgraph ;;
		*) fail "cases: $name: unknown program '$prog'"; ok=false; break ;;
		esac
		(cd "$TMP/profiles" && "$prog" "$@") >>"$out" 2>"$out.err" || {
			fail "$name: '$step' failed: $(head -n 3 "$out.err")"
			ok=false
			break
		}
	done
	$ok || continue
	ran=$((ran + 1))
	case $compare in
	cmp) cmp -s "$golden" "$out" || diff -u "$golden" "$out" >"$out.diff" ;;
	*) python3 "$HERE/$compare.py" "$golden" "$out" 2>"$out.diff" ;;
	esac
	same=$?
	case $status,$same in
	exact,0 | numbers,0 | differs,[!0]*) ;;
	exact,* | numbers,*)
		cat "$out.diff" >&2
		fail "$name ($status, $compare): '$cmd' no longer matches" ;;
	differs,0)
		echo "note: $name now matches with $compare (was: $note); update tests/pprof-golden/cases" >&2 ;;
	esac
done <"$HERE/cases"
set +f
[ "$ran" -gt 0 ] || fail "no case ran"
# A golden of another pprof release that the table does not know yet (the
# table's comment names the ones left out on purpose).
for g in "$GOLDEN"/pprof.*; do
	n=${g##*/}
	grep -q "^$n |" "$HERE/cases" || grep -q "^# *${n}\>\|[ (]${n}[ ,]" "$HERE/cases" ||
		echo "note: $n has no line in tests/pprof-golden/cases" >&2
done
echo "pprof goldens: $exact exact, $numbers numbers, $differs differs, $missing missing"
finish
