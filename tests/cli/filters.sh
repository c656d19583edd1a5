# SPDX-License-Identifier: MIT
# filters.sh - pprof's label filters and LeakSanitizer's suppressions on
# real profiles made now.
#
# Labels: tests/producers/alloc.c runs under jemalloc with three named
# worker threads (pthread_setname_np), each allocating its own size;
# "profconv text2pb --threads" labels its samples thread, thread_name
# and bytes.  For each --tagfocus/--tagignore filter, every sample
# type's total kept by show, profflame and profdiff equals what
# "go tool pprof -raw" keeps with the same -tagfocus/-tagignore, and
# --tagroot/--tagleaf put each thread's total under its own frame.
#
# Suppressions: tests/trend/patterns.c runs under tcmalloc and dumps a
# series with two leaks; a suppressions file naming one of them drops it
# from proftrend's suspects and from profdiff --leaks, and the report of
# what it hid gives the bytes go tool pprof -focus finds in the stacks
# of that function.  Bad patterns and ranges are refused with one line.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
use_go
FLAME=$CMD/profflame
TREND=$CMD/proftrend
PROFDIFF=$CMD/profdiff
TYPES="alloc_objects alloc_space inuse_objects inuse_space"

# go_totals PB FLAG VALUE: go tool pprof's sums of the kept samples,
# one per sample type, on one line.
go_totals() {
	go tool pprof -raw -symbolize=none "$2" "$3" "$1" 2>"$TMP/go.err" |
		awk '/^Samples:/ {s = 1; getline; next} /^Locations/ {s = 0}
		s && $1 ~ /^-?[0-9]+$/ {
			for (i = 1; i <= 4; i++) { v = $i; sub(":", "", v); t[i] += v }
		}
		END { printf "%d %d %d %d\n", t[1], t[2], t[3], t[4] }'
}

# our_totals PB OPTION...: show -s's totals per type, on one line.
our_totals() {
	pb=$1
	shift
	"$PROFCONV" show -s --no-symbolize "$@" "$pb" 2>"$TMP/our.err" |
		awk -v types="$TYPES" 'BEGIN { n = split(types, ty, " ") }
		/^total / { split($2, a, "/"); v[a[1]] = $3 }
		END { for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? " " : ""), v[ty[i]] + 0; print "" }'
}

# flame_total PB TYPE OPTION...: profflame's folded counts added up.
flame_total() {
	pb=$1 ty=$2
	shift 2
	"$FLAME" --no-symbolize -t "$ty" "$@" "$pb" 2>/dev/null |
		awk '{ t += $NF } END { print t + 0 }'
}

# --- labels: jemalloc, named threads -----------------------------------------
LIBJE=$(find_lib libjemalloc.so.2)
if [ -z "$LIBJE" ]; then
	echo "libjemalloc.so.2 not found: label filters not tested" >&2
else
	JE_CONF=prof_final:true,prof_accum:true je_producer -f alloc 0 4
	m0=$(ls "$TMP"/je/je.*.m0.heap 2>/dev/null | head -n 1)
	if [ -z "$m0" ]; then
		fail "jemalloc wrote no prof.dump profile"
	else
		PB=$TMP/thr.pb.gz
		"$PROFCONV" text2pb --threads -o "$PB" "$m0" || fail "text2pb --threads"
		# Each filter keeps some samples and drops others, with both
		# go and profconv: a filter that kept all or none would prove
		# little.
		all=$(go_totals "$PB" -tagfocus '')
		for f in 'thread_name=worker' 'thread_name=worker-[02]' \
		    'thread_name=worker-1,alloc' 'worker-3' 'thread=2' \
		    'thread=1:3' 'thread=2:' 'bytes=16kb' 'bytes=16kb:40kb' \
		    'bytes=:1kb' 'bytes=64kb:' '32kb:' ':100b' 'thread_name:work,bytes' \
		    'thread_name=^alloc$' 'bytes=65536b'; do
			for flag in tagfocus tagignore; do
				g=$(go_totals "$PB" "-$flag" "$f")
				o=$(our_totals "$PB" "--$flag" "$f")
				[ "$g" = "$o" ] ||
					fail "--$flag '$f': go keeps '$g', profconv '$o': $(head -n 2 "$TMP/our.err")"
			done
			g=$(go_totals "$PB" -tagfocus "$f")
			[ "$g" != "$all" ] && [ "$g" != "0 0 0 0" ] ||
				echo "note: -tagfocus '$f' keeps all or nothing: $g" >&2
			# The same in profflame and profdiff (one view).
			want=$(echo "$g" | awk '{print $2}')
			got=$(flame_total "$PB" alloc_space --tagfocus "$f")
			[ "$got" = "$want" ] || fail "profflame --tagfocus '$f': $got, go $want"
		done
		# profgraph: the graph's "Showing nodes accounting for ..."
		# legend is go tool pprof -dot's with the same filter.
		for f in thread_name=worker-1 bytes=32kb:; do
			g=$(go tool pprof -dot -symbolize=none -tagfocus "$f" -sample_index=alloc_space "$PB" 2>/dev/null |
			    grep -o 'Showing nodes accounting for [^\\]* total' | head -n 1)
			o=$("$CMD/profgraph" --no-symbolize -t alloc_space --tagfocus "$f" "$PB" 2>/dev/null |
			    grep -o 'Showing nodes accounting for [^<\\]* total' | head -n 1)
			[ -n "$g" ] && [ "$g" = "$o" ] || fail "profgraph --tagfocus '$f': '$o', go '$g'"
		done
		# Both at once: focus then ignore, as pprof.
		g=$(go tool pprof -raw -symbolize=none -tagfocus thread_name=worker \
		    -tagignore 'bytes=32kb' "$PB" 2>/dev/null | awk '/^Samples:/ {s = 1; getline; next} /^Locations/ {s = 0}
		    s && $1 ~ /^-?[0-9]+$/ { t += $2 } END { print t + 0 }')
		o=$(flame_total "$PB" alloc_space --tagfocus thread_name=worker --tagignore bytes=32kb)
		[ "$g" = "$o" ] && [ "$g" -gt 0 ] || fail "tagfocus and tagignore: go $g, profconv $o"
		"$PROFDIFF" --no-symbolize --json --tagfocus thread_name=worker-0 "$PB" "$PB" \
		    >"$TMP/diff.json" 2>/dev/null || fail "profdiff --tagfocus"
		want=$(go_totals "$PB" -tagfocus thread_name=worker-0 | awk '{print $4}')
		grep -q "\"after\":{[^}]*\"inuse_space\":$want[,}]" "$TMP/diff.json" ||
			fail "profdiff --tagfocus: after is not go's $want"

		# --tagroot: one root per thread name, each with go's total
		# for that name; --tagleaf: the thread number at the leaf.
		"$FLAME" --no-symbolize -t inuse_space --tagroot thread_name "$PB" \
		    >"$TMP/root.folded" 2>/dev/null || fail "profflame --tagroot"
		for i in 0 1 2 3; do
			got=$(awk -F';' -v n="worker-$i" '$1 == n { split($NF, a, " "); t += a[length(a)] }
			    END { print t + 0 }' "$TMP/root.folded")
			want=$(go_totals "$PB" -tagfocus "thread_name=^worker-$i\$" | awk '{print $4}')
			[ "$got" = "$want" ] && [ "$got" -gt 0 ] ||
				fail "--tagroot thread_name: worker-$i has $got, go $want"
		done
		awk -F';' '$1 !~ /^(alloc|worker-[0-3]|\[no thread_name\])$/' \
		    "$TMP/root.folded" | grep -q . &&
			fail "--tagroot: a stack without the thread name at its root"
		"$FLAME" --no-symbolize --tagleaf thread --tagroot bytes "$PB" \
		    >"$TMP/leaf.folded" 2>/dev/null || fail "profflame --tagleaf"
		# pprof's names: thread numbers bare, sizes without a unit
		# (the bytes label has none), thread 0 too; each
		# thread's leaf frame holds go's total for it.
		for uid in 0 1 2 3 4; do
			got=$(awk -v u="$uid" '{ n = split($0, f, ";"); split(f[n], a, " ")
			    if (a[1] == u) t += a[2] } END { print t + 0 }' "$TMP/leaf.folded")
			want=$(go_totals "$PB" -tagfocus "thread=$uid" | awk '{print $4}')
			[ "$got" = "$want" ] && [ "$got" -gt 0 ] ||
				fail "--tagleaf thread: thread $uid has $got, go $want"
		done
		grep -Eq '^(16384|32768|65536|131072);.*;[1-4] [0-9]+$' "$TMP/leaf.folded" ||
			fail "--tagroot bytes: no worker's block size at a root"
		grep -Eq ';0 [0-9]+$' "$TMP/leaf.folded" ||
			fail "--tagleaf thread: no leaf of the main thread, 0"
		grep -F '[no thread]' "$TMP/leaf.folded" >&2 &&
			fail "--tagleaf thread: a sample under '[no thread]'"
		# --focus sees the pseudo-frames, as pprof's -focus does.
		g=$(go tool pprof -raw -symbolize=none -tagroot thread_name -focus '^worker-2$' "$PB" 2>/dev/null |
		    awk '/^Samples:/ {s = 1; getline; next} /^Locations/ {s = 0}
		    s && $1 ~ /^-?[0-9]+$/ { t += $2 } END { print t + 0 }')
		o=$(flame_total "$PB" alloc_space --tagroot thread_name --focus '^worker-2$')
		[ "$g" = "$o" ] && [ "$g" -gt 0 ] || fail "--tagroot with --focus: go $g, profconv $o"

		# profflame --split-threads: one root per thread, "thread N
		# (NAME)", each holding go's total for that thread name.
		"$FLAME" --no-symbolize -t alloc_space --split-threads "$PB" \
		    >"$TMP/split.folded" 2>/dev/null || fail "profflame --split-threads"
		for name in alloc worker-0 worker-1 worker-2 worker-3; do
			got=$(awk -v n="$name" '{ split($0, f, ";"); k = f[1]; sub(/^thread [0-9]+ \(/, "", k)
			    if (k == n ")") t += $NF } END { print t + 0 }' "$TMP/split.folded")
			want=$(go_totals "$PB" -tagfocus "thread_name=^$name\$" | awk '{print $2}')
			[ "$got" = "$want" ] && [ "$got" -gt 0 ] ||
				fail "--split-threads: $name has $got, go $want"
		done
		grep -q '^thread 0 (alloc);' "$TMP/split.folded" ||
			fail "--split-threads: the main thread is not 'thread 0 (alloc)'"
		[ "$(cut -d';' -f1 "$TMP/split.folded" | sort -u | wc -l)" = 5 ] ||
			fail "--split-threads: not 5 roots: $(cut -d';' -f1 "$TMP/split.folded" | sort -u | tr '\n' ' ')"
		"$FLAME" --svg --no-symbolize --split-threads -o "$TMP/split.svg" "$PB" 2>/dev/null ||
			fail "profflame --svg --split-threads"
		# (jemalloc numbers the workers in the order they start.)
		grep -Eq 'thread [1-4] \(worker-2\)' "$TMP/split.svg" ||
			fail "--svg --split-threads: no 'thread N (worker-2)' frame"

		# --tagshow/--taghide: the label keys show's dump prints for
		# each sample are those go tool pprof -raw prints.
		for pair in '-tagshow name' '-taghide ^thr' '-tagshow byt|name' \
		    '-tagshow name -taghide name'; do
			set -- $pair
			go tool pprof -raw -symbolize=none "$@" "$PB" 2>/dev/null |
			    awk '/^Samples:/ {s = 1; getline; next} /^Locations/ { if (n) print k; s = 0 }
			    s && $1 ~ /^-?[0-9]+$/ { if (n++) print k; k = ""; next }
			    s && match($1, /^[a-z_]+:\[/) { k = k " " substr($1, 1, RLENGTH - 2) }' \
			    >"$TMP/go.keys"
			"$PROFCONV" show "-$1" "$2" ${3:+"-$3"} ${4:+"$4"} "$PB" 2>/dev/null |
			    awk '/^samples:/ {s = 1; next} /^locations/ { if (n) print k; s = 0 }
			    s && /^ +-?[0-9]+ / { if (n++) print k; k = ""; next }
			    s && /labels:/ { for (i = 2; i <= NF; i++) if (match($i, /^[a-z_]+=/))
				k = k " " substr($i, 1, RLENGTH - 1) }' >"$TMP/our.keys"
			sort_keys() { while read -r line; do echo $(printf '%s\n' $line | sort); done; }
			sort_keys <"$TMP/go.keys" >"$TMP/go.k"
			sort_keys <"$TMP/our.keys" >"$TMP/our.k"
			[ -s "$TMP/go.k" ] && diff -u "$TMP/go.k" "$TMP/our.k" >&2 ||
				fail "show $pair: other label keys than go tool pprof -raw"
		done

		# show --sizes: go's samples, each at its average size
		# (bytes / objects), binned by powers of two, give the same
		# objects and bytes per line; with a filter too.
		for f in '' 'thread_name=worker'; do
			go tool pprof -raw -symbolize=none -tagfocus "$f" "$PB" 2>/dev/null |
			    awk '/^Samples:/ {s = 1; getline; next} /^Locations/ {s = 0}
			    s && $1 ~ /^-?[0-9]+$/ { o = $1; b = $2; sub(":", "", b)
				if (o > 0 && b > 0) { a = int(b / o); k = 0
				    while (a >= 2) { a = int(a / 2); k++ }
				    n[k]++; O[k] += o; B[k] += b } }
			    END { for (k in n) print k, n[k], O[k], B[k] }' |
			    sort -n >"$TMP/go.sizes"
			"$PROFCONV" show --sizes -t alloc_space --no-symbolize --tagfocus "$f" "$PB" \
			    >"$TMP/sizes" 2>"$TMP/sizes.err" || fail "show --sizes '$f': $(cat "$TMP/sizes.err")"
			grep -q 'only each stack' "$TMP/sizes" || fail "show --sizes does not say it shows averages"
			# "[LO, HI)": the power of two of LO.
			awk '$1 ~ /^\[/ && $5 > 0 { lo = $1; u = $2; sub(/^\[/, "", lo); sub(/,$/, "", u)
			    m = (u == "KiB" ? 1024 : u == "MiB" ? 1048576 : u == "GiB" ? 1073741824 : 1)
			    v = lo * m; k = 0; while (v >= 2) { v /= 2; k++ }
			    print k, $5, $6, $8 }' "$TMP/sizes" | sort -n >"$TMP/our.sizes"
			[ -s "$TMP/go.sizes" ] && diff -u "$TMP/go.sizes" "$TMP/our.sizes" >&2 ||
				fail "show --sizes --tagfocus '$f' differs from go's samples"
		done
		run 1 "$PROFCONV" show --sizes -t alloc_objects "$PB"
		grep -q "no objects type" "$TMP/err" || fail "--sizes -t alloc_objects: $(cat "$TMP/err")"

		# Bad ranges and expressions: one line and the usage hint,
		# exit 2, before the profile is read.
		for bad in 'bytes=64:1mb' 'bytes=1kb:2ms' 'bytes=99999999999999999999kb' \
		    'thread_name=wor(ker' ':5kb:' ; do
			run 2 "$FLAME" --tagfocus "$bad" /nonexistent
			[ "$(wc -l <"$TMP/err")" = 2 ] && grep -q -- "--tagfocus" "$TMP/err" &&
			    ! grep -q nonexistent "$TMP/err" ||
				fail "--tagfocus '$bad': $(cat "$TMP/err")"
		done
	fi
fi

# --- suppressions: a tcmalloc series ------------------------------------------
if [ -e /usr/lib/x86_64-linux-gnu/libtcmalloc.so ] || ldconfig -p | grep -q libtcmalloc.so; then
	cc -O1 -g -fno-omit-frame-pointer -o "$TMP/pat" \
	    "$PROFCONV_SRCDIR/tests/trend/patterns.c" -Wl,--no-as-needed -ltcmalloc ||
		fail "cannot build patterns with tcmalloc"
	HEAPPROFILE=$TMP/tc "$TMP/pat" 12 2>/dev/null || fail "patterns under tcmalloc failed"
	first=$TMP/tc.0001.heap
	last=$(ls "$TMP"/tc.*.heap | tail -n 1)
	# The rows proftrend calls leaks (its "leak" verdict).
	suspects() { awk 'NF > 2 && $(NF - 2) == "leak" { print $NF }' "$TMP/out" | sort | tr '\n' ' '; }

	run 1 "$TREND" --bytes "$TMP"/tc.*.heap
	[ "$(suspects)" = "slow_leak steady_leak " ] ||
		fail "no suppressions: suspects '$(suspects)'"
	grep -q '^suppressed' "$TMP/out" &&
		fail "the built-in list hid something in patterns.c: $(grep -A3 '^suppressed' "$TMP/out")"

	# The bytes go tool pprof -focus finds under steady_leak, first and
	# last, converted once.
	"$PROFCONV" text2pb --symbolize -o "$TMP/first.pb" "$first" &&
	    "$PROFCONV" text2pb --symbolize -o "$TMP/last.pb" "$last" ||
		fail "text2pb of the series"
	focus_bytes() {
		# The in-use column: inuse_space, or space in a dump
		# without frees.
		go tool pprof -raw -symbolize=none -focus "$2" "$1" 2>/dev/null |
		awk '/^Samples:/ { s = 1; getline
			for (i = 1; i <= NF; i++) if ($i ~ /^(inuse_)?space\//) c = i
			next }
		/^Locations/ {s = 0}
		s && $1 ~ /^-?[0-9]+$/ { v = $c; sub(":", "", v); t += v }
		END { print t + 0 }'
	}
	lastb=$(focus_bytes "$TMP/last.pb" '^steady_leak$')
	growth=$((lastb - $(focus_bytes "$TMP/first.pb" '^steady_leak$')))
	[ "$lastb" -gt 0 ] || fail "go finds no steady_leak bytes"
	# LSan's matcher: plain names, '*', a leading '^', a trailing '$';
	# comments, blanks, other types ignored.
	for pat in 'steady_leak' '*dy_le*' '^steady' 'teady_leak$' '^steady_leak$'; do
		printf '# known\n\n  race:slow_leak\nleak:%s  \n' "$pat" >"$TMP/lsan.supp"
		run 1 "$TREND" --bytes --suppressions "$TMP/lsan.supp" "$TMP"/tc.*.heap
		[ "$(suspects)" = "slow_leak " ] ||
			fail "leak:$pat: suspects '$(suspects)'"
		grep -Eq "^  [0-9]+ stacks?, $lastb \\(growth $growth\\): leak:[^ ]+ \\($TMP/lsan.supp:4\\)$" "$TMP/out" ||
			fail "leak:$pat: no report of $lastb bytes (growth $growth): $(grep -A3 '^suppressed' "$TMP/out")"
		run 1 "$TREND" --json --suppressions "$TMP/lsan.supp" "$TMP"/tc.*.heap
		grep -q "\"line\":4,\"stacks\":[0-9]*,\"value\":$lastb,\"growth\":$growth}" "$TMP/out" ||
			fail "leak:$pat: JSON: $(grep -A2 suppressed "$TMP/out")"
	done
	# Anchors that do not match hide nothing.
	for pat in '^teady' 'steady$' 'steady_leak_x'; do
		printf 'leak:%s\n' "$pat" >"$TMP/lsan.supp"
		run 1 "$TREND" --bytes --suppressions "$TMP/lsan.supp" "$TMP"/tc.*.heap
		[ "$(suspects)" = "slow_leak steady_leak " ] ||
			fail "leak:$pat hid something: suspects '$(suspects)'"
	done
	# A file name matches too: every frame of patterns.c.
	printf 'leak:patterns.c$\n' >"$TMP/lsan.supp"
	run 0 "$TREND" --bytes --suppressions "$TMP/lsan.supp" "$TMP"/tc.*.heap
	[ -z "$(suspects)" ] || fail "leak:patterns.c$: suspects '$(suspects)'"
	# profdiff --leaks: the suppressed row is gone, and said so.
	printf 'leak:steady_leak\n' >"$TMP/lsan.supp"
	run 1 "$PROFDIFF" --leaks --bytes --suppressions "$TMP/lsan.supp" "$first" "$last"
	grep -q ' steady_leak$' "$TMP/out" && fail "profdiff --leaks: steady_leak still shown"
	grep -q ' slow_leak$' "$TMP/out" || fail "profdiff --leaks: slow_leak gone"
	grep -Eq "^  [0-9]+ stacks?, $growth: leak:steady_leak \\($TMP/lsan.supp:1\\)$" "$TMP/out" ||
		fail "profdiff --leaks: no report of $growth bytes: $(grep -A3 '^suppressed' "$TMP/out")"

	# Bad files: one line naming the file and line, exit 2.
	for bad in 'leak:' 'leak:^' 'leak:**' 'leak:a$b' 'no colon here'; do
		printf 'leak:ok\n%s\n' "$bad" >"$TMP/bad.supp"
		run 2 "$TREND" --suppressions "$TMP/bad.supp" "$first" "$last"
		[ "$(wc -l <"$TMP/err")" = 2 ] && grep -q "$TMP/bad.supp:2: " "$TMP/err" ||
			fail "bad suppression '$bad': $(cat "$TMP/err")"
	done
else
	echo "libtcmalloc not found: suppressions not tested" >&2
fi
finish
