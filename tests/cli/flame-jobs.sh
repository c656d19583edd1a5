# SPDX-License-Identifier: MIT
# flame-jobs.sh - profflame on a real jemalloc profile of ~32,000
# distinct stacks (tests/producers/manystacks.c, every allocation
# sampled): the folded stacks equal the ones built from go tool pprof's
# raw listing of the same profile, are in byte order, and the folded,
# SVG, speedscope and differential outputs are byte-identical with 1, 2,
# 3 and 8 threads, from the legacy file and from its pprof conversion;
# and so is profconv report's page, whose flame graph and call graph are
# made at once on its threads, of the profile and of the change.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
use_go
use_jemalloc

FLAME=$CMD/profflame
PROG=$TMP/manystacks
cc -O1 -g -fno-omit-frame-pointer -o "$PROG" \
    "$PROFCONV_SRCDIR/tests/producers/manystacks.c" ||
	skip "cannot build tests/producers/manystacks.c"
# produce N NAME: a jemalloc dump of N call paths, in $TMP/NAME.heap.
produce() {
	LD_PRELOAD=$LIBJE \
	MALLOC_CONF="prof:true,prof_final:true,lg_prof_sample:0,prof_prefix:$TMP/$2" \
	    "$PROG" "$1" 2>"$TMP/$2.err" || fail "manystacks $1: $(cat "$TMP/$2.err")"
	mv "$TMP/$2".*.heap "$TMP/$2.heap" || fail "manystacks $1: no dump"
}
produce 40000 cur
produce 30000 base
run 0 "$PROFCONV" symbolize -o "$TMP/cur.pb.gz" "$TMP/cur.heap"

# The oracle: pprof's listing, allocator frames (those in libjemalloc, at
# the leaf end) cut, inline frames outermost first, stacks root first,
# inuse_space added per stack.  Other frames without symbols are "?"
# here, and "?" stands for profflame's "module+0xoffset" when comparing.
go tool pprof -raw -sample_index=inuse_space "$TMP/cur.pb.gz" >"$TMP/raw" \
    2>"$TMP/raw.err" || fail "go tool pprof -raw: $(cat "$TMP/raw.err")"
awk '
/^Samples:/ { s = 1; next }
/^Locations/ { s = 0; l = 1; next }
/^Mappings/ { l = 0; m = 1; next }
m && /^[0-9]+: / { id = $1; sub(/:$/, "", id); je[id] = $3 ~ /libjemalloc/ }
s && /^ *[0-9]+ +[0-9]+: / {
	v = $2; sub(/:$/, "", v)
	stk[++ns] = NF - 2; val[ns] = v
	for (i = 3; i <= NF; i++)
		loc[ns, i - 2] = $i
}
l && /^ *[0-9]+: / {
	id = $1; sub(/:$/, "", id)
	nl[id] = 1
	line[id, 1] = ($3 ~ /^M=/ && NF >= 4) ? $4 : "?"
	mp[id] = $3; sub(/^M=/, "", mp[id])
	next
}
l && NF > 0 { line[id, ++nl[id]] = $1 }
END {
	for (k = 1; k <= ns; k++) {
		for (f = 1; f <= stk[k] && line[loc[k, f], 1] == "?" &&
		    je[mp[loc[k, f]]]; f++)
			;
		t = ""
		for (i = stk[k]; i >= f; i--)
			for (j = nl[loc[k, i]]; j >= 1; j--)
				t = t (t == "" ? "" : ";") line[loc[k, i], j]
		sum[t] += val[k]
	}
	for (t in sum)
		if (sum[t] != 0)
			print t, sum[t]
}' "$TMP/raw" | sort >"$TMP/oracle" || fail "cannot read pprof's listing"
[ "$(wc -l <"$TMP/oracle")" -gt 20000 ] || fail "oracle: only $(wc -l <"$TMP/oracle") stacks"

run 0 "$FLAME" -j 1 "$TMP/cur.pb.gz"
cp "$TMP/out" "$TMP/folded"
sort -c "$TMP/folded" 2>/dev/null || fail "folded stacks are not in byte order"
sed 's/[^; ]*+0x[0-9a-f]*/?/g' "$TMP/folded" | sort >"$TMP/ours"
cmp -s "$TMP/ours" "$TMP/oracle" ||
	fail "folded stacks differ from pprof's ($(diff "$TMP/ours" "$TMP/oracle" | head -4))"
grep -q ';f10;' "$TMP/folded" && grep -q ';f1;' "$TMP/folded" ||
	fail "the program's frames f1 and f10 are missing"

# same NAME ARGS...: profflame ARGS gives the same bytes with -j 1, 2, 3, 8.
same() {
	name=$1
	shift
	run 0 "$FLAME" -j 1 "$@"
	cp "$TMP/out" "$TMP/$name.1"
	[ -s "$TMP/$name.1" ] || fail "$name: empty output"
	for j in 2 3 8; do
		run 0 "$FLAME" -j "$j" "$@"
		cmp -s "$TMP/out" "$TMP/$name.1" || fail "$name: -j $j differs from -j 1"
	done
}
same folded "$TMP/cur.pb.gz"
same legacy "$TMP/cur.heap"
cmp -s "$TMP/legacy.1" "$TMP/folded" || fail "the legacy file folds otherwise than its pprof"
same lines --lines "$TMP/cur.pb.gz"
same objects -t inuse_objects --no-inline "$TMP/cur.pb.gz"
same focus --focus 'f1[0-5]?$' --ignore 'f3' "$TMP/cur.pb.gz"
same diff --base "$TMP/base.heap" "$TMP/cur.heap"
same svg --svg "$TMP/cur.pb.gz"
same svg-rev --svg --reverse --inverted --minwidth 0 "$TMP/cur.pb.gz"
same svg-diff --svg --base "$TMP/base.heap" "$TMP/cur.heap"
same speedscope --speedscope "$TMP/cur.pb.gz"

# same_page NAME ARGS...: profconv report ARGS writes the same page with
# -j 1, 2, 3 and 8, with its flame graph and its call graph in it.
same_page() {
	name=$1
	shift
	for j in 1 2 3 8; do
		run 0 "$PROFCONV" report -j "$j" --quiet -o "$TMP/$name.$j.html" "$@"
	done
	grep -q 'class="pic flame"' "$TMP/$name.1.html" &&
	    grep -q 'class="pic graph"' "$TMP/$name.1.html" ||
		fail "$name: no flame graph or no call graph on the page"
	for j in 2 3 8; do
		cmp -s "$TMP/$name.$j.html" "$TMP/$name.1.html" ||
			fail "$name: report -j $j differs from -j 1"
	done
}
same_page report "$TMP/cur.pb.gz"
same_page report-diff --base "$TMP/base.heap" "$TMP/cur.heap"

finish
