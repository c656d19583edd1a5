# SPDX-License-Identifier: MIT
# speedscope.sh - profflame --speedscope: the file follows speedscope's
# file format (its schema's rules, checked here, and the schema itself as
# the speedscope package ships it), every profile's samples and weights
# are exactly profflame's folded stacks of that sample type, frames carry
# file and line, inline frames included; and speedscope itself (npm
# package, served from a loopback HTTP server, headless Chromium) loads
# the file and shows the frame names.  Profiles: the Go heap profile in
# tests/data, real tcmalloc and jemalloc profiles made now.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

FLAME=$CMD/profflame
SSCHECK="$PROFCONV_SRCDIR/tests/cli/speedscope-check.py"
sscheck() { python3 "$SSCHECK" "$@"; }
export LC_ALL=C
mem=$DATA/go/mem.pb.gz

# speedscope's app and schema, installed once into the build tree.
NPM_DIR=${PROFCONV_NPM_DIR:-$BIN/../tests/npm}
APP=
SCHEMA=
if sh "$PROFCONV_SRCDIR/tests/cli/npm-setup.sh" "$NPM_DIR" speedscope 1.25.0 \
    dist/release/index.html 2>"$TMP/npm.err"; then
	APP=$NPM_DIR/speedscope/node_modules/speedscope/dist/release
	SCHEMA=$APP/file-format-schema.json
else
	echo "note: no speedscope app: $(cat "$TMP/npm.err")" >&2
fi

# check_file NAME IN [-t TYPE]: valid, and each profile equals the folded
# stacks of its sample type.
check_file() {
	name=$1 in=$2
	shift 2
	run 0 "$FLAME" --speedscope "$@" "$in" -o "$TMP/$name.json"
	sscheck valid "$TMP/$name.json" $SCHEMA >"$TMP/$name.types" ||
		{ fail "$name: not a valid speedscope file"; return; }
	while read -r t; do
		"$FLAME" -t "$t" "$in" >"$TMP/$name.$t.folded" 2>/dev/null ||
			fail "$name: folded -t $t"
		sscheck stacks "$TMP/$name.json" "$t" "$TMP/$name.$t.folded" ||
			fail "$name: profile $t differs from the folded stacks"
	done <"$TMP/$name.types"
}

# Every sample type, in the profile's order; the default one shown first.
check_file go "$mem"
[ "$(tr '\n' ' ' <"$TMP/go.types")" = "alloc_objects alloc_space inuse_objects inuse_space " ] ||
	fail "go: profiles $(cat "$TMP/go.types")"
python3 - "$TMP/go.json" <<'PY' || fail "go: active profile, units or name wrong"
import json, sys
f = json.load(open(sys.argv[1]))
p = f["profiles"]
assert p[f["activeProfileIndex"]]["name"] == "alloc_space", f["activeProfileIndex"]
assert [x["unit"] for x in p] == ["none", "bytes", "none", "bytes"], [x["unit"] for x in p]
assert f["name"] == "mem.pb.gz" and f["exporter"].startswith("profconv@")
PY
check_file go-one "$mem" -t inuse_objects
[ "$(cat "$TMP/go-one.types")" = inuse_objects ] || fail "-t: profiles $(cat "$TMP/go-one.types")"
sscheck frame "$TMP/go.json" 'profconv.test/gowork.allocLarge' work_test.go ||
	fail "go: frames lack file and line"

make_profiles
check_file tc "$TC_NEW"
sscheck frame "$TMP/tc.json" inline_alloc pictures.cc || fail "tcmalloc: inline frame lacks file:line"
sscheck frame "$TMP/tc.json" grow_table pictures.cc || fail "tcmalloc: grow_table lacks file:line"
if [ -n "$JE" ]; then
	check_file je "$JE"
	sscheck frame "$TMP/je.json" inline_alloc pictures.cc || fail "jemalloc: inline frame lacks file:line"
fi

# Errors: no differential speedscope; negative values refused.
run 2 "$FLAME" --speedscope --base "$mem" "$mem"
"$PROFCONV" merge -o "$TMP/twice.pb.gz" "$mem" "$mem" || fail "merge"
"$CMD/profdiff" -q -o "$TMP/neg.pb.gz" "$TMP/twice.pb.gz" "$mem" 2>/dev/null
run 1 "$FLAME" --speedscope "$TMP/neg.pb.gz" -o "$TMP/neg.json"
grep -q "negative" "$TMP/err" || fail "negative values not refused"
[ -e "$TMP/neg.json" ] && fail "output left behind"

# --- speedscope itself loads the files ----------------------------------------
if [ -z "$APP" ]; then
	echo "SKIP (part): speedscope app missing: $(cat "$TMP/npm.err")" >&2
	finish
fi
need_browser
mkdir "$TMP/www"
cp -R "$APP/." "$TMP/www/"
cp "$TMP/tc.json" "$TMP/go.json" "$TMP/www/"
serve "$TMP/www"
# show FILE VIEW: speedscope's page after it loaded FILE, as text.
show() {
	browser --virtual-time-budget=10000 --window-size=1400,900 --dump-dom \
	    "http://127.0.0.1:$PORT/index.html#profileURL=http://127.0.0.1:$PORT/$1&view=$2" |
		python3 -c 'import html, re, sys; print(html.unescape(re.sub(r"<[^>]*>", "\n", sys.stdin.read())))' |
		grep -v '^\s*$' >"$TMP/$1.$2.txt"
}
show tc.json sandwich
# The sandwich view lists every function: the inline frame, the C++
# operators, the callers.  The title says which sample type is shown.
for n in 'inline_alloc' 'grow_table' 'operator<' 'operator&' 'main'; do
	grep -q "^$n" "$TMP/tc.json.sandwich.txt" || fail "speedscope does not show $n"
done
grep -q '^space$' "$TMP/tc.json.sandwich.txt" ||
	fail "speedscope does not show the space profile first"
grep -qi 'something went wrong\|unrecognized format' "$TMP/tc.json.sandwich.txt" &&
	fail "speedscope refused the file"
show go.json sandwich
grep -q '^profconv.test/gowork.allocLarge' "$TMP/go.json.sandwich.txt" ||
	fail "speedscope does not show the Go functions"
grep -q '^alloc_space$' "$TMP/go.json.sandwich.txt" || fail "speedscope does not show alloc_space"
# A screenshot of the flame chart, for people looking at the test's files.
browser --window-size=1400,900 --virtual-time-budget=10000 --screenshot="$TMP/tc.png" \
    "http://127.0.0.1:$PORT/index.html#profileURL=http://127.0.0.1:$PORT/tc.json" >/dev/null
[ -s "$TMP/tc.png" ] || fail "no screenshot of speedscope"
finish
