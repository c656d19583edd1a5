# SPDX-License-Identifier: MIT
# report-series.sh - the page of a series (profconv report of several
# dumps) has proftrend's rows for the same inputs and options: made now
# by tests/producers/runtimegrowth.c under LD_PRELOAD'ed libjemalloc, a
# program whose own leak (keep) grows beside the C runtime's one-time
# allocations (__new_exitfn, allocate_dtv), with threads that hold
# memory of their own.  The verdict table of the page, with --top large
# enough for every row, holds proftrend --json's rows (name, first,
# last, growth, grown intervals, verdict, in order), and its count is
# theirs: with the built-in suppressions and without them
# (--no-default-suppressions), with --suppressions FILE, --tagfocus and
# --by-thread; a suppressions file proftrend refuses, report refuses;
# snapshots it cannot read are each named, and no page is written.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "no python3 (JSON checks)"
use_jemalloc
export LC_ALL=C

je_producer runtimegrowth 12
set -- "$TMP"/je/je.*.heap
[ $# -ge 12 ] || { fail "$# dumps, not 12"; finish; }

# same WHAT OPTION...: the page's rows are proftrend --json's; their
# names into $TMP/names.
same() {
	what=$1
	shift
	"$CMD/proftrend" --json "$@" >"$TMP/trend.json" 2>"$TMP/trend.err"
	case $? in
	0 | 1) ;;
	*) fail "$what: proftrend: $(cat "$TMP/trend.err")"; return ;;
	esac
	run 0 "$PROFCONV" report --top 100000 -o "$TMP/page.html" "$@"
	python3 - "$TMP/page.html" "$TMP/trend.json" >"$TMP/names" \
	    2>"$TMP/why" <<'PY' || fail "$what: $(cat "$TMP/why")"
import html.parser, json, re, sys

class Rows(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.row, self.cell, self.inside = [], None, None, False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.inside = a.get("id") == "verdict-table"
        elif self.inside and tag == "tr":
            self.row = []
        elif self.inside and tag == "td" and self.row is not None:
            self.cell = [a.get("data-v"), ""]
    def handle_endtag(self, tag):
        if tag == "table":
            self.inside = False
        elif self.inside and tag == "td" and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        elif self.inside and tag == "tr" and self.row:
            self.rows.append(self.row)
            self.row = None
    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1] += data

page = open(sys.argv[1], encoding="utf-8").read()
p = Rows()
p.feed(page)
got = [(r[5][1], int(r[0][0]), int(r[1][0]), int(r[2][0]), int(r[3][0]),
        r[4][1]) for r in p.rows]
j = json.load(open(sys.argv[2]))
want = [(r["name"], r["first_bytes"], r["last_bytes"], r["growth_bytes"],
         r["grew_intervals"], r["verdict"]) for r in j["rows"]]
if got != want:
    sys.exit("page rows %r\nproftrend %r" % (got, want))
m = re.search(r"Showing (\d+) of (\d+) rows, (\d+) suspects", page)
suspects = sum(1 for r in j["rows"] if r["suspect"])
if not m or (int(m.group(2)), int(m.group(3))) != (len(want), suspects):
    sys.exit("the page counts %r, proftrend %d rows, %d suspects" %
             (m and m.groups(), len(want), suspects))
for r in want:
    print(r[0])
PY
}

# The built-in suppressions: the runtime's rows are hidden in both.
same "built-in suppressions" "$@"
grep -qx keep "$TMP/names" || fail "built-in: no row of keep"
grep -Eq '^(__new_exitfn|allocate_dtv|_dl_allocate_tls)$' "$TMP/names" &&
	fail "built-in: the runtime's rows are shown: $(tr '\n' ' ' <"$TMP/names")"
cp "$TMP/names" "$TMP/names.default"

same "--no-default-suppressions" --no-default-suppressions "$@"
grep -qx __new_exitfn "$TMP/names" ||
	fail "--no-default-suppressions: no row of __new_exitfn: $(tr '\n' ' ' <"$TMP/names")"

# A suppressions file of the user's, beside the built-in ones.
printf '# the program leaks there on purpose\nleak:keep\n' >"$TMP/supp"
same "--suppressions" --suppressions "$TMP/supp" "$@"
grep -qx keep "$TMP/names" && fail "--suppressions: keep is still a row"
grep -qx mine "$TMP/names" || fail "--suppressions: mine is gone"

# Only the named threads' samples.
same "--tagfocus" --tagfocus 'thread_name=step-.*' "$@"
[ "$(cat "$TMP/names")" = mine ] ||
	fail "--tagfocus: rows $(tr '\n' ' ' <"$TMP/names"), not mine alone"

# A row per thread and function.
same "--by-thread" --by-thread "$@"
grep -q '^thread 0 ([^)]*): keep$' "$TMP/names" ||
	fail "--by-thread: no row of thread 0's keep: $(tr '\n' ' ' <"$TMP/names")"
grep -q '^thread [1-9][0-9]* (step-[0-9]*): mine$' "$TMP/names" ||
	fail "--by-thread: no row of a step thread's mine"

# proftrend's limits on suppressions files are report's.
run 2 "$PROFCONV" report --suppressions /dev/zero "$@" -o "$TMP/zero.html"
grep -qx "profconv report: cannot read suppressions file '/dev/zero': not a regular file or a pipe" \
    "$TMP/err" || fail "--suppressions /dev/zero: $(cat "$TMP/err")"
[ -e "$TMP/zero.html" ] && fail "--suppressions /dev/zero: a page was written"
# --by-thread is for a series.
run 2 "$PROFCONV" report --by-thread "$1" -o "$TMP/one.html"
# Snapshots that cannot be read are each named, as proftrend names them
# (the next ones are read ahead), and no page is written.
printf 'not a profile\n' >"$TMP/bad.heap"
run 1 "$PROFCONV" report --no-symbolize "$1" "$TMP/bad.heap" "$2" \
    "$TMP/none.heap" -o "$TMP/bad.html"
grep -q "^profconv report: '$TMP/bad.heap': unrecognized profile format" \
    "$TMP/err" || fail "a bad snapshot: $(cat "$TMP/err")"
grep -qx "profconv report: cannot open '$TMP/none.heap': No such file or directory" \
    "$TMP/err" || fail "a missing snapshot: $(cat "$TMP/err")"
[ "$(wc -l <"$TMP/err")" = 2 ] || fail "not one line each: $(cat "$TMP/err")"
[ -e "$TMP/bad.html" ] && fail "bad snapshots: a page was written"
finish
