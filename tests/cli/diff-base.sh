# SPDX-License-Identifier: MIT
# diff-base.sh - profdiff --diff-base -o FILE writes pprof's own diff form
# (base samples negated and labelled pprof::base=true, as go tool pprof
# -diff_base builds them), so go tool pprof reads FILE as its diff: -top
# of FILE equals -top -diff_base BASE CUR (percentages of the base), for
# every sample type, with and without -normalize (pprof scales CUR to
# BASE; profdiff --normalize --diff-base does the same), on two real heap
# dumps of one process made now (tests/producers/diffpair.c: memory freed,
# leaked and newly held between them) and on the picture tests' pair; and
# go tool pprof -http draws the same diff flame graph from FILE as from
# -diff_base BASE CUR.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/pictures-lib.sh"

use_go
command -v cc >/dev/null 2>&1 || skip "no C compiler"
need_tcmalloc
PROFDIFF=$CMD/profdiff

# --- usage ---------------------------------------------------------------------
run 2 "$PROFDIFF" --diff-base "$DATA/go/mem.pb.gz" "$DATA/go/mem.pb.gz"
head -n 1 "$TMP/err" | grep -qx 'profdiff: --diff-base needs -o' ||
	fail "--diff-base without -o: $(cat "$TMP/err")"
run 2 "$PROFDIFF" --diff-base --leaks -o "$TMP/x.pb.gz" "$DATA/go/mem.pb.gz" "$DATA/go/mem.pb.gz"
head -n 1 "$TMP/err" | grep -qx 'profdiff: --diff-base writes both profiles whole: not with --leaks' ||
	fail "--diff-base --leaks: $(cat "$TMP/err")"
[ ! -e "$TMP/x.pb.gz" ] || fail "a usage error left an output file"

# --- real dumps, symbolized now ----------------------------------------------------
cc -O1 -g -fno-omit-frame-pointer -o "$TMP/diffpair" \
    "$PROFCONV_SRCDIR/tests/producers/diffpair.c" -ltcmalloc ||
	skip "cannot build tests/producers/diffpair.c with tcmalloc"
HEAPPROFILE=$TMP/dp "$TMP/diffpair" 2>/dev/null || fail "diffpair failed"
"$PROFCONV" symbolize -o "$TMP/dp-base.pb.gz" "$TMP/dp.0001.heap" 2>/dev/null || fail "symbolize base"
"$PROFCONV" symbolize -o "$TMP/dp-cur.pb.gz" "$TMP/dp.0002.heap" 2>/dev/null || fail "symbolize cur"
make_profiles

# same NAME BASE CUR [-normalize]: go tool pprof agrees with itself.
same() {
	name=$1 base=$2 cur=$3 norm=${4:-}
	flag=
	[ -n "$norm" ] && flag=--normalize
	run 1 "$PROFDIFF" -q $flag --diff-base -o "$TMP/$name.pb.gz" "$base" "$cur"
	n=0
	# The sample types: the line after "Samples:", "type/unit[dflt]...".
	types=$(go tool pprof -raw "$TMP/$name.pb.gz" 2>/dev/null |
		sed -n '/^Samples:/{n;s/\/[a-z]*//g;s/\[dflt\]//g;p;q;}')
	for t in $types; do
		go tool pprof -sample_index="$t" -top "$TMP/$name.pb.gz" >"$TMP/ours" 2>"$TMP/ours.err" ||
			{ fail "$name: go tool pprof cannot read our file: $(cat "$TMP/ours.err")"; return; }
		go tool pprof -sample_index="$t" -top $norm -diff_base "$base" "$cur" >"$TMP/theirs" 2>/dev/null ||
			{ fail "$name: go tool pprof -diff_base failed"; return; }
		diff -u "$TMP/theirs" "$TMP/ours" >&2 ||
			fail "$name $t: -top differs from go tool pprof -top $norm -diff_base"
		n=$((n + 1))
	done
	[ "$n" -ge 2 ] || fail "$name: only $n sample types compared"
	# The base's samples are there, labelled, not cancelled.
	go tool pprof -raw "$TMP/$name.pb.gz" 2>/dev/null | grep -q 'pprof::base:\[true\]' ||
		fail "$name: no sample labelled pprof::base=true"
}
same dp "$TMP/dp-base.pb.gz" "$TMP/dp-cur.pb.gz"
same dp-norm "$TMP/dp-base.pb.gz" "$TMP/dp-cur.pb.gz" -normalize
same pictures "$TC_OLD" "$TC_NEW"
same pictures-norm "$TC_OLD" "$TC_NEW" -normalize
# Percentages are of the base: the freed cache is 75.90% of it.
go tool pprof -sample_index=inuse_space -top "$TMP/dp.pb.gz" 2>/dev/null |
	grep -Eq -- '^ *-2\.73MB +75\.90% .*cache_fill$' ||
	fail "the freed cache_fill is not -2.73MB, 75.90% of the base"
# go tool pprof -http draws the same diff flame graph from our file as
# from -diff_base (the tree of its page's data; pprof orders siblings by
# a map's iteration, so they are compared sorted).
port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
p1=$(port) p2=$(port)
go tool pprof -no_browser -http="127.0.0.1:$p1" "$TMP/dp.pb.gz" >"$TMP/http1.log" 2>&1 &
pid1=$!
go tool pprof -no_browser -http="127.0.0.1:$p2" -diff_base "$TMP/dp-base.pb.gz" "$TMP/dp-cur.pb.gz" >"$TMP/http2.log" 2>&1 &
pid2=$!
python3 - "$p1" "$p2" <<'PY' || fail "go tool pprof -http draws another flame graph from our file"
import json, re, sys, time, urllib.request
def page(port):
    for _ in range(300):
        try:
            return urllib.request.urlopen("http://127.0.0.1:%s/ui/flamegraph?si=inuse_space" % port, timeout=5).read().decode()
        except OSError:
            time.sleep(0.2)
    sys.exit("no pprof server on port %s" % port)
def tree(port):
    m = re.search(r'var data = JSON\.parse\((".*?")\);', page(port))
    if not m:
        sys.exit("no flame graph data on port %s" % port)
    def norm(n):
        return (n["n"], n["v"], n["l"], n["p"], sorted(norm(c) for c in (n["c"] or []) if c))
    return norm(json.loads(json.loads(m.group(1))))
ours, theirs = tree(sys.argv[1]), tree(sys.argv[2])
if ours != theirs:
    sys.exit("ours %r\ntheirs %r" % (ours, theirs))
if ours[1] >= 0 or ours[3] != "80.83%":
    sys.exit("root %r: not the freed -80.83%% of the base" % (ours[:4],))
PY
kill "$pid1" "$pid2" 2>/dev/null
wait "$pid1" "$pid2" 2>/dev/null
# Without --diff-base, -o keeps writing CUR - BASE, cancelled.
run 1 "$PROFDIFF" -q -o "$TMP/plain.pb.gz" "$TMP/dp-base.pb.gz" "$TMP/dp-cur.pb.gz"
go tool pprof -raw "$TMP/plain.pb.gz" 2>/dev/null | grep -q 'pprof::base' &&
	fail "the plain delta has pprof::base labels"
finish
