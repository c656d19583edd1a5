# SPDX-License-Identifier: MIT
# model-owner.sh - only lib/model/profile.c grows, compacts or re-lays out
# the model's arrays, or changes their elements; every other file goes
# through the seams model/seams.h declares (profconv__reserve,
# profconv__add_*_raw, profconv__set_location_*, pc_mapping_mut ...) and
# reads through pc_location() and its kin, which hand out const pointers.
#
# A profile is known by its name: every name a file declares as a
# struct profconv_profile pointer (prof, dst, p, a struct's prof member).
# The checks run on the tree, then on a copy with model writes put in,
# which they must see.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

ARRAYS='sample_types|comments|mappings|functions|locations|lines|samples|stack|values|labels'
ELEMENTS='pc_mapping|pc_function|pc_location|pc_line|pc_sample|pc_label|pc_vtype'
ASSIGN='(=[^=]|\+=|-=|\*=|/=|\|=|&=|\^=|<<=|>>=|\+\+|--)'

# hits WHAT PATTERN FILE: report PATTERN's matches in FILE as WHAT.
hits() {
	grep -nE -e "$2" "$3" | sed "s|^|$3:|; s|\$|  [$1]|"
}

# check_file FILE: one line per model write outside the seams.
check_file() {
	f=$1
	names=$(grep -ohE 'struct profconv_profile[[:space:]]*\*[[:space:]]*(const[[:space:]]+)?[a-z_][a-z0-9_]*' "$f" |
	    sed 's/.*[* ]//' | sort -u | tr '\n' '|')
	model="(\\<(${names}prof|dst|src))(->|\\.)"
	# Counts change only in profile.c.
	hits "a model array's count is changed" \
	    "->n($ARRAYS)\\>[[:space:]]*$ASSIGN|(\\+\\+|--)[a-z_>.]*->n($ARRAYS)\\>" "$f"
	# Nothing else grows, replaces or fills them.
	hits "a model array is grown" "$model($ARRAYS)_cap\\>" "$f"
	hits "a model array is replaced" "$model($ARRAYS)[[:space:]]*=[^=]" "$f"
	hits "model elements are moved" \
	    "$model($ARRAYS)\\[[^]]*\\][[:space:]]*=[^=]|mem(move|cpy|set)\\([[:space:]]*&?[[:space:]]*$model($ARRAYS)" "$f"
	# Nor changes a field of an element in place.
	hits "a model element's field is written" \
	    "$model($ARRAYS)\\[[^]]*\\](\\.|->)[a-z_]+[[:space:]]*$ASSIGN" "$f"
	# Elements are reached through the accessors, never by address or
	# by index by hand, and what they return stays const.
	hits "a model element is taken by address" \
	    "&[[:space:]]*$model($ARRAYS)\\[|$model($ARRAYS)[[:space:]]*\\+" "$f"
	hits "the model is indexed by hand" \
	    "$model(mappings|functions|locations|samples)\\[" "$f"
	hits "an accessor's const is cast away" \
	    "\\([[:space:]]*struct[[:space:]]+($ELEMENTS)[[:space:]]*\\*[[:space:]]*\\)" "$f"
	# A non-const element pointer set from the model by hand: flag the
	# writes through it.  (pc_mapping_mut() is the one seam that hands
	# out a writable element.)
	for v in $(grep -ohE "(const[[:space:]]+)?struct[[:space:]]+($ELEMENTS)[[:space:]]*\\*[[:space:]]*[a-z_][a-z0-9_]*[[:space:]]*=[[:space:]]*(\\([^)]*\\)[[:space:]]*)?&?[[:space:]]*$model" "$f" |
	    grep -v '^const' | sed -E 's/.*\*[[:space:]]*([a-z_][a-z0-9_]*)[[:space:]]*=.*/\1/' | sort -u); do
		hits "a model element is written through '$v'" \
		    "\\<$v->[a-z_]+[[:space:]]*$ASSIGN" "$f"
	done
}

# check ROOT: every library file but profile.c.
check() {
	files=$(ls "$1"/lib/*.c "$1"/lib/*/*.c | grep -v '/lib/model/profile\.c$')
	[ "$(echo "$files" | wc -l)" -gt 40 ] || echo "no library sources under $1/lib"
	for f in $files; do
		check_file "$f"
	done
}

cd "$PROFCONV_SRCDIR" || exit 1
check . >"$TMP/hits"
if [ -s "$TMP/hits" ]; then
	cat "$TMP/hits" >&2
	fail "the model is changed outside lib/model/profile.c"
fi

# The checks must see writes of every kind the seams replace.
mkdir -p "$TMP/tree"
cp -R lib "$TMP/tree/lib"
cat >>"$TMP/tree/lib/view/rows.c" <<'CODE'
static void
bad_writes(struct profconv_profile *pr, size_t i, uint32_t m)
{
	struct pc_location *l = &pr->locations[i];
	struct pc_mapping *mp = (struct pc_mapping *)pc_mapping(pr, 1);

	l->mapping = m;
	pr->mappings[i].flags |= 1;
	pr->nsamples--;
	mp->flags = 0;
}
CODE
check "$TMP/tree" | sed "s|^$TMP/tree/|./|" | sort >"$TMP/all"
sort "$TMP/hits" | comm -23 "$TMP/all" - >"$TMP/bad"
for want in "a model element is taken by address" \
    "an accessor's const is cast away" \
    "a model element is written through 'l'" \
    "a model element's field is written" \
    "a model array's count is changed"; do
	grep -qF "[$want]" "$TMP/bad" || { cat "$TMP/bad" >&2; fail "the check missed: $want"; }
done
finish
