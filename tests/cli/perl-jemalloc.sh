# SPDX-License-Identifier: MIT
# perl-jemalloc.sh - the first screen of a real interpreter's heap: perl
# run now under LD_PRELOAD'ed libjemalloc, its dump converted by text2pb
# and symbolized.  show --summary ranks functions by flat value, in the
# order of go tool pprof -top on the same file (and --sort cum in that
# of -top -cum), so its first rows are where perl allocates, not the
# root chain (_start, __libc_start_main_impl, main); and perl's
# allocation wrappers (Perl_safesysmalloc and kin) are cut like malloc,
# here and in go tool pprof (the file's drop_frames), so no row is one.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v perl >/dev/null 2>&1 || skip "perl not installed"
use_go
use_jemalloc

LD_PRELOAD=$LIBJE \
MALLOC_CONF="prof:true,lg_prof_sample:0,prof_final:true,prof_prefix:$TMP/pj" \
    perl -e 'my %h; $h{"k$_"} = "v" x ($_ % 50) for 1 .. 20000;
	my @a = map { [$_, "x" x 10] } 1 .. 5000; my $s = join ",", @a;
	print scalar(keys %h), "\n"' >/dev/null 2>"$TMP/perl.err" ||
	fail "perl under jemalloc failed: $(cat "$TMP/perl.err")"
set -- "$TMP"/pj.*.heap
[ -f "$1" ] || { fail "perl under jemalloc wrote no dump"; finish; }
cp "$1" "$TMP/p.heap"
"$PROFCONV" text2pb "$TMP/p.heap" -o "$TMP/p.pb.gz" || fail "text2pb"
"$PROFCONV" symbolize --quiet "$TMP/p.pb.gz" -o "$TMP/p.sym.pb.gz" 2>/dev/null ||
	fail "symbolize"
P=$TMP/p.sym.pb.gz

# go_order ARGS: go tool pprof -top's function names, in its order,
# those without symbols ("[module]") left out.
go_order() {
	go tool pprof -top -nodefraction=0 -nodecount=0 -symbolize=none "$@" "$P" \
	    2>"$TMP/pprof.err" |
		awk '/^ *flat / {s = 1; next}
		s {n = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", n);
			if (n !~ /^\[.*\]$/) print n}'
}

# our_order ARGS: show --summary's function names, in its order, those
# without symbols ("module+0xN") left out.
our_order() {
	"$PROFCONV" show -s -n 100000 "$@" "$P" 2>/dev/null |
		awk '/^top [0-9]+ functions/ {s = 1; next}
		s {n = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", n);
			if (n !~ /^[^ ]+\+0x[0-9a-f]+$/) print n}'
}

go_order >"$TMP/go.flat"
our_order >"$TMP/our.flat"
[ -s "$TMP/go.flat" ] || fail "no rows from go tool pprof -top: $(cat "$TMP/pprof.err")"
diff -u "$TMP/go.flat" "$TMP/our.flat" >&2 ||
	fail "show --summary's functions are not in go tool pprof -top's order"
first=$(head -n 1 "$TMP/our.flat")
case $first in
_start|__libc_start*|main|perl_run|Perl_runops_standard|"")
	fail "show --summary's first function is '$first'" ;;
esac
"$PROFCONV" show -s "$P" 2>/dev/null | grep -q '^top [0-9]* functions by inuse_space (flat' ||
	fail "the heading does not say the functions are ranked by flat value"
if grep -E '^Perl_safesys' "$TMP/our.flat" "$TMP/go.flat" >&2; then
	fail "a top function is perl's allocation wrapper"
fi
"$PROFCONV" show -s -n 5 --no-wrappers "$P" 2>/dev/null | grep -q ' Perl_safesysmalloc$' ||
	fail "--no-wrappers: no Perl_safesysmalloc row"
# The rows of the dump as it is: the same cut.
"$PROFCONV" show -s -n 1000 "$TMP/p.heap" 2>/dev/null >"$TMP/raw.sum"
grep -q '^top [0-9]* functions' "$TMP/raw.sum" || fail "show -s of the raw dump"
if grep -E ' Perl_safesys[a-z]*$' "$TMP/raw.sum" >&2; then
	fail "the raw dump's summary names perl's allocation wrapper"
fi
go_order -cum >"$TMP/go.cum"
our_order --sort cum >"$TMP/our.cum"
diff -u "$TMP/go.cum" "$TMP/our.cum" >&2 ||
	fail "--sort cum: not in go tool pprof -top -cum's order"
finish
