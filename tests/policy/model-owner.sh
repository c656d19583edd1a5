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

# check_files FILE...: one line per model write outside the seams, as
# FILE:LINE:TEXT  [WHAT] (one perl for all files: a grep a rule a file
# took most of a minute).
check_files() {
	ARRAYS=$ARRAYS ELEMENTS=$ELEMENTS ASSIGN=$ASSIGN perl -e '
	my ($A, $E, $S) = @ENV{qw(ARRAYS ELEMENTS ASSIGN)};
	for my $f (@ARGV) {
		open(my $fh, "<", $f) or die "$f: $!\n";
		my @l = <$fh>;
		close($fh);
		chomp(@l);
		# A profile is known by its name: every name the file
		# declares as a struct profconv_profile pointer.
		my %n;
		for (@l) {
			$n{$1} = 1 while /struct profconv_profile\s*\*\s*(?:const\s+)?([a-z_][a-z0-9_]*)/g;
		}
		my $names = join("", map { "$_|" } sort keys %n);
		my $m = "(\\b(${names}prof|dst|src))(->|\\.)";
		my $hits = sub {
			my ($what, $rx) = @_;
			for my $i (0 .. $#l) {
				print "$f:", $i + 1, ":$l[$i]  [$what]\n" if $l[$i] =~ $rx;
			}
		};
		# Counts change only in profile.c.
		$hits->("a model array\x27s count is changed",
		    qr/->n($A)\b\s*$S|(\+\+|--)[a-z_>.]*->n($A)\b/);
		# Nothing else grows, replaces or fills them.
		$hits->("a model array is grown", qr/$m($A)_cap\b/);
		$hits->("a model array is replaced", qr/$m($A)\s*=[^=]/);
		$hits->("model elements are moved",
		    qr/$m($A)\[[^]]*\]\s*=[^=]|mem(move|cpy|set)\(\s*&?\s*$m($A)/);
		# Nor changes a field of an element in place.
		$hits->("a model element\x27s field is written",
		    qr/$m($A)\[[^]]*\](\.|->)[a-z_]+\s*$S/);
		# Elements are reached through the accessors, never by
		# address or by index by hand, and what they return stays
		# const.
		$hits->("a model element is taken by address",
		    qr/&\s*$m($A)\[|$m($A)\s*\+/);
		$hits->("the model is indexed by hand",
		    qr/$m(mappings|functions|locations|samples)\[/);
		$hits->("an accessor\x27s const is cast away",
		    qr/\(\s*struct\s+($E)\s*\*\s*\)/);
		# A non-const element pointer set from the model by hand:
		# flag the writes through it.  (pc_mapping_mut() is the one
		# seam that hands out a writable element.)
		my %v;
		for (@l) {
			while (/((?:const\s+)?struct\s+(?:$E)\s*\*\s*([a-z_][a-z0-9_]*)\s*=\s*(?:\([^)]*\)\s*)?&?\s*$m)/g) {
				$v{$2} = 1 unless $1 =~ /^const/;
			}
		}
		for my $v (sort keys %v) {
			$hits->("a model element is written through \x27$v\x27",
			    qr/\b\Q$v\E->[a-z_]+\s*$S/);
		}
	}' "$@"
}

# check ROOT: every library file but profile.c.
check() {
	files=$(ls "$1"/lib/*.c "$1"/lib/*/*.c | grep -v '/lib/model/profile\.c$')
	[ "$(echo "$files" | wc -l)" -gt 40 ] || echo "no library sources under $1/lib"
	# shellcheck disable=SC2086
	check_files $files
}

cd "$PROFCONV_SRCDIR" || exit 1
check . >"$TMP/hits"
if [ -s "$TMP/hits" ]; then
	cat "$TMP/hits" >&2
	fail "the model is changed outside lib/model/profile.c"
fi

# The checks must see writes of every kind the seams replace.
mkdir -p "$TMP/tree"
copy_sources "$TMP/tree" lib
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
