# SPDX-License-Identifier: MIT
# placeholder
exit 77
