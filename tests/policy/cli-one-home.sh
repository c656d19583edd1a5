# SPDX-License-Identifier: MIT
# cli-one-home.sh - the CLI tests' set-up blocks that have one home stay
# there (issue 41): a test calls the helper, it does not write the block
# again inline.  The homes: tests/cli/lib.sh (need_tcmalloc,
# use_jemalloc, je_producer, names_profile), tests/cli/pictures-lib.sh
# (webdriver: tests/cli on PYTHONPATH) and tests/cli/webdriver.py
# (svgcheck()).
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

cd "$PROFCONV_SRCDIR/tests/cli" || exit 1
TESTS=$(ls *.sh)
[ "$(echo "$TESTS" | wc -l)" -gt 50 ] || fail "no tests under tests/cli"

# only ERE WHY HOME: ERE matches no line of tests/cli/*.sh but those of
# HOME ("" for none), and, so that the check cannot go stale, some line
# of HOME (when there is one).
only() {
	grep -nE -- "$1" $TESTS | grep -v "^$3:" >"$TMP/hits"
	if [ -s "$TMP/hits" ]; then
		sed 's/^/  /' "$TMP/hits" >&2
		fail "$2"
	fi
	[ -z "$3" ] || grep -qE -- "$1" "$3" ||
		fail "'$1' is not in $3: the check is stale"
}

# gperftools' headers as the sign of tcmalloc: need_tcmalloc/have_tcmalloc.
only 'gperftools/heap-profiler\.h' \
    "a tcmalloc check written inline (call need_tcmalloc or have_tcmalloc)" lib.sh
# A threaded producer under jemalloc with its threads named: je_producer.
only 'MALLOC_CONF=.*prof_sys_thread_name' \
    "a threaded jemalloc run written inline (call je_producer)" lib.sh
# The profile of hostile names, a stack main;NAME each: names_profile.
only 'printf .main;%s %d\\n. "\$name" \$\(\(n \* 100\)\)' \
    "a names profile written inline (call names_profile)" lib.sh
# svg-check.py loaded by hand: webdriver.svgcheck().
only 'spec_from_file_location\(' \
    "svg-check.py loaded inline (call webdriver.svgcheck())" ""
# tests/cli put on a driver script's path by hand: pictures-lib.sh's
# webdriver puts it on PYTHONPATH.
only 'sys\.path\.insert\(0, os\.path\.join\(os\.environ\["PROFCONV_SRCDIR"\]' \
    "tests/cli put on sys.path inline (run the script with webdriver)" ""

# Either allocator, or skip: use_some_allocator.
only 'skip "neither libjemalloc\.so\.2 nor libtcmalloc\.so\.4' \
    "a lookup of either allocator written inline (call use_some_allocator)" lib.sh

# An allocator that a test cannot do without: use_jemalloc, use_tcmalloc
# or use_some_allocator, not a lookup and a skip of its own.  (A lookup
# for an optional part is fine, and so is a fallback from one allocator
# to the other that skips when "neither" is there.)
awk 'prev ~ /(find_lib|ldconfig).*lib(je|tc)malloc/ && /skip "/ && !/neither/ {
	print FILENAME ":" FNR ": " $0 }
     { prev = $0 }' $TESTS >"$TMP/all"
grep -q '^lib\.sh:' "$TMP/all" || fail "use_jemalloc's lookup is not in lib.sh: the check is stale"
grep -v '^lib\.sh:' "$TMP/all" >"$TMP/hits"
if [ -s "$TMP/hits" ]; then
	sed 's/^/  /' "$TMP/hits" >&2
	fail "an allocator lookup and skip written inline (call use_jemalloc, use_tcmalloc or use_some_allocator)"
fi
finish
