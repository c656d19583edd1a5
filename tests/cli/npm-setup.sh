#!/bin/sh
# SPDX-License-Identifier: MIT
# npm-setup.sh DIR PACKAGE VERSION [FILE] - install the npm package
# PACKAGE@VERSION into DIR/PACKAGE/node_modules/PACKAGE, unless that
# version is there already; FILE, a path inside the package, must then exist.
# Each package has a prefix of its own: npm prunes from a prefix whatever
# its install did not ask for, so two packages sharing one would remove
# each other (and two tests installing at once would race).
# The tests that use one call this (speedscope.sh: speedscope's app;
# pprof-format.sh: the pprof decoder Node.js profilers use); .ci/run calls
# it before the tests, outside the build trees distcheck makes.
# Exit status: 0 ready, 1 npm missing or failed (message on stderr).
set -eu
dir=${1:?usage: npm-setup.sh DIR PACKAGE VERSION [FILE]}
name=${2:?usage: npm-setup.sh DIR PACKAGE VERSION [FILE]}
version=${3:?usage: npm-setup.sh DIR PACKAGE VERSION [FILE]}
file=${4:-package.json}
prefix=$dir/$name
pkg=$prefix/node_modules/$name
if [ -f "$pkg/$file" ] &&
    grep -q "\"version\": \"$version\"" "$pkg/package.json" 2>/dev/null; then
	exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "npm not installed (Debian: npm)" >&2; exit 1; }
mkdir -p "$prefix"
npm install --prefix "$prefix" --no-audit --no-fund --no-save --loglevel=error \
    "$name@$version" >"$prefix/npm.log" 2>&1 ||
	{ echo "npm install $name@$version failed:" >&2; tail -n 5 "$prefix/npm.log" >&2; exit 1; }
[ -f "$pkg/$file" ] ||
	{ echo "$name@$version has no $file" >&2; exit 1; }
