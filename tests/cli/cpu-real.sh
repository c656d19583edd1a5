# SPDX-License-Identifier: MIT
# cpu-real.sh - a legacy CPU profile made now by gperftools' profiler reads
# the same in profconv as in go tool pprof, and its sample total is what
# google-pprof counts.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
use_go
REWRITE=$(built tests/rewrite)
[ -x "$REWRITE" ] || skip "tests/rewrite not built"

# libgoogle-perftools4 puts the profiler in the multiarch library directory.
lib=
for f in "/usr/lib/$(cc -print-multiarch 2>/dev/null)/libprofiler.so.0" \
    /usr/lib/x86_64-linux-gnu/libprofiler.so.0 \
    $(ldconfig -p 2>/dev/null | awk '/libprofiler\.so\.0 / {print $NF}'); do
	if [ -f "$f" ]; then
		lib=$f
		break
	fi
done
[ -n "$lib" ] ||
	skip "gperftools profiler not installed (Debian: libgoogle-perftools4)"

cc -O0 -g -o "$TMP/busy" "$DATA/cpu/busy.c" || { fail "cc busy.c"; finish; }
LD_PRELOAD=$lib CPUPROFILE=$TMP/cpu.prof CPUPROFILE_FREQUENCY=1000 \
	"$TMP/busy" 300 >/dev/null 2>"$TMP/busy.err" ||
	{ fail "busy failed: $(cat "$TMP/busy.err")"; finish; }
[ -s "$TMP/cpu.prof" ] || skip "the profiler wrote no profile (timers blocked?)"

"$REWRITE" "$TMP/cpu.prof" "$TMP/cpu.pb.gz" 6 || { fail "rewrite"; finish; }
# symbolize=none: compare what the files say, not this machine's binaries.
go tool pprof -raw -symbolize=none "$TMP/cpu.prof" >"$TMP/a" 2>"$TMP/a.err" ||
	fail "go tool pprof cannot read the legacy profile: $(cat "$TMP/a.err")"
go tool pprof -raw -symbolize=none "$TMP/cpu.pb.gz" >"$TMP/b" 2>"$TMP/b.err" ||
	fail "go tool pprof cannot read profconv's output: $(cat "$TMP/b.err")"
diff -u "$TMP/a" "$TMP/b" >&2 || fail "go tool pprof -raw differs"

# Sample totals: go's, profconv's and google-pprof's "Total: N samples".
gototal=$(awk '/^Samples:/ {s=1; getline; next} /^Locations/ {s=0}
	s && $1 ~ /^[0-9]+$/ {t += $1} END {print t+0}' "$TMP/a")
"$PROFCONV" show -s "$TMP/cpu.pb.gz" >"$TMP/sum" || fail "show -s"
pctotal=$(sed -n 's/^total samples\/count: \([0-9]*\).*/\1/p' "$TMP/sum")
[ "$gototal" -gt 0 ] || fail "no samples in the profile"
[ "$gototal" = "$pctotal" ] || fail "samples: go $gototal, profconv $pctotal"
# google-pprof's total is also the sum of the record counts (its stack
# fix-ups change frames, never counts), so the totals agree exactly.
if command -v google-pprof >/dev/null 2>&1; then
	google-pprof --text "$TMP/busy" "$TMP/cpu.prof" \
		>"$TMP/gp" 2>"$TMP/gp.err"
	gptotal=$(sed -n 's/^Total: \([0-9]*\) samples$/\1/p' "$TMP/gp")
	if [ -n "$gptotal" ]; then
		[ "$gptotal" = "$pctotal" ] ||
			fail "samples: google-pprof $gptotal, profconv $pctotal"
	else
		echo "note: google-pprof printed no total; not compared" \
		    "($(head -n 1 "$TMP/gp.err"))" >&2
	fi
fi
finish
