# SPDX-License-Identifier: MIT
# pprof-top-lib.sh - compare profconv show's functions with go tool pprof
# -top on one file; sourced after lib.sh, never run.

# pprof_flat FILE TYPE [ARGS]: "name flat" per function with a flat value,
# by name, from go tool pprof -top.
pprof_flat() {
	f=$1 t=$2
	shift 2
	go tool pprof -top -unit=B -nodefraction=0 -nodecount=0 \
	    -sample_index="$t" "$@" "$f" 2>"$TMP/pprof.err" |
		awk '/^ *flat / {s = 1; next}
		s && $1 != "0" {v = $1; sub(/B$/, "", v); n = $0;
			sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", n);
			print n "\t" v}' | LC_ALL=C sort
}

# ours_flat FILE TYPE [ARGS]: the same from profconv show -s, a frame
# without symbols ("module+0xN") named as pprof names it ("[module]").
ours_flat() {
	f=$1 t=$2
	shift 2
	"$PROFCONV" show -s -n 100000 -t "$t" "$@" "$f" 2>"$TMP/show.err" |
		awk '/^top [0-9]+ functions/ {s = 1; next}
		s && $1 != "0" {n = $0;
			sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", n);
			if (n ~ /^[^ ]+\+0x[0-9a-f]+$/) {
				sub(/\+0x[0-9a-f]+$/, "", n); n = "[" n "]"
			}
			sum[n] += $1}
		END {for (n in sum) print n "\t" sum[n]}' | LC_ALL=C sort
}

# agree LABEL FILE TYPE PPROF-ARGS -- SHOW-ARGS: the two agree, and
# neither puts the allocator's library at the top; go's rows stay in
# $TMP/go.top.
agree() {
	label=$1 f=$2 t=$3
	shift 3
	pa= sa=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do pa="$pa $1"; shift; done
	[ $# -gt 0 ] && shift
	sa="$*"
	# shellcheck disable=SC2086
	pprof_flat "$f" "$t" $pa >"$TMP/go.top"
	# shellcheck disable=SC2086
	ours_flat "$f" "$t" $sa >"$TMP/our.top"
	[ -s "$TMP/go.top" ] || { fail "$label: no rows from go tool pprof: $(cat "$TMP/pprof.err")"; return; }
	if grep -E '^\[lib(jemalloc|tcmalloc)' "$TMP/go.top" >&2; then
		fail "$label: go tool pprof puts the allocator's library at the top"
	fi
	diff -u "$TMP/our.top" "$TMP/go.top" >&2 ||
		fail "$label: profconv show and go tool pprof -top disagree"
}

