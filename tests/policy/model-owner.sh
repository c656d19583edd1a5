# SPDX-License-Identifier: MIT
# model-owner.sh - only lib/model/profile.c grows, compacts or re-lays out the
# model's arrays; every other file goes through the seams internal.h
# declares (profconv__reserve, profconv__add_*_raw, profconv__retype,
# profconv__keep_samples, ...) and reads ids through pc_location() and
# its kin instead of indexing [id - 1] by hand.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

cd "$PROFCONV_SRCDIR" || exit 1
ARRAYS='sample_types|comments|mappings|functions|locations|lines|samples|stack|values|labels'
# A model pointer: prof, dst or src, possibly reached through a struct.
MODEL='(\<prof|\<dst|\<src)(->|\.)'
SOURCES=$(ls lib/*.c lib/*/*.c | grep -v '^lib/model/profile\.c$')

check() {	# check WHAT PATTERN [FILES]
	what=$1 pattern=$2
	shift 2
	grep -nE -e "$pattern" ${@:-$SOURCES} >"$TMP/hits"
	case $? in
	0) cat "$TMP/hits" >&2; fail "$what outside lib/model/profile.c" ;;
	1) ;;
	*) fail "grep failed on: $pattern" ;;
	esac
}

# The counts of the model's arrays change only in profile.c.
check "a model array's count is changed" \
	"->n($ARRAYS)\\>[[:space:]]*(=[^=]|\\+=|-=|\\+\\+|--)|(\\+\\+|--)[a-z_>.]*->n($ARRAYS)\\>"
# Nothing else grows them: their capacities are profile.c's alone.
check "a model array is grown" "$MODEL($ARRAYS)_cap\\>"
# Nor replaces them, nor moves or copies whole elements into them.
check "a model array is replaced" "$MODEL($ARRAYS)[[:space:]]*=[^=]"
check "model elements are moved" \
	"$MODEL($ARRAYS)\\[[^]]*\\][[:space:]]*=[^=]|mem(move|cpy|set)\\([[:space:]]*&?[[:space:]]*$MODEL($ARRAYS)"
# Ids are read through pc_mapping(), pc_function(), pc_location() and
# stacks through pc_sample_stack(), not by hand.  No file is exempt.
PENDING=''

READERS=$(for f in $SOURCES; do
	case " $PENDING " in *" $f "*) ;; *) echo "$f" ;; esac; done)
check "the model is indexed by hand" \
	"$MODEL(mappings|functions|locations)\\[[^]]*-[[:space:]]*1[[:space:]]*\\]|$MODEL(stack|labels|lines)\\[[a-z_>.-]*(loc_off|label_off|line_off)" \
	$READERS
finish
