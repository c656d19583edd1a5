#!/bin/sh
# SPDX-License-Identifier: MIT
# npm-setup.sh DIR PACKAGE VERSION [FILE] - install the npm package
# PACKAGE@VERSION into DIR (DIR/node_modules/PACKAGE), unless that version
# is there already; FILE, a path inside the package, must then exist.
# The tests that use one call this (speedscope.sh: speedscope's app;
# pprof-format.sh: the pprof decoder Node.js profilers use); .ci/run calls
# it before the tests, outside the build trees distcheck makes.
# Exit status: 0 ready, 1 npm missing or failed (message on stderr).
set -eu
dir=${1:?usage: npm-setup.sh DIR PACKAGE VERSION [FILE]}
name=${2:?usage: npm-setup.sh DIR PACKAGE VERSION [FILE]}
version=${3:?usage: npm-setup.sh DIR PACKAGE VERSION [FILE]}
file=${4:-package.json}
pkg=$dir/node_modules/$name
if [ -f "$pkg/$file" ] &&
    grep -q "\"version\": \"$version\"" "$pkg/package.json" 2>/dev/null; then
	exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "npm not installed (Debian: npm)" >&2; exit 1; }
mkdir -p "$dir"
# --no-save: one package's install does not remove the other's.
npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error \
    "$name@$version" >"$dir/npm-$name.log" 2>&1 ||
	{ echo "npm install $name@$version failed:" >&2; tail -n 5 "$dir/npm-$name.log" >&2; exit 1; }
[ -f "$pkg/$file" ] ||
	{ echo "$name@$version has no $file" >&2; exit 1; }
