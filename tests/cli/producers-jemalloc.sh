# SPDX-License-Identifier: MIT
# producers-jemalloc.sh - real jemalloc heap profiles, made now by
# tests/producers/alloc.c under LD_PRELOAD'ed libjemalloc with several
# MALLOC_CONF settings, converted by "profconv text2pb": the totals equal
# jeprof's (which sums unrounded floats where we truncate each line, so
# ours may be lower by less than one per backtrace), --threads splits
# them as jeprof --thread does and labels the samples (the thread a
# number, so go tool pprof -tagfocus thread=1 keeps thread 1 alone, not
# 10 and 11), and go tool pprof reads the result and adds up to the same
# totals.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
command -v jeprof >/dev/null 2>&1 || skip "jeprof not installed (Debian: libjemalloc-dev)"
use_go
use_jemalloc

PROG=$TMP/alloc
cc -O1 -g -fno-omit-frame-pointer -pthread -o "$PROG" \
    "$PROFCONV_SRCDIR/tests/producers/alloc.c" -ldl ||
	skip "cannot build tests/producers/alloc.c"

# produce NAME ROUNDS MALLOC_CONF-extra [THREADS]: profiles in
# $TMP/NAME/je.*.heap.
produce() {
	mkdir -p "$TMP/$1"
	LD_PRELOAD=$LIBJE \
	MALLOC_CONF="prof:true,prof_final:true,prof_prefix:$TMP/$1/je,$3" \
	    "$PROG" "$2" "${4:-3}" >/dev/null 2>"$TMP/$1.err" ||
		fail "$1: alloc failed: $(cat "$TMP/$1.err")"
}

# jeprof_total FILE OPTION: jeprof's "Total:" number.  The maps are cut
# off first: totals do not depend on symbols, and symbolizing every
# library costs a second per call.
jeprof_total() {
	sed '/^MAPPED_LIBRARIES:/,$d' "$1" >"$TMP/nomap.heap"
	jeprof --text --show_bytes "$2" "$PROG" "$TMP/nomap.heap" 2>/dev/null |
		sed -n 's/^Total: \([0-9]*\) .*/\1/p'
}

# our_total PB TYPE: profconv's total of TYPE, or "none".
our_total() {
	"$PROFCONV" show -s "$1" | sed -n "s/^total $2\/[a-z]*: \([0-9-]*\).*/\1/p" |
		grep . || echo none
}

# near JEPROF OURS SLACK WHAT: 0 <= JEPROF - OURS <= SLACK.
near() {
	if [ -z "$1" ] || [ "$2" = none ] || [ $(($1 - $2)) -lt 0 ] ||
	    [ $(($1 - $2)) -gt "$3" ]; then
		fail "$4: jeprof '$1', profconv '$2' (slack $3)"
	else
		echo "ok: $4: jeprof $1, profconv $2" >&2
	fi
}

# check_totals HEAP PB ACCUM: every type against jeprof.
check_totals() {
	n=$(grep -c '^@' "$1")
	for t in inuse_space inuse_objects alloc_space alloc_objects; do
		j=$(jeprof_total "$1" "--$t")
		o=$(our_total "$2" "$t")
		if [ "$3" = no ] && [ "${t#alloc}" != "$t" ]; then
			# Without prof_accum there are no alloc types.
			[ "$o" = none ] || fail "$1: $t present without prof_accum"
			# jeprof prints no Total line for an all-zero profile.
			[ "${j:-0}" = 0 ] || fail "$1: jeprof $t is '$j', not 0"
			continue
		fi
		near "$j" "$o" "$n" "$(basename "$1") $t"
	done
}

# thread_totals PB COLUMN: "uid total" per thread label, from show's dump.
thread_totals() {
	"$PROFCONV" show "$1" | awk -v col="$2" '
		/^samples:/ {s = 1; next}
		/^locations:/ {s = 0}
		s && $1 ~ /^-?[0-9]+$/ {v = $col; next}
		s && /labels:/ && match($0, / thread=[0-9]+/) {
			t[substr($0, RSTART + 8, RLENGTH - 8)] += v
		}
		END {for (k in t) print k, t[k]}' | sort -n
}

# check_threads HEAP PB: --threads totals per thread against jeprof's.
check_threads() {
	"$PROFCONV" text2pb --threads -o "$TMP/thr.pb" "$1" ||
		{ fail "$1: text2pb --threads"; return; }
	col=$("$PROFCONV" show -s "$TMP/thr.pb" | grep -c '^total ')
	thread_totals "$TMP/thr.pb" "$col" >"$TMP/ours.thr"
	sed '/^MAPPED_LIBRARIES:/,$d' "$1" >"$TMP/nomap.heap"
	jeprof --text --show_bytes --thread='*' "$PROG" "$TMP/nomap.heap" \
	    2>/dev/null | sed -n 's/^Total (t\([0-9]*\)): \([0-9]*\) B.*/\1 \2/p' |
	    sort -n >"$TMP/jeprof.thr"
	[ -s "$TMP/jeprof.thr" ] || fail "$1: jeprof printed no thread totals"
	while read -r uid j; do
		o=$(awk -v u="$uid" '$1 == u {print $2}' "$TMP/ours.thr")
		lines=$(grep -c "^  t$uid: " "$1")
		near "$j" "${o:-none}" "$lines" "$(basename "$1") thread $uid"
	done <"$TMP/jeprof.thr"
	# The per-thread samples add up to the t*: totals within rounding
	# when sampling is exact (R = 1).
	if head -1 "$1" | grep -q '^heap_v2/1$'; then
		sum=$(awk '{t += $2} END {print t + 0}' "$TMP/ours.thr")
		o=$(our_total "$2" inuse_space)
		lines=$(grep -c '^  t[0-9]*: ' "$1")
		d=$((o - sum))
		[ "${d#-}" -le "$((2 * lines))" ] ||
			fail "$1: thread sum $sum vs total $o"
	fi
}

# check_go PB: go tool pprof reads it and sums every type as we do.
check_go() {
	go tool pprof -raw -symbolize=none "$1" >"$TMP/raw" 2>"$TMP/raw.err" ||
		{ fail "go tool pprof cannot read $1: $(cat "$TMP/raw.err")"; return; }
	awk '/^Samples:/ {s = 1; getline; n = NF; next}
	    /^Locations/ {s = 0}
	    s && $1 ~ /^-?[0-9]+$/ {for (i = 1; i <= n; i++) t[i] += $i + 0}
	    END {for (i = 1; i <= n; i++) print t[i]}' "$TMP/raw" >"$TMP/go.sum"
	"$PROFCONV" show -s "$1" | sed -n 's/^total [^:]*: \([0-9-]*\).*/\1/p' \
	    >"$TMP/pc.sum"
	[ -s "$TMP/pc.sum" ] && cmp -s "$TMP/go.sum" "$TMP/pc.sum" ||
		fail "$1: go sums $(tr '\n' ' ' <"$TMP/go.sum")vs ours $(tr '\n' ' ' <"$TMP/pc.sum")"
}

# convert_all NAME ACCUM: convert and check every profile of run NAME.
convert_all() {
	set -- "$1" "$2" "$TMP/$1"/je.*.heap
	[ -f "$3" ] || { fail "$1: jemalloc wrote no profile (built without --enable-prof?)"; return; }
	name=$1 accum=$2
	shift 2
	eval "last=\${$#}"
	for heap in "$@"; do
		pb=$heap.pb.gz
		"$PROFCONV" text2pb -o "$pb" "$heap" 2>"$TMP/err" ||
			{ fail "text2pb $heap: $(cat "$TMP/err")"; continue; }
		# Of a run's interval dumps, jeprof (four runs of a Perl
		# script a dump) checks the first and the last; go tool
		# pprof reads them all.
		case $heap in
		"$1" | "$last") check_totals "$heap" "$pb" "$accum" ;;
		*/je.*.i[0-9]*.heap) ;;
		*) check_totals "$heap" "$pb" "$accum" ;;
		esac
		check_go "$pb"
	done
	echo "$name: $# profiles" >&2
}

# The first run tells whether this jemalloc can profile at all.
produce exact 0 "lg_prof_sample:0,prof_accum:true,prof_sys_thread_name:true"
ls "$TMP/exact"/je.*.heap >/dev/null 2>&1 ||
	skip "jemalloc wrote no profile: built without --enable-prof?"
produce default 0 "prof_accum:true,prof_sys_thread_name:true"
produce noaccum 0 "lg_prof_sample:0,prof_accum:false"
produce noaccum19 0 "prof_accum:false"
produce biased 0 "lg_prof_sample:12,prof_accum:true,prof_unbias:false"
produce interval 6 "lg_prof_sample:10,prof_accum:true,lg_prof_interval:24"

convert_all exact yes
convert_all default yes
convert_all noaccum no
convert_all noaccum19 no
convert_all biased yes
convert_all interval yes
[ "$(ls "$TMP/interval"/je.*.i*.heap 2>/dev/null | wc -l)" -ge 2 ] ||
	fail "lg_prof_interval made fewer than 2 interval dumps"

# The prof.dump taken while the named threads lived: --threads totals,
# labels and names.
for run in exact default; do
	m0=$(ls "$TMP/$run"/je.*.m0.heap 2>/dev/null | head -1)
	[ -n "$m0" ] || { fail "$run: no prof.dump profile"; continue; }
	check_threads "$m0" "$m0.pb.gz"
	"$PROFCONV" show "$TMP/thr.pb" >"$TMP/thr.txt"
	for i in 0 1 2; do
		grep -q "thread_name=\"worker-$i\"" "$TMP/thr.txt" ||
			fail "$run: no thread_name worker-$i label"
	done
	grep -q 'labels: bytes=[0-9]* thread=0 ' "$TMP/thr.txt" ||
		fail "$run: no numeric thread label"
	check_go "$TMP/thr.pb"
done
# Thirteen threads (uids 0 to 12): pprof's -tagfocus thread=N keeps the
# samples of thread N alone, with our per-thread total; a string label
# would be taken as a regular expression, "1" matching 1, 10, 11 and 12.
produce many 0 "lg_prof_sample:0,prof_accum:true,prof_sys_thread_name:true" 12
m0=$(ls "$TMP/many"/je.*.m0.heap 2>/dev/null | head -1)
if [ -z "$m0" ]; then
	fail "many: no prof.dump profile"
elif "$PROFCONV" text2pb --threads -o "$TMP/many.pb" "$m0"; then
	thread_totals "$TMP/many.pb" 4 >"$TMP/many.thr"
	grep -q '^12 ' "$TMP/many.thr" || fail "many: no thread 12"
	for uid in 1 2 10; do
		go tool pprof -raw -symbolize=none -tagfocus "thread=$uid" \
		    "$TMP/many.pb" >"$TMP/raw" 2>"$TMP/raw.err"
		sed -n '/^Samples:/,/^Locations/p' "$TMP/raw" >"$TMP/raw.s"
		# The unit "thread" keeps thread 0 (pprof drops a 0 without one).
		got=$(grep -o 'thread:\[[0-9]* thread\]' "$TMP/raw.s" |
			sed 's/ thread\]/]/' | sort -u | tr '\n' ' ')
		[ "$got" = "thread:[$uid] " ] ||
			fail "many: -tagfocus thread=$uid kept '$got': $(head -3 "$TMP/raw.err")"
		sum=$(awk '$1 ~ /^[0-9]+$/ {t += $4} END {print t + 0}' "$TMP/raw.s")
		want=$(awk -v u="$uid" '$1 == u {print $2}' "$TMP/many.thr")
		[ "$sum" = "${want:-none}" ] ||
			fail "many: thread $uid: pprof inuse_space $sum, ours ${want:-none}"
	done
	# The names stay strings, matched as pprof matches text (which uid
	# worker-9 got depends on the threads' start).
	w9=$("$PROFCONV" show "$TMP/many.pb" |
	    sed -n 's/.* thread=\([0-9]*\) thread_name="worker-9".*/\1/p' | sort -u)
	go tool pprof -raw -symbolize=none -tagfocus 'thread_name=^worker-9$' \
	    "$TMP/many.pb" 2>/dev/null | sed -n '/^Samples:/,/^Locations/p' |
	    grep -o 'thread:\[[0-9]* thread\]' | sed 's/ thread\]/]/' | sort -u >"$TMP/named"
	[ -n "$w9" ] && [ "$(cat "$TMP/named")" = "thread:[$w9]" ] ||
		fail "many: thread_name=worker-9 kept '$(tr '\n' ' ' <"$TMP/named")'"
else
	fail "many: text2pb --threads"
fi
# Without prof_accum: only the inuse types.
"$PROFCONV" show -s "$(ls "$TMP/noaccum"/je.*.f.heap.pb.gz | head -1)" |
	grep -q '^sample types: inuse_objects/count inuse_space/bytes\[default\]$' ||
	fail "noaccum: sample types are not inuse_objects, inuse_space"
finish
