# SPDX-License-Identifier: MIT
# rows-apart.sh - rows by stack read apart (issue #40 item 9): perl
# growing a hash under gperftools, dumped now, has many stacks that end
# in the same allocation site and start the same way, differing deep in
# the middle.  Every row of proftrend --by stack and of profdiff --by
# stack has its own label, and every name in proftrend --svg's legend
# reads differently and fits its 32 characters.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "no python3 (the checks)"
command -v perl >/dev/null 2>&1 || skip "no perl"
use_tcmalloc

mkdir "$TMP/d"
LD_PRELOAD=$LIBTC HEAPPROFILE=$TMP/d/p HEAP_PROFILE_ALLOCATION_INTERVAL=1000000 \
	perl "$PROFCONV_SRCDIR/tests/trend/programs/records.pl" grow 40 \
	2>/dev/null || fail "perl under tcmalloc failed"
set -- "$TMP"/d/p.*.heap
[ $# -ge 3 ] || fail "perl made $# dumps, not 3 or more"
first=$1
shift $(($# - 1))
last=$1

# same WHAT FILE: the labels of the Stack column (as wide as the heading
# up to the first number column's end, less that column) are all
# different; and there are some.
same() {
	python3 - "$2" "$3" <<'PY' >"$TMP/problems" 2>&1 ||
import collections, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
head = [i for i, l in enumerate(lines) if l.startswith("Stack ")][0]
w = lines[head].index(sys.argv[2]) + len(sys.argv[2]) - 15
names = []
for l in lines[head + 1:]:
    if l == "" or l.startswith("TOTAL") or l.startswith("  ..."):
        break
    names.append(l[:w].rstrip())
if len(names) < 20:
    print("only %d rows" % len(names))
for n, k in collections.Counter(names).items():
    if k > 1:
        print("%d rows read '%s'" % (k, n))
PY
		fail "$1: checking the rows"
	while read -r line; do
		fail "$1: $line"
	done <"$TMP/problems"
}

run 1 "$CMD/proftrend" --by stack "$TMP"/d/p.*.heap
same "proftrend --by stack" "$TMP/out" First
run 1 "$CMD/profdiff" --by stack "$first" "$last"
same "profdiff --by stack" "$TMP/out" New

# The legend of the picture, with the most rows it draws.
run 1 "$CMD/proftrend" --by stack -n 40 --svg -o "$TMP/t.svg" "$TMP"/d/p.*.heap
python3 - "$TMP/t.svg" <<'PY' >"$TMP/problems" 2>&1 ||
import collections, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
legend = [g for g in root.iter(ns + "g") if g.get("id") == "legend"][0]
names = ["".join(t.itertext()) for t in legend.iter(ns + "text")
         if t.get("class") == "name"]
if len(names) < 20:
    print("only %d names in the legend" % len(names))
for n, k in collections.Counter(names).items():
    if k > 1:
        print("%d legend names read '%s'" % (k, n))
# The legend's room: 32 characters (proftrend(1)); the whole name is in
# the band's title.
for n in names:
    if len(n) > 32:
        print("legend name of %d characters: '%s'" % (len(n), n))
PY
	fail "proftrend --svg: checking the legend"
while read -r line; do
	fail "proftrend --svg: $line"
done <"$TMP/problems"
finish
