# SPDX-License-Identifier: MIT
# granularity.sh - frames by source file (--files) and by function and
# file (--filefunctions) against go tool pprof -files and -filefunctions,
# on a real tcmalloc profile of tests/producers/multifile (two .c files
# and a header whose function is inlined into functions of both).
#
#   - filefunctions: profconv show -s's rows (names, flat, cum) are go
#     tool pprof -top -filefunctions' rows, one for one; profgraph --dot
#     --filefunctions is go tool pprof -dot -filefunctions, node by node
#     and edge by edge (tests/cli/dot-compare.py).
#   - files: a row per source file.  pprof's node key keeps a function's
#     start line once the name is gone, so its -files lists a file once
#     per function with a start line (a.c twice here); so per name: our
#     flat is the sum of pprof's flats, our cum is pprof's cum where it
#     has one row, and always the total go tool pprof -focus='^FILE$'
#     keeps (the samples through the file); the names are pprof's
#     ("[module]" for frames without a file).  profgraph --dot --files'
#     nodes carry pprof's labels and tooltips where pprof has one node of
#     that file, and our cum elsewhere.  profflame --files' folded
#     stacks are files only and add up to each file's flat at the leaf.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
use_go
command -v python3 >/dev/null 2>&1 || skip "no python3"
need_tcmalloc
export TZ=UTC
# Built from a clean absolute path (not "_build/sub/../../tests/..." as
# under make distcheck): pprof's -focus below matches the file as the
# binary names it, before pprof cleans it.
SRC=$(cd "$PROFCONV_SRCDIR/tests/producers/multifile" && pwd -P)
CMP=$PROFCONV_SRCDIR/tests/cli/dot-compare.py

cc -O2 -g -fno-omit-frame-pointer -o "$TMP/multifile" "$SRC/a.c" "$SRC/b.c" \
    -Wl,--no-as-needed -ltcmalloc || skip "cannot build multifile with tcmalloc"
HEAPPROFILE=$TMP/mf "$TMP/multifile" >/dev/null 2>&1 || fail "multifile failed"
"$PROFCONV" symbolize -o "$TMP/mf.pb.gz" "$TMP/mf.0001.heap" 2>"$TMP/sym.err" ||
	{ fail "symbolize: $(cat "$TMP/sym.err")"; finish; }
PB=$TMP/mf.pb.gz
TYPE=space	# a first dump: objects/space, as pprof names them

# go_top GRANULARITY: "name<TAB>flat<TAB>cum" per row of go tool pprof
# -top, in bytes, without pprof's "(inline)" marks (profconv's tables
# have none), sorted.
go_top() {
	go tool pprof -top "-$1" -unit=B -nodefraction=0 -nodecount=0 \
	    -sample_index=$TYPE "$PB" 2>"$TMP/pprof.err" |
		awk '/^ *flat / {s = 1; next}
		s {f = $1; c = $4; sub(/B$/, "", f); sub(/B$/, "", c); n = $0;
			sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", n);
			sub(/ \((partial-)?inline\)$/, "", n);
			print n "\t" f "\t" c}' | sort
}

# our_top OPTION: the same from profconv show -s.
our_top() {
	"$PROFCONV" show -s -n 100000 -t $TYPE "$1" "$PB" 2>"$TMP/show.err" |
		awk '/^top [0-9]+ (functions|files) by/ {s = 1; next}
		s {n = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", n);
			print n "\t" $1 "\t" $3}' | sort
}

# --- function and file: row for row --------------------------------------------
go_top filefunctions >"$TMP/go.ff"
our_top --filefunctions >"$TMP/our.ff"
[ "$(wc -l <"$TMP/go.ff")" -ge 6 ] || fail "pprof -filefunctions: $(cat "$TMP/go.ff" "$TMP/pprof.err")"
diff -u "$TMP/go.ff" "$TMP/our.ff" >&2 ||
	fail "show -s --filefunctions differs from go tool pprof -top -filefunctions"
grep -q "^grab $SRC/util.h	" "$TMP/our.ff" || fail "--filefunctions: no 'grab $SRC/util.h' row"
grep -q "^a_alloc $SRC/a.c	" "$TMP/our.ff" || fail "--filefunctions: no 'a_alloc $SRC/a.c' row"

go tool pprof -dot -filefunctions "$PB" >"$TMP/ff.pprof.dot" 2>/dev/null ||
	fail "go tool pprof -dot -filefunctions"
"$CMD/profgraph" --dot --filefunctions -o "$TMP/ff.dot" "$PB" 2>"$TMP/graph.err" ||
	fail "profgraph --filefunctions: $(cat "$TMP/graph.err")"
python3 "$CMP" "$TMP/ff.pprof.dot" "$TMP/ff.dot" >"$TMP/ff.counts" 2>"$TMP/ff.cmp" ||
	fail "profgraph --dot --filefunctions differs from go tool pprof -dot -filefunctions: $(head -n 12 "$TMP/ff.cmp")"

# --- files ----------------------------------------------------------------------
go_top files >"$TMP/go.f"
our_top --files >"$TMP/our.f"
[ -s "$TMP/go.f" ] || fail "pprof -files: nothing: $(cat "$TMP/pprof.err")"
cut -f 1 "$TMP/go.f" | sort -u >"$TMP/go.names"
cut -f 1 "$TMP/our.f" >"$TMP/our.names"
diff -u "$TMP/go.names" "$TMP/our.names" >&2 ||
	fail "show -s --files: other names than go tool pprof -top -files"
sort -u "$TMP/our.names" | cmp -s - "$TMP/our.names" || fail "show -s --files: a file twice"
grep -qx "$SRC/util.h" "$TMP/our.names" || fail "--files: no row $SRC/util.h"
grep -qx '\[multifile\]' "$TMP/our.names" || fail "--files: no row [multifile] (frames without a file)"
# pprof splits a file by function start line: a.c has two functions on
# the stacks, so pprof lists it twice; the test would prove little
# otherwise.
[ "$(grep -c "^$SRC/a.c	" "$TMP/go.f")" -ge 2 ] ||
	fail "pprof -files lists a.c once: $(cat "$TMP/go.f")"
# go_focus_total FILE: go tool pprof's total of the samples through FILE.
go_focus_total() {
	rx=$(printf '%s' "$1" | sed 's/[].[^$*+?(){}|\\]/\\&/g')
	go tool pprof -raw -focus="^$rx\$" "$PB" 2>/dev/null |
		awk -v t=$TYPE '/^PeriodType/ {next}
		/^Samples:/ {s = 1; getline; for (i = 1; i <= NF; i++) if ($i ~ "^" t "/") k = i; next}
		/^Locations/ {s = 0}
		s && $1 ~ /^-?[0-9]+$/ {v = $k; sub(":", "", v); sum += v}
		END {print sum + 0}'
}
while IFS='	' read -r name flat cum; do
	gflat=$(awk -F '\t' -v n="$name" '$1 == n {t += $2} END {print t + 0}' "$TMP/go.f")
	[ "$flat" = "$gflat" ] || fail "--files: $name flat $flat, pprof's rows add up to $gflat"
	rows=$(awk -F '\t' -v n="$name" '$1 == n' "$TMP/go.f" | wc -l)
	if [ "$rows" = 1 ]; then
		gcum=$(awk -F '\t' -v n="$name" '$1 == n {print $3}' "$TMP/go.f")
		[ "$cum" = "$gcum" ] || fail "--files: $name cum $cum, pprof $gcum"
	fi
	# -focus sees the file as the profile names it, before pprof
	# cleans it ("./csu/../csu/libc-start.c"): our sources' absolute
	# names are clean.
	case $name in
	/*)	gcum=$(go_focus_total "$name")
		[ "$cum" = "$gcum" ] || fail "--files: $name cum $cum, go tool pprof -focus keeps $gcum" ;;
	esac
done <"$TMP/our.f"

# profgraph --dot --files: pprof's node where pprof has one of the file.
go tool pprof -dot -files -nodecount=0 "$PB" >"$TMP/f.pprof.dot" 2>/dev/null ||
	fail "go tool pprof -dot -files"
"$CMD/profgraph" --dot --files --nodecount 0 -o "$TMP/f.dot" "$PB" 2>"$TMP/graph.err" ||
	fail "profgraph --files: $(cat "$TMP/graph.err")"
python3 - "$TMP/f.pprof.dot" "$TMP/f.dot" "$TMP/our.f" <<'EOF' || fail "profgraph --dot --files against go tool pprof -dot -files"
import re, sys
NODE = re.compile(r'^N\d+ \[label="((?:[^"\\]|\\.)*)".*tooltip="((?:[^"\\]|\\.)*) \(([^)]*)\)"')
def nodes(path):
    out = []
    for line in open(path):
        m = NODE.match(line)
        if m:
            out.append((m.group(2), m.group(1), m.group(3)))
    return out
theirs, ours = nodes(sys.argv[1]), nodes(sys.argv[2])
cum = {}
for line in open(sys.argv[3]):
    name, flat, c = line.rstrip("\n").split("\t")
    cum[name] = int(c)
bad = []
names = [n for n, _, _ in ours]
if len(set(names)) != len(names):
    bad.append("a file twice: %r" % names)
if set(names) != set(n for n, _, _ in theirs):
    bad.append("names %r, pprof %r" % (sorted(set(names)), sorted(set(n for n, _, _ in theirs))))
for name, label, value in ours:
    same = [t for t in theirs if t[0] == name]
    if len(same) == 1 and same[0] != (name, label, value):
        bad.append("node %s: %r, pprof %r" % (name, (label, value), same[0]))
    if name not in cum:
        bad.append("node %s not in show -s --files" % name)
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
# Base names in the labels, as pprof's.
grep -qF 'label="util.h\n' "$TMP/f.dot" || fail "profgraph --files: no label util.h"

# profflame --files: files only; each file's flat at the leaf.
"$CMD/profflame" --files -t $TYPE "$PB" >"$TMP/f.folded" 2>"$TMP/flame.err" ||
	fail "profflame --files: $(cat "$TMP/flame.err")"
grep -Eq '(^|;)(a_alloc|b_alloc|a_more|main|grab)(;| )' "$TMP/f.folded" && fail "profflame --files: function names in $(cat "$TMP/f.folded")"
awk '{ v = $NF; sub(/ [^ ]+$/, ""); n = split($0, f, ";"); s[f[n]] += v }
     END { for (k in s) print k "\t" s[k] }' "$TMP/f.folded" | sort >"$TMP/f.leaf"
awk -F '\t' '$2 != 0 {print $1 "\t" $2}' "$TMP/our.f" | sort >"$TMP/f.flat"
diff -u "$TMP/f.flat" "$TMP/f.leaf" >&2 || fail "profflame --files: leaf sums differ from the files' flat"
"$CMD/profflame" --filefunctions -t $TYPE "$PB" >"$TMP/ff.folded" 2>/dev/null ||
	fail "profflame --filefunctions"
grep -q ";grab $SRC/util.h [0-9]*\$" "$TMP/ff.folded" || fail "profflame --filefunctions: no grab $SRC/util.h leaf"

finish
