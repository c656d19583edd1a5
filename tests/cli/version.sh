# SPDX-License-Identifier: MIT
# version.sh - --version names the tool, the library and its dependencies.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

run 0 "$PROFCONV" --version
expect_out_has '^profconv [0-9]+\.[0-9]+\.[0-9]+$'
expect_out_has '^libprofconv [0-9.]+ protobuf-c/[0-9.]+ zlib/[0-9.]+ libdw/[0-9.]+$'
run 0 "$PROFCONV" -V
expect_out_has '^profconv '
finish
