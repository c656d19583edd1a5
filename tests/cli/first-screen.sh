# SPDX-License-Identifier: MIT
# first-screen.sh - what the first screen of profdiff and proftrend shows
# (issue 30 item 6), on real heap dumps of tests/screen/deep.c made now:
# its stacks are 120+ frames deep (gperftools keeps 64 of them), its
# weight shallow.  With --by stack, each row's name comes first, leaf
# first, in at most 60 characters ("leaf < caller < ... < root"), so the
# numbers start on the first screen; checked frame by frame against the
# whole stacks --wide and --json print, and the numbers against --wide's.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
command -v python3 >/dev/null 2>&1 || skip "python3 missing"
export LC_ALL=C
src=$PROFCONV_SRCDIR/tests/screen/deep.c

# A series of dumps: gperftools' heap profiler, else jemalloc.
if [ -n "$(find_lib libtcmalloc.so.4)" ] || [ -n "$(find_lib libtcmalloc.so)" ]; then
	cc -O0 -g -fno-omit-frame-pointer -o "$TMP/deep" "$src" \
		-Wl,--no-as-needed -ltcmalloc || fail "cannot build deep.c with tcmalloc"
	HEAPPROFILE=$TMP/dp "$TMP/deep" 4 2>/dev/null || fail "deep under tcmalloc failed"
else
	je=$(find_lib libjemalloc.so.2)
	[ -n "$je" ] || skip "neither libtcmalloc nor libjemalloc installed"
	cc -O0 -g -fno-omit-frame-pointer -o "$TMP/deep" "$src" || fail "cannot build deep.c"
	LD_PRELOAD=$je MALLOC_CONF=prof:true,lg_prof_sample:0,prof_prefix:$TMP/dp \
		"$TMP/deep" 4 2>/dev/null || fail "deep under jemalloc failed"
fi
set -- $(ls "$TMP"/dp.*.heap | sort -V)
[ $# -ge 4 ] || fail "deep wrote $# dumps"
first=$1 last=$(eval echo "\${$#}")

# check WHAT NARROW WIDE JSON: the table NARROW (--by stack) against
# WIDE (--by stack --wide) and the JSON's names.
check() {
	python3 - "$@" <<'PY' || fail "$1: the stack rows do not match"
import json, re, sys

what, narrow, wide, js = sys.argv[1:]
nl = open(narrow).read().splitlines()
wl = open(wide).read().splitlines()
jrows = json.load(open(js))["rows"]
full = {r["name"] for r in jrows}
num = re.compile(r"  +(-?[0-9.]+[A-Za-z]*B?|[0-9]+/[0-9]+)( |$)")
ok = True
def bad(msg):
    global ok
    ok = False
    print(what + ": " + msg, file=sys.stderr)

head = [i for i, l in enumerate(nl) if l.startswith("Stack ")]
whead = [i for i, l in enumerate(wl) if l.rstrip().endswith("  Name")]
if len(head) != 1 or len(whead) != 1:
    bad("no 'Stack' header first on its line, or no 'Name' header last")
    sys.exit(1)
def rows(lines):	# the table's rows: up to an empty line, TOTAL aside
    out = []
    for l in lines:
        if not l:
            break
        if not l.startswith("  ...") and not re.search(r"(^|  )TOTAL( |$)", l):
            out.append(l)
    return out
body = rows(nl[head[0] + 1:])
wbody = rows(wl[whead[0] + 1:])
if not body or len(body) != len(wbody):
    bad("%d rows, %d wide" % (len(body), len(wbody)))
end = None
for l, w in zip(body, wbody):
    m = num.search(l)
    label = l[:m.start()].rstrip()
    # The numbers are in the same columns on every line, the first one
    # ending by column 76 (60 characters of name, one space, 15).
    end = m.end(1) if end is None else end
    if m.end(1) != end or end > 76:
        bad("the first number ends at column %d: %r" % (m.end(1), l))
    if len(label) > 60:
        bad("label of %d characters: %r" % (len(label), label))
    name = w.split("  ")[-1].strip()
    if name not in full:
        bad("--wide name not in the JSON: %r" % name)
    frames = name.split(";")
    parts = label.split(" < ")
    # Leaf first; the callers in order; the root last; "..." between.
    if parts[0] != frames[-1] and not (parts[0].endswith("...") and
            frames[-1].startswith(parts[0][:-3])):
        bad("leaf %r is not %r" % (parts[0], frames[-1]))
    rev = frames[::-1]
    if "..." in parts:
        k = parts.index("...")
        if parts[:k] != rev[:k] and k > 1:
            bad("callers %r are not %r" % (parts[:k], rev[:k]))
        root = parts[-1]
        if root != frames[0] and not (root.endswith("...") and
                frames[0].startswith(root[:-3])):
            bad("root %r is not %r" % (root, frames[0]))
    elif parts != rev:
        bad("%r is not %r reversed" % (label, name))
    # The same numbers.
    if l[len(label):].split() != w[:len(w) - len(name)].split():
        bad("numbers differ: %r / %r" % (l, w))
sys.exit(0 if ok else 1)
PY
}

PROFDIFF=$CMD/profdiff TREND=$CMD/proftrend
run 1 "$PROFDIFF" --by stack "$first" "$last"
cp "$TMP/out" "$TMP/d-narrow"
run 1 "$PROFDIFF" --by stack --wide "$first" "$last"
cp "$TMP/out" "$TMP/d-wide"
run 1 "$PROFDIFF" --by stack --json "$first" "$last"
cp "$TMP/out" "$TMP/d.json"
check profdiff "$TMP/d-narrow" "$TMP/d-wide" "$TMP/d.json"
# The deep stack's row is elided (gperftools keeps 64 frames).
grep -q '^keep < deep_leak < .*\.\.\. < ' "$TMP/d-narrow" ||
	fail "profdiff: no elided deep stack: $(cat "$TMP/d-narrow")"
[ "$(awk '{ print length }' "$TMP/d-wide" | sort -n | tail -n 1)" -gt 300 ] ||
	fail "profdiff --wide: the deep stack is not whole"

run 1 "$PROFDIFF" --by stack --still-at "$last" "$first" "$TMP/dp.0003.heap"
grep -q '^Stack  *Grew objs' "$TMP/out" || fail "--still-at: the stack is not first: $(head -n 1 "$TMP/out")"

# proftrend: the same rows, the same rule; the JSON keeps whole names.
run 1 "$TREND" --by stack "$@"
cp "$TMP/out" "$TMP/t-narrow"
run 1 "$TREND" --by stack --wide "$@"
cp "$TMP/out" "$TMP/t-wide"
run 1 "$TREND" --by stack --json "$@"
cp "$TMP/out" "$TMP/t.json"
check proftrend "$TMP/t-narrow" "$TMP/t-wide" "$TMP/t.json"
# By function, the name stays last.
run 1 "$TREND" "$@"
grep -Eq '^ +First +Last .* Name$' "$TMP/out" || fail "proftrend by function: $(sed -n 3p "$TMP/out")"

# --- profflame's subtitle: what the picture shows ------------------------------
# The sample type, its total (pprof's units, as go tool pprof -unit=auto
# prints it, and exactly, as profconv show does) and the file, escaped.
evil="$TMP/a&b<c>.heap"
cp "$last" "$evil"
run 0 "$CMD/profflame" --svg -o "$TMP/f.svg" "$evil"
sub=$(sed -n 's/^<text id="subtitle"[^>]*>\(.*\)<\/text>$/\1/p' "$TMP/f.svg")
type=${sub%% *}
exact=$("$PROFCONV" show -s "$evil" | sed -n "s/^total $type\/bytes: \([0-9]*\).*/\1/p")
grouped=$(printf '%s' "$exact" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta')
case $sub in
*" ($grouped bytes) · a&amp;b&lt;c&gt;.heap") [ -n "$exact" ] || fail "no total of '$type'" ;;
*) fail "profflame subtitle: '$sub' (want $type, $grouped bytes, the file escaped)" ;;
esac
if command -v go >/dev/null 2>&1; then
	go_env
	export GOFLAGS=
	label=$(go tool pprof -top -unit=auto -sample_index="$type" "$last" 2>/dev/null |
		sed -n 's/.* of \([^ ]*\) total.*/\1/p')
	[ -n "$label" ] && [ "${sub#"$type $label ("}" != "$sub" ] ||
		fail "profflame subtitle: '$sub', go tool pprof says $label"
fi
# The user's subtitle replaces it; the differential one keeps its width
# choice and adds the facts of both.
run 0 "$CMD/profflame" --svg --subtitle 'mine' -o "$TMP/g.svg" "$evil"
grep -q '^<text id="subtitle"[^>]*>mine</text>$' "$TMP/g.svg" || fail "--subtitle: $(grep subtitle "$TMP/g.svg")"
run 0 "$CMD/profflame" --svg -b "$first" -o "$TMP/h.svg" "$evil"
grep -q "^<text id=\"subtitle\"[^>]*>widths: .* $type .* → .* ($grouped bytes) · $(basename "$first") → a&amp;b&lt;c&gt;.heap</text>$" "$TMP/h.svg" ||
	fail "differential subtitle: $(grep 'id="subtitle"' "$TMP/h.svg")"
finish
