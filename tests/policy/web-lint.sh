# SPDX-License-Identifier: MIT
# web-lint.sh - the library's scripts and style sheets (lib/*/*.js,
# lib/*/*.css, embedded by build-aux/embed.sh) are checked as the
# languages they are: JavaScript by eslint with lib/.eslintrc.json (an
# undefined or unused name, a redeclaration, == where === is meant...),
# CSS by tinycss2 (web-lint.py: parse errors, empty values, an open
# block).  Each check must also refuse a copy of a file with a fault put
# in.  A tool that is not installed (.ci/install-deps installs both)
# skips the test, after the other tool has run.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

cd "$PROFCONV_SRCDIR" || exit 1
js=$(ls lib/*/*.js)
css=$(ls lib/*/*.css)
[ "$(echo "$js" | wc -l)" -ge 5 ] || fail "too few scripts under lib/: $js"
[ "$(echo "$css" | wc -l)" -ge 6 ] || fail "too few style sheets under lib/: $css"
missing=

# Debian's eslint finds its modules under /usr/share/nodejs, which a node
# not Debian's does not search by itself.
NODE_PATH=/usr/share/nodejs:/usr/lib/nodejs${NODE_PATH:+:$NODE_PATH}
export NODE_PATH
eslint() {
	command eslint --no-eslintrc -c "$PROFCONV_SRCDIR/lib/.eslintrc.json" \
	    -f unix "$@"
}
if command -v eslint >/dev/null 2>&1 && command eslint --version >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	eslint $js >"$TMP/js" 2>&1 || { cat "$TMP/js" >&2; fail "eslint: $(grep -c . "$TMP/js") lines"; }
	# A copy with a loose comparison and a name nothing defines.
	{ cat lib/page/report.js
	  printf 'if (location.hash == "#x") { undefinedName(); }\n'; } >"$TMP/bad.js"
	# (eslint 6 takes no file above its working directory.)
	(cd "$TMP" && eslint bad.js) >"$TMP/badjs" 2>&1 &&
		fail "eslint passed a planted fault"
	grep -q 'no-undef' "$TMP/badjs" || fail "eslint missed the undefined name: $(cat "$TMP/badjs")"
	grep -q 'eqeqeq' "$TMP/badjs" || fail "eslint missed ==: $(cat "$TMP/badjs")"
else
	missing="$missing eslint"
fi

py=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import tinycss2' >/dev/null 2>&1; then py=$p; break; fi
done
if [ -n "$py" ]; then
	lint=$PROFCONV_SRCDIR/tests/policy/web-lint.py
	# shellcheck disable=SC2086
	"$py" "$lint" $css >"$TMP/css" 2>&1 || { cat "$TMP/css" >&2; fail "CSS: $(cat "$TMP/css")"; }
	# Copies with a declaration without its colon, and a block not closed.
	{ cat lib/page/report.css; printf 'p.x { color red; }\n'; } >"$TMP/bad1.css"
	{ cat lib/page/list.css; printf 'p.y { color: red;\n'; } >"$TMP/bad2.css"
	"$py" "$lint" "$TMP/bad1.css" "$TMP/bad2.css" >"$TMP/badcss" 2>&1 &&
		fail "the CSS check passed planted faults"
	grep -q "bad1.css:$(($(wc -l <lib/page/report.css) + 1)):.*:" "$TMP/badcss" ||
		fail "the CSS check missed the colon: $(cat "$TMP/badcss")"
	grep -q 'bad2.css:.*not closed' "$TMP/badcss" ||
		fail "the CSS check missed the open block: $(cat "$TMP/badcss")"
else
	missing="$missing tinycss2"
fi

if [ -n "$missing" ] && [ "$failures" -eq 0 ]; then
	skip "not installed:$missing (.ci/install-deps installs them)"
fi
finish
