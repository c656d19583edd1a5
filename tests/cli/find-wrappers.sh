# SPDX-License-Identifier: MIT
# find-wrappers.sh - --find-wrappers on real programs run now under
# LD_PRELOAD'ed libjemalloc: tests/producers/findwrap.c's own wrappers
# (app_alloc, and app_strdup above it) are found and its hot functions
# (build_table, one caller; app_node, which also calls what allocates)
# are not; with --no-wrappers the rule finds perl's listed wrappers
# (Perl_safesysmalloc, _realloc, _calloc) again; totals never change;
# nothing is said under --quiet.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

use_jemalloc
cc -O1 -g -fno-omit-frame-pointer -o "$TMP/findwrap" \
    "$PROFCONV_SRCDIR/tests/producers/findwrap.c" ||
	fail "cannot build tests/producers/findwrap.c"
LD_PRELOAD=$LIBJE \
MALLOC_CONF="prof:true,lg_prof_sample:0,prof_final:true,prof_prefix:$TMP/fw" \
    "$TMP/findwrap" 2000 >/dev/null 2>"$TMP/fw.err" ||
	fail "findwrap under jemalloc: $(cat "$TMP/fw.err")"
set -- "$TMP"/fw.*.heap
[ -f "$1" ] || { fail "findwrap wrote no dump"; finish; }
FW=$1

# cut_line FILE ARGS: the names of show's "cut as allocation wrappers"
# line, one per line.
cut_names() {
	f=$1
	shift
	"$PROFCONV" show -s -n 0 "$@" "$f" 2>&1 >/dev/null |
		sed -n 's/^.*: cut as allocation wrappers: \(.*\) (rule: .*/\1/p' |
		tr ',' '\n' | sed 's/^ *//'
}
totals() {
	"$PROFCONV" show -s -n 0 "$@" 2>/dev/null | grep '^total '
}

cut_names "$FW" --find-wrappers >"$TMP/fw.cut"
for w in app_alloc app_strdup; do
	grep -qx "$w" "$TMP/fw.cut" || fail "findwrap: $w not found: $(cat "$TMP/fw.cut")"
done
for f in build_table app_node load_config name_group main; do
	grep -qx "$f" "$TMP/fw.cut" && fail "findwrap: $f cut as a wrapper"
done
"$PROFCONV" show -s -n 100 --find-wrappers "$FW" 2>/dev/null >"$TMP/fw.sum"
grep -Eq ' (app_alloc|app_strdup)$' "$TMP/fw.sum" &&
	fail "findwrap: a row is still a wrapper"
grep -q ' build_table$' "$TMP/fw.sum" || fail "findwrap: no build_table row"
grep -q ' app_node$' "$TMP/fw.sum" || fail "findwrap: no app_node row"
[ "$(totals "$FW")" = "$(totals --find-wrappers "$FW")" ] ||
	fail "findwrap: --find-wrappers changed the totals"
[ -s "$TMP/fw.cut" ] || fail "findwrap: nothing said"
"$PROFCONV" show -s --quiet --find-wrappers "$FW" 2>"$TMP/q.err" >/dev/null
grep -q 'cut as allocation wrappers' "$TMP/q.err" && fail "--quiet: the cut was said"
"$PROFCONV" show -s "$FW" 2>&1 >/dev/null | grep -q 'cut as allocation' &&
	fail "without --find-wrappers: a cut was said"
# profdiff and profflame take it too.
"$CMD/profflame" --find-wrappers "$FW" 2>/dev/null | grep -q ';app_alloc ' &&
	fail "profflame --find-wrappers: a stack ends in app_alloc"

if command -v perl >/dev/null 2>&1; then
	LD_PRELOAD=$LIBJE \
	MALLOC_CONF="prof:true,lg_prof_sample:0,prof_final:true,prof_prefix:$TMP/pj" \
	    perl -e 'my %h; $h{"k$_"} = "v" x ($_ % 50) for 1 .. 20000;
		my @a = map { [$_, "x" x 10] } 1 .. 5000; my $s = join ",", @a;
		print scalar(keys %h), "\n"' >/dev/null 2>"$TMP/perl.err" ||
		fail "perl under jemalloc failed: $(cat "$TMP/perl.err")"
	set -- "$TMP"/pj.*.heap
	if [ -f "$1" ]; then
		cut_names "$1" --no-wrappers --find-wrappers >"$TMP/pj.cut"
		for w in Perl_safesysmalloc Perl_safesysrealloc Perl_safesyscalloc; do
			grep -qx "$w" "$TMP/pj.cut" ||
				fail "perl: $w not found again: $(cat "$TMP/pj.cut")"
		done
		grep -Eqx 'main|perl_run|perl_parse|Perl_runops_standard|Perl_hv_common|Perl_av_make' \
		    "$TMP/pj.cut" && fail "perl: a hot function cut: $(cat "$TMP/pj.cut")"
		[ "$(totals --no-wrappers "$1")" = \
		    "$(totals --no-wrappers --find-wrappers "$1")" ] ||
			fail "perl: --find-wrappers changed the totals"
	else
		fail "perl under jemalloc wrote no dump"
	fi
fi
finish
