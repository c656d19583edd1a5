#!/bin/sh
# SPDX-License-Identifier: MIT
# speedscope-setup.sh DIR - install speedscope (the npm package ships the
# app: DIR/node_modules/speedscope/dist/release/index.html) into DIR,
# unless that version is there already.  tests/cli/speedscope.sh loads
# profflame's files in it; .ci/run calls this before the tests.
# Exit status: 0 ready, 1 npm missing or failed (message on stderr).
set -eu
dir=${1:?usage: speedscope-setup.sh DIR}
version=1.25.0
pkg=$dir/node_modules/speedscope
if [ -f "$pkg/dist/release/index.html" ] &&
    grep -q "\"version\": \"$version\"" "$pkg/package.json" 2>/dev/null; then
	exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "npm not installed (Debian: npm)" >&2; exit 1; }
mkdir -p "$dir"
npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error \
    "speedscope@$version" >"$dir/npm.log" 2>&1 ||
	{ echo "npm install speedscope@$version failed:" >&2; tail -n 5 "$dir/npm.log" >&2; exit 1; }
[ -f "$pkg/dist/release/index.html" ] ||
	{ echo "speedscope@$version has no dist/release/index.html" >&2; exit 1; }
