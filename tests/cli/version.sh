# SPDX-License-Identifier: MIT
# version.sh - --version names the tool, the library and its dependencies;
# its first line has GNU's form, "PROGRAM (PACKAGE) VERSION".
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

all_tools
for cmd in $ALL_TOOLS; do
	run 0 "$CMD/$cmd" --version
	head -n 1 "$TMP/out" | grep -Eq "^$cmd \(profconv\) [0-9]+\.[0-9]+\.[0-9]+\$" ||
		fail "$cmd --version first line: $(head -n 1 "$TMP/out")"
	expect_out_has '^libprofconv [0-9.]+ protobuf-c/[0-9.]+ zlib/[0-9.]+ libdw/[0-9.]+ zstd/[0-9.]+$'
	[ "$(wc -l <"$TMP/out")" -eq 2 ] || fail "$cmd --version: not two lines"
done
run 0 "$PROFCONV" -V
expect_out_has '^profconv \(profconv\) '
finish
