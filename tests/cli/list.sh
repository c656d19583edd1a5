# SPDX-License-Identifier: MIT
# list.sh - profconv list prints what go tool pprof -list prints for the
# same pprof file, line for line (values, totals, percentages, ranges,
# sources), on heap profiles made now: a C++ program whose template
# member is inlined into two callers, and the quick start's leaky C
# program; --base as pprof's -diff_base; plus the inlined lines pprof's
# text listing lacks, checked against pprof's own numbers.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/list-lib.sh"

need_pprof
make_cache
export LC_ALL=C
# Sources are read only beneath the source roots (here the current
# directory): cache.cc is in the source tree.
cd "$PROFCONV_SRCDIR" || exit 1

# The C++ program, every sample type, by function regexes.
types=$(sample_types "$CACHE1")
[ -n "$types" ] || fail "no sample types in $CACHE1"
objects=$(echo "$types" | grep -m1 objects)
for t in $types; do
	run 0 "$PROFCONV" list -t $t 'Cache::put|fill_' "$CACHE1"
	pprof_list -sample_index=$t -list 'Cache::put|fill_' "$CACHE1"
	same_as_pprof "cache -t $t"
done
run 0 "$PROFCONV" list --no-inline 'Cache::put|fill_' "$CACHE1"
pprof_list -noinlines -list 'Cache::put|fill_' "$CACHE1"
same_as_pprof "cache --no-inline"
grep -q '^ROUTINE ======================== Cache::put' "$TMP/out" &&
	fail "--no-inline: Cache::put, inlined everywhere, still listed"
run 0 "$PROFCONV" list . "$CACHE1"
pprof_list -list . "$CACHE1"
same_as_pprof "cache, every function"

# Focus and ignore filter the stacks; percentages stay of the whole
# total, as pprof computes it before filtering.
for f in focus:fill_doubles 'focus:^fill_doubles$' ignore:fill_ints \
    'ignore:^fill_ints$' focus:grow; do
	run 0 "$PROFCONV" list --"${f%%:*}" "${f#*:}" 'Cache::put|fill_' "$CACHE1"
	pprof_list -"${f%%:*}"="${f#*:}" -list 'Cache::put|fill_' "$CACHE1"
	same_as_pprof "cache --${f%%:*} ${f#*:}"
done
# With --relative-percentages, of what they keep, as pprof's
# -relative_percentages.
for f in focus:fill_doubles ignore:fill_ints; do
	run 0 "$PROFCONV" list --relative-percentages --"${f%%:*}" "${f#*:}" \
	    'Cache::put|fill_' "$CACHE1"
	pprof_list -relative_percentages -"${f%%:*}"="${f#*:}" \
	    -list 'Cache::put|fill_' "$CACHE1"
	same_as_pprof "cache --relative-percentages --${f%%:*} ${f#*:}"
done

# The change from run 0 to run 1, as -diff_base.
for t in $types; do
	run 0 "$PROFCONV" list -t $t --base "$CACHE0" 'Cache|fill_' "$CACHE1"
	pprof_list -sample_index=$t -diff_base "$CACHE0" -list 'Cache|fill_' "$CACHE1"
	same_as_pprof "cache --base -t $t"
done
# The line that grew says so: fill_doubles' second put.
run 0 "$PROFCONV" list -t "$objects" --base "$CACHE0" fill_doubles "$CACHE1"
grep -Eq '^ +\. +[1-9][0-9]* +[0-9]+:.*doubles\.put\(i \* 0\.25' "$TMP/out" ||
	fail "--base: no growth on the line of the second put"

# Inlined rows: under each line of fill_* that calls put(), put's own
# lines; their flat counts, over both callers, are what pprof gives
# Cache::put's lines.
run 0 "$PROFCONV" list -t "$objects" 'fill_' "$CACHE1"
grep -Eq '^ +[^ ]+ +[^ ]+ +\+ Cache::put cache\.cc:[0-9]+: V \*p = static_cast' "$TMP/out" ||
	fail "no inlined row of Cache::put's malloc line under fill_*"
pprof_list -sample_index="$objects" -list 'Cache::put' "$CACHE1"
for line in $(awk '$3 ~ /^[0-9]+:/ && $1 != "." {sub(":.*", "", $3); print $3}' "$TMP/pprof"); do
	want=$(awk -v l="$line" '$3 ~ "^" l ":" {print $1}' "$TMP/pprof")
	got=$(awk -v l="$line" '$3 == "+" && $4 == "Cache::put" && $5 == "cache.cc:" l ":" && $1 != "." {s += $1} END {print s + 0}' "$TMP/out")
	[ "$got" = "$want" ] ||
		fail "inlined Cache::put line $line: flat $got under the callers, pprof says $want"
done
[ -n "${line-}" ] || fail "pprof listed no flat line of Cache::put"

# The C program: the leak, the cache, the caller; from the project's
# directory (its sources are found by the absolute name the DWARF
# records, beneath the current directory, a source root).
make_leaky "$TMP/proj"
cd "$TMP/proj" || exit 1
for t in $(sample_types "$LEAKY"); do
	run 0 "$PROFCONV" list -t $t 'make_request_buffer|remember|handle_request' "$LEAKY"
	pprof_list -sample_index=$t -list 'make_request_buffer|remember|handle_request' "$LEAKY"
	same_as_pprof "leaky -t $t"
	grep -q 'memset(p, .r., n);' "$TMP/out" || fail "leaky: no source text"
done

# The command line: two operands, a REGEX that compiles (checked before
# any input is read), a readable profile.
run 2 "$PROFCONV" list "$LEAKY"
expect_err "profconv list: expected REGEX and PROFILE
Try 'profconv list --help'."
run 2 "$PROFCONV" list '(' "$TMP/no-such-file"
grep -q "^profconv list: invalid REGEX expression '('" "$TMP/err" || fail "bad REGEX: $(cat "$TMP/err")"
run 1 "$PROFCONV" list . "$TMP/no-such-file"

# No match: pprof's message, exit 1.
run 1 "$PROFCONV" list 'no_such_function_x' "$LEAKY"
grep -q "no matches found for regexp: no_such_function_x" "$TMP/err" ||
	fail "no match: $(cat "$TMP/err")"
finish
