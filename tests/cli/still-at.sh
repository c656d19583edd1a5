# SPDX-License-Identifier: MIT
# still-at.sh - profdiff --still-at LATER BASE CUR: per row, what grew from
# BASE to CUR and is still held at LATER, max(0, min(CUR - BASE,
# LATER - BASE)), checked against the values profconv show --summary
# gives for each of the three real dumps (tests/producers/leakshapes.c
# under jemalloc, every allocation recorded), in the table and the JSON.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
command -v python3 >/dev/null 2>&1 || skip "no python3 (JSON checks)"
use_jemalloc
PROFDIFF=$CMD/profdiff

cc -O1 -g -fno-omit-frame-pointer -o "$TMP/shapes" \
	"$PROFCONV_SRCDIR/tests/producers/leakshapes.c" || fail "cannot build leakshapes"
LD_PRELOAD=$LIBJE MALLOC_CONF=prof:true,lg_prof_sample:0,prof_final:true,prof_prefix:$TMP/je \
	"$TMP/shapes" 24 2>/dev/null || fail "leakshapes under jemalloc failed"
pid=$(ls "$TMP"/je.*.m0.heap | sed 's/.*\/je\.\([0-9]*\)\..*/\1/')
dump() { echo "$TMP/je.$pid.$1.m$1.heap"; }
BASE=$(dump 6) CUR=$(dump 12) LATER=$(dump 16)
FINAL=$(ls "$TMP"/je.*.f.heap)

# flat FILE TYPE FUNCTION: FUNCTION's flat value of TYPE in FILE (0 when
# absent), from profconv show --summary.
flat() {
	"$PROFCONV" show --summary -n 100 -t "$2" "$1" |
		sed -n '/^top .* functions/,$p' |
		awk -v f="$3" '$NF == f { print $1; found = 1 } END { if (!found) print 0 }'
}
# held B C L: max(0, min(C - B, L - B))
held() {
	g=$(($2 - $1)) l=$(($3 - $1))
	h=$((g < l ? g : l))
	echo $((h < 0 ? 0 : h))
}

# check LATER WHAT: every shape's row against show's values.
check() {
	later=$1
	for f in steady_leak small_leak fill_cache freed_at_exit sawtooth transient; do
		for t in inuse_objects inuse_space; do
			b=$(flat "$BASE" $t $f) c=$(flat "$CUR" $t $f) l=$(flat "$later" $t $f)
			eval "g_$t=$((c - b)) l_$t=$((l - b)) h_$t=$(held "$b" "$c" "$l")"
		done
		# shellcheck disable=SC2154
		row=$(awk -v f="$f" '$NF == f' "$TMP/out")
		if [ "$g_inuse_objects" -gt 0 ] || [ "$g_inuse_space" -gt 0 ]; then
			want="$g_inuse_objects $l_inuse_objects $h_inuse_objects $g_inuse_space $l_inuse_space $h_inuse_space $f"
			[ "$(echo $row)" = "$want" ] ||
				fail "$2: $f: '$(echo $row)', want '$want'"
		else
			[ -z "$row" ] || fail "$2: $f did not grow but has a row: $row"
		fi
		printf '%s %s %s\n' "$f" "$h_inuse_objects" "$h_inuse_space" >>"$TMP/want-json"
	done
}

: >"$TMP/want-json"
run 1 "$PROFDIFF" --bytes --still-at "$LATER" "$BASE" "$CUR"
check "$LATER" "BASE m6, CUR m12, LATER m16"
grep -q 'different programs' "$TMP/err" &&
	fail "dumps of one program warn: $(cat "$TMP/err")"
# The leaks are held; the transient grew and was let go by m16 (held
# 0); the sawtooth is lower at m12 than at m6 (no row).
[ "$(awk '$NF == "transient" { print $6 }' "$TMP/out")" = 0 ] ||
	fail "transient: $(grep transient "$TMP/out")"
grep -q ' sawtooth$' "$TMP/out" && fail "sawtooth has a row"

# JSON: the same numbers, read by Python's json module.
run 1 "$PROFDIFF" --json --still-at "$LATER" "$BASE" "$CUR"
python3 - "$TMP/out" "$TMP/want-json" <<'EOF' || fail "JSON still_held values"
import json, sys
doc = json.load(open(sys.argv[1]))
rows = {r["name"]: r["values"] for r in doc["rows"]}
for line in open(sys.argv[2]):
    name, objs, space = line.split()
    if name not in rows:
        assert int(objs) == 0 and int(space) == 0, name
        continue
    v = rows[name]
    assert v["inuse_objects"]["still_held"] == int(objs), (name, v)
    assert v["inuse_space"]["still_held"] == int(space), (name, v)
    for t in ("inuse_objects", "inuse_space"):
        x = v[t]
        assert x["grew"] == x["cur"] - x["base"]
        assert x["later_delta"] == x["later"] - x["base"]
        assert x["still_held"] == max(0, min(x["grew"], x["later_delta"]))
assert doc["rows_held"] == sum(1 for r in doc["rows"]
    if any(x["still_held"] > 0 for x in r["values"].values()))
EOF

# LATER the final dump (prof_final): what was freed at exit is held no
# more; the leaks still are.
: >"$TMP/want-json"
run 1 "$PROFDIFF" --bytes --still-at "$FINAL" "$BASE" "$CUR"
check "$FINAL" "LATER the final dump"
[ "$(awk '$NF == "freed_at_exit" { print $6 }' "$TMP/out")" = 0 ] ||
	fail "freed_at_exit still held at exit: $(grep freed_at_exit "$TMP/out")"

# Nothing grew between two identical dumps: exit 0, only TOTAL.
run 0 "$PROFDIFF" --still-at "$LATER" "$CUR" "$CUR"
[ "$(wc -l <"$TMP/out")" = 2 ] || fail "same dumps: $(cat "$TMP/out")"

# LATER a dump of another program (examples/leaky.c, also under
# jemalloc): one warning naming CUR and LATER and both binaries, as
# BASE and CUR of two programs get; the comparison goes on, its exit
# status the table's.
cc -O1 -g -fno-omit-frame-pointer -o "$TMP/leaky" \
	"$PROFCONV_SRCDIR/examples/leaky.c" || fail "cannot build leaky"
LD_PRELOAD=$LIBJE MALLOC_CONF=prof:true,lg_prof_sample:0,prof_final:true,prof_prefix:$TMP/other \
	"$TMP/leaky" 2000 2>/dev/null || fail "leaky under jemalloc failed"
OTHER=$(ls "$TMP"/other.*.f.heap)
"$PROFDIFF" --bytes --still-at "$OTHER" "$BASE" "$CUR" >"$TMP/out" 2>"$TMP/err"
st=$?
held_rows=$(awk '$NF != "TOTAL" && $3 ~ /^-?[0-9]+$/ && ($3 > 0 || $6 > 0)' "$TMP/out" | grep -c .)
if [ "$held_rows" -gt 0 ]; then want=1; else want=0; fi
[ "$st" = "$want" ] || fail "LATER of another program: exit $st, want $want"
awk '$NF == "TOTAL" { t = 1 } END { exit !t }' "$TMP/out" ||
	fail "LATER of another program: no table: $(cat "$TMP/out")"
grep -Fqx "profdiff: warning: '$CUR' and '$OTHER' profile different programs ('shapes' and 'leaky')" "$TMP/err" ||
	fail "LATER of another program: no warning: $(cat "$TMP/err")"
[ "$(grep -c 'different programs' "$TMP/err")" = 1 ] ||
	fail "LATER of another program: $(cat "$TMP/err")"

# Options that mean nothing here are refused.
run 2 "$PROFDIFF" --still-at "$LATER" --leaks "$BASE" "$CUR"
grep -q 'still-at' "$TMP/err" || fail "--leaks with --still-at: $(cat "$TMP/err")"
run 2 "$PROFDIFF" --still-at "$TMP/missing.heap" "$BASE" "$CUR"
grep -q "missing.heap" "$TMP/err" || fail "missing LATER not named: $(cat "$TMP/err")"
finish
