# SPDX-License-Identifier: MIT
# pprof-format.sh - the pprof profconv writes, decoded by a second
# consumer beside go tool pprof: the npm package pprof-format, the
# decoder Node.js profilers use (issue #42).  For what text2pb (a
# jemalloc profile with thread labels, a tcmalloc one), symbolize, merge,
# show --topproto and profdiff -o write, pprof-format decodes the file,
# every string, location, function and mapping it refers to exists, and
# its sample types, totals and count of samples with a value equal go
# tool pprof -raw's.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

use_go
command -v node >/dev/null 2>&1 || skip "node not installed (Debian: nodejs)"
NPM_DIR=${PROFCONV_NPM_DIR:-$BIN/../tests/npm}
sh "$PROFCONV_SRCDIR/tests/cli/npm-setup.sh" "$NPM_DIR" pprof-format 2.3.2 \
    2>"$TMP/npm.err" || skip "no pprof-format: $(cat "$TMP/npm.err")"
MODULE=$NPM_DIR/pprof-format/node_modules/pprof-format

# check FILE WHAT: pprof-format's reading of FILE equals pprof's.
check() {
	node "$PROFCONV_SRCDIR/tests/cli/pprof-format.js" "$MODULE" "$1" \
	    >"$TMP/node.out" 2>"$TMP/node.err" ||
		{ fail "$2: $(head -n 2 "$TMP/node.err")"; return; }
	go tool pprof -raw "$1" >"$TMP/raw" 2>"$TMP/go.err" ||
		{ fail "$2: go tool pprof -raw: $(head -n 2 "$TMP/go.err")"; return; }
	awk '/^Samples:/ { s = 1; getline; gsub(/\[dflt\]/, ""); nt = split($0, t, " "); next }
	    /^Locations/ { s = 0 }
	    s && /^ *-?[0-9]+( +-?[0-9]+)*: / {
		sub(/:.*/, ""); n = split($0, v, " ")
		for (i = 1; i <= n; i++) tot[i] += v[i]
		ns++
	    }
	    END { for (i = 1; i <= nt; i++) printf "%s %.0f\n", t[i], tot[i]
		printf "samples %d\n", ns }' "$TMP/raw" >"$TMP/go.out"
	grep -v '^locations \|^functions \|^mappings ' "$TMP/node.out" >"$TMP/node.cmp"
	[ "$(wc -l <"$TMP/go.out")" -ge 2 ] || fail "$2: pprof -raw shows no sample types"
	if ! cmp -s "$TMP/go.out" "$TMP/node.cmp"; then
		diff -u "$TMP/go.out" "$TMP/node.cmp" >&2
		fail "$2: pprof-format and go tool pprof read different totals"
	fi
	grep -q '^samples [1-9]' "$TMP/node.out" || fail "$2: no samples decoded"
}

use_jemalloc
je_alloc_pb --threads
check "$TMP/raw.pb.gz" "text2pb --threads (jemalloc)"
check "$PB" "symbolize (jemalloc)"
"$PROFCONV" merge -o "$TMP/merged.pb.gz" "$PB" "$TMP/raw.pb.gz" 2>/dev/null || fail "merge"
check "$TMP/merged.pb.gz" "merge"
"$PROFCONV" show --topproto -o "$TMP/top.pb.gz" "$PB" 2>/dev/null || fail "show --topproto"
check "$TMP/top.pb.gz" "show --topproto"
# profdiff exits 1 when the profiles differ, as these do.
"$CMD/profdiff" -o "$TMP/delta.pb.gz" "$PB" "$TMP/merged.pb.gz" >/dev/null 2>&1
[ $? = 1 ] || fail "profdiff -o"
check "$TMP/delta.pb.gz" "profdiff -o"
check "$DATA/go/mem.pb.gz" "Go's own heap profile"
"$PROFCONV" merge -o "$TMP/go.pb.gz" "$DATA/go/mem.pb.gz" || fail "merge of Go's profile"
check "$TMP/go.pb.gz" "merge of Go's profile"

if have_tcmalloc && LIBTC=$(find_lib libtcmalloc.so.4) && [ -n "$LIBTC" ]; then
	cc -O1 -g -fno-omit-frame-pointer -pthread -o "$TMP/alloc_tc" \
	    "$PROFCONV_SRCDIR/tests/producers/alloc.c" -ldl ||
		fail "cannot build tests/producers/alloc.c"
	HEAPPROFILE=$TMP/tc LD_PRELOAD=$LIBTC "$TMP/alloc_tc" 0 4 >/dev/null 2>&1 ||
		fail "alloc under tcmalloc"
	tc=$(ls "$TMP"/tc.*.heap 2>/dev/null | tail -n 1)
	[ -n "$tc" ] || fail "tcmalloc wrote no heap profile"
	[ -z "$tc" ] || "$PROFCONV" text2pb -o "$TMP/tc.pb.gz" "$tc" || fail "text2pb $tc"
	[ -z "$tc" ] || check "$TMP/tc.pb.gz" "text2pb (tcmalloc)"
fi
finish
