# SPDX-License-Identifier: MIT
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"
skip "not yet"
