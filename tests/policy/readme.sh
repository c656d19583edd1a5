# SPDX-License-Identifier: MIT
# readme.sh - the README's quick start is two commands, and the first one
# installs the dependencies as root without sudo (a fresh Debian 12
# machine has none) and as a user through sudo.  apt-get, sudo and id are
# stand-ins that record what they were asked.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

readme=$PROFCONV_SRCDIR/README.md
awk '/^## Quick start/ {q = 1} q && /^```sh$/ {b = 1; next} b && /^```$/ {exit}
    b {print}' "$readme" >"$TMP/quick"
[ "$(wc -l <"$TMP/quick")" -eq 2 ] || fail "quick start is not two commands: $(cat "$TMP/quick")"
[ "$(sed -n 2p "$TMP/quick")" = "make check" ] || fail "second command: $(sed -n 2p "$TMP/quick")"
first=$(sed -n 1p "$TMP/quick")
install=${first%% && *}
[ "$install" = ".ci/install-deps" ] || fail "first command does not start with .ci/install-deps: $first"

# A copy of the tree's .ci with stand-ins on a PATH that has nothing else.
mkdir -p "$TMP/tree/.ci" "$TMP/bin"
cp "$PROFCONV_SRCDIR/.ci/install-deps" "$PROFCONV_SRCDIR/.ci/debian-packages" "$TMP/tree/.ci/"
for tool in cat env sh; do
	ln -s "$(command -v $tool)" "$TMP/bin/$tool"
done
cat >"$TMP/bin/apt-get" <<EOS
#!/bin/sh
echo "apt-get uid=\$(id -u) \$DEBIAN_FRONTEND \$*" >>"$TMP/log"
EOS
cat >"$TMP/bin/sudo" <<EOS
#!/bin/sh
echo "sudo \$1" >>"$TMP/log"
FAKE_UID=0 exec "\$@"
EOS
cat >"$TMP/bin/id" <<EOS
#!/bin/sh
echo "\${FAKE_UID:-1000}"
EOS
chmod +x "$TMP/bin/apt-get" "$TMP/bin/sudo" "$TMP/bin/id"

# As root, with no sudo anywhere.
mv "$TMP/bin/sudo" "$TMP/sudo"
: >"$TMP/log"
(cd "$TMP/tree" && FAKE_UID=0 PATH=$TMP/bin $install) >"$TMP/out" 2>&1 ||
	fail "as root without sudo: $(cat "$TMP/out")"
grep -q '^apt-get uid=0 noninteractive install -y .* libprotobuf-c-dev ' "$TMP/log" ||
	fail "as root: apt-get install not run: $(cat "$TMP/log")"
grep -q '^apt-get uid=0 noninteractive update' "$TMP/log" ||
	fail "as root: no apt-get update: $(cat "$TMP/log")"
grep -q '^sudo' "$TMP/log" && fail "as root: sudo used"

# As a user: through sudo.
mv "$TMP/sudo" "$TMP/bin/sudo"
: >"$TMP/log"
(cd "$TMP/tree" && PATH=$TMP/bin $install) >"$TMP/out" 2>&1 ||
	fail "as a user: $(cat "$TMP/out")"
grep -q '^sudo env' "$TMP/log" || fail "as a user: sudo not used: $(cat "$TMP/log")"
grep -q '^apt-get uid=0 noninteractive install -y ' "$TMP/log" ||
	fail "as a user: apt-get install not run as root: $(cat "$TMP/log")"
finish
