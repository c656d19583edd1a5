# SPDX-License-Identifier: MIT
# list-sources.sh - profconv list finds sources as go tool pprof does and
# then some, on the quick start's leaky C program built now (from its
# relative name, so the DWARF records leaky.c in its compilation
# directory): a tree moved elsewhere, found with --trim-path and
# --source-path exactly as pprof's -trim_path and -source_path find it;
# the name the DWARF records (compilation directory joined) where pprof's
# search fails; a debuginfod server (a loopback one, asked through
# libdebuginfod) by the binary's build id, and only with --debuginfod; a
# missing source listed with its values and a note.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
. "$PROFCONV_SRCDIR/tests/cli/list-lib.sh"

need_pprof
make_leaky "$TMP/proj"
export LC_ALL=C
RE='make_request_buffer|remember'
orig=$TMP/proj/src/leaky.c

# The compilation directory is in the name the profile records.
"$PROFCONV" show "$LEAKY" | grep -q " $orig:" ||
	fail "the symbolized profile does not name $orig"

# Where pprof finds it, profconv shows the same: from the project's
# directory, a source root (nothing outside the roots is read).
mkdir -p "$TMP/else" && cd "$TMP/proj" || exit 1
run 0 "$PROFCONV" list "$RE" "$LEAKY"
pprof_list -list "$RE" "$LEAKY"
same_as_pprof "the recorded path"
cp "$TMP/out" "$TMP/at-home"

# The DWARF's name where pprof's search fails: the trimmed name is not
# under the search path, the recorded one is still there.
run 0 "$PROFCONV" list --source-path "$TMP/nowhere" --trim-path "$TMP/proj" "$RE" "$LEAKY"
grep -q '^ROUTINE ======================== remember in src/leaky.c$' "$TMP/out" ||
	fail "trimmed name not shown: $(grep ROUTINE "$TMP/out")"
grep -v ROUTINE "$TMP/out" >"$TMP/a"
grep -v ROUTINE "$TMP/at-home" >"$TMP/b"
cmp -s "$TMP/a" "$TMP/b" || fail "the recorded name was not used after the search path"
pprof_list -source_path "$TMP/nowhere" -trim_path "$TMP/proj" -list "$RE" "$LEAKY"
grep -q 'Error: could not find file' "$TMP/pprof" ||
	fail "pprof found what it should not (the test proves nothing)"

# From elsewhere the recorded name is outside the source roots: withheld,
# and the note says so (pprof reads any name).
cd "$TMP/else" || exit 1
run 0 "$PROFCONV" list "$RE" "$LEAKY"
grep -q "^ Note: source withheld; tried $orig (outside the source roots)" "$TMP/out" ||
	fail "from elsewhere: $(grep Note "$TMP/out")"
grep -q 'memset' "$TMP/out" && fail "from elsewhere: the source was read"

# A moved tree.
mkdir -p "$TMP/moved"
mv "$TMP/proj" "$TMP/moved/proj"
run 0 "$PROFCONV" list "$RE" "$LEAKY"
grep -q "^ Note: source withheld; tried $orig" "$TMP/out" ||
	fail "no note naming $orig: $(grep Note "$TMP/out")"
grep -Eq '^ +[^ ]+ +[^ ]+ +[0-9]+:$' "$TMP/out" ||
	fail "missing source: no values per line"
grep -q 'memset' "$TMP/out" && fail "missing source: text from somewhere"
for how in "--trim-path $TMP/proj --source-path $TMP/moved/proj" \
    "--source-path $TMP/moved/proj" \
    "--trim-path $TMP/proj/src:$TMP/other --source-path $TMP/moved/proj/src"; do
	# shellcheck disable=SC2086
	run 0 "$PROFCONV" list $how "$RE" "$LEAKY"
	# shellcheck disable=SC2086
	pprof_list $(echo "$how" | sed 's/--trim-path/-trim_path/; s/--source-path/-source_path/') \
	    -list "$RE" "$LEAKY"
	same_as_pprof "moved tree, $how"
	grep -q 'memset(p, .r., n);' "$TMP/out" || fail "$how: source not found"
done
# The search path's parents: from a directory below the moved tree,
# pprof climbs to / and finds it; profconv climbs only while beneath a
# source root (the current directory), and finds it with the tree's
# root as the search path.
mkdir -p "$TMP/moved/proj/src/deeper/still" && cd "$TMP/moved/proj/src/deeper/still" || exit 1
run 0 "$PROFCONV" list --trim-path "$TMP/proj" "$RE" "$LEAKY"
grep -q 'memset(p, .r., n);' "$TMP/out" && fail "parents: read above the roots"
grep -q "^ Note: source .*nothing above the source roots" "$TMP/out" ||
	fail "parents: the note does not say where the search stopped: $(grep Note "$TMP/out")"
pprof_list -trim_path "$TMP/proj" -list "$RE" "$LEAKY"
grep -q 'memset(p, .r., n);' "$TMP/pprof" ||
	fail "pprof did not find it above the current directory (the test proves nothing)"
run 0 "$PROFCONV" list --trim-path "$TMP/proj" --source-path "$TMP/moved/proj/src/deeper:$TMP/moved/proj" "$RE" "$LEAKY"
grep -q 'memset(p, .r., n);' "$TMP/out" || fail "parents within a root: source not found"
cd "$TMP" || exit 1

# debuginfod: a server on loopback that has the source by build id.
id=$("$PROFCONV" show "$LEAKY" | awk '$3 ~ /\/leaky$/ {print $4; exit}')
[ -n "$id" ] || fail "no build id for leaky"
mkdir -p "$TMP/served"
cp "$TMP/moved/proj/src/leaky.c" "$TMP/served/leaky.c"
mv "$TMP/moved" "$TMP/gone"
python3 - "$TMP/served" "$TMP/port" "$TMP/requests" <<'PY' &
import http.server, os, sys, urllib.parse
root, portfile, log = sys.argv[1:4]
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(log, "a") as f:
            f.write(self.path + "\n")
        parts = self.path.split("/")
        if len(parts) > 4 and parts[1] == "buildid" and parts[3] == "source":
            name = os.path.basename(urllib.parse.unquote("/".join(parts[4:])))
            p = os.path.join(root, name)
            if os.path.isfile(p):
                data = open(p, "rb").read()
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
        self.send_response(404)
        self.end_headers()
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(portfile + ".tmp", "w").write(str(s.server_address[1]))
os.rename(portfile + ".tmp", portfile)
s.serve_forever()
PY
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 100); do [ -s "$TMP/port" ] && break; sleep 0.1; done
[ -s "$TMP/port" ] || fail "the debuginfod stand-in did not start"
export DEBUGINFOD_URLS="http://127.0.0.1:$(cat "$TMP/port")" \
    DEBUGINFOD_CACHE_PATH="$TMP/dcache" DEBUGINFOD_TIMEOUT=20
: >"$TMP/requests"
run 0 "$PROFCONV" list "$RE" "$LEAKY"
[ -s "$TMP/requests" ] && fail "debuginfod asked without --debuginfod"
grep -q 'memset' "$TMP/out" && fail "source text without --debuginfod"
run 0 "$PROFCONV" list --debuginfod "$RE" "$LEAKY"
if [ -z "$(find_lib libdebuginfod.so.1)" ]; then
	grep -q 'Note: source not found.*debuginfod' "$TMP/out" ||
		fail "no libdebuginfod, and the note does not say so"
else
	grep -q "^/buildid/$id/source/" "$TMP/requests" ||
		fail "debuginfod was not asked for build id $id: $(cat "$TMP/requests")"
	grep -q 'memset(p, .r., n);' "$TMP/out" ||
		fail "the debuginfod source is not listed: $(grep Note "$TMP/out")"
	grep -v ROUTINE "$TMP/out" >"$TMP/a"
	cmp -s "$TMP/a" "$TMP/b" || fail "the debuginfod listing differs from the one at home"
fi
finish
