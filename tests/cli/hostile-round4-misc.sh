# SPDX-License-Identifier: MIT
# hostile-round4-misc.sh - issue 38's command-line defects (round 4):
# expressions compiled without bounds, suppressions files read whole,
# float options checked after the input is read, --still-at of another
# program.  Each is refused fast, before any input is read, under a
# memory cap and a timeout far above what profconv needs.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

PROFFLAME=$CMD/profflame PROFDIFF=$CMD/profdiff PROFTREND=$CMD/proftrend
PROFGRAPH=$CMD/profgraph
use_caps
LIMIT_S=10
M=$DATA/go/mem.pb.gz
NOFILE=$TMP/no-such-input

# usage_refused NAME TEXT CMD...: CMD exits 2 under the caps, its first
# line is "NAME: TEXT...", then the --help hint, nothing on stdout.
usage_refused() {
	name=$1 text=$2
	shift 2
	bounded 2 "$@"
	head -n 1 "$TMP/err" | grep -qF "$name: $text" ||
		fail "'$*': $(head -n 1 "$TMP/err")"
	[ "$(sed -n 2p "$TMP/err")" = "Try '$name --help'." ] &&
	    [ "$(wc -l <"$TMP/err")" = 2 ] ||
		fail "'$*': not one message and a hint: $(cat "$TMP/err")"
	[ -s "$TMP/out" ] && fail "'$*': usage error wrote to stdout"
}

# The commands that take the view's options, each with the inputs it
# needs, and the input missing: the error comes before any reading.
commands() {
	for in in "$M" "$NOFILE"; do
		echo "profconv show|$PROFCONV show|$in"
		echo "profconv report|$PROFCONV report -o $TMP/r.html|$in"
		echo "profconv list|$PROFCONV list|main $in"
		echo "profdiff|$PROFDIFF|$in $in"
		echo "profflame|$PROFFLAME|$in"
		echo "profgraph|$PROFGRAPH|$in"
		echo "proftrend|$PROFTREND|$in $in"
	done
}

# --- item 4: command-line expressions have the profile's bounds ----------
# '((a{1000}){1000}){1000}' (23 bytes) took 16 GB and 44 s in regcomp.
RX='((a{1000}){1000}){1000}'
WHY='counted repetitions multiply to more than 1000'
commands >"$TMP/commands"
while IFS='|' read -r name cmd args; do
	for opt in focus ignore hide show show-from prune-from; do
		# shellcheck disable=SC2086
		usage_refused "$name" "invalid $opt expression '$RX': $WHY" \
		    $cmd --$opt "$RX" $args
	done
	for opt in tagfocus tagignore tagshow taghide; do
		case $name in "profconv report") continue ;; esac
		# shellcheck disable=SC2086
		usage_refused "$name" "invalid --$opt expression '$RX': $WHY" \
		    $cmd --$opt "$RX" $args
	done
	# A back-reference, exponential to match, likewise.
	# shellcheck disable=SC2086
	usage_refused "$name" "invalid focus expression '(a)\\1': back-reference" \
	    $cmd --focus '(a)\1' $args
done <"$TMP/commands"
# Within the bounds, an expression still works.
bounded 0 "$PROFCONV" show --focus '(main|runtime){1,10}' "$M"

# --- item 4: --suppressions is a bounded regular file or a pipe -----------
# /dev/zero was read whole: 8.4 GB in 7.7 s.
head -c 1100000 /dev/zero | tr '\0' '#' >"$TMP/big.supp"
mkdir "$TMP/dir.supp"
for f in /dev/zero "$TMP/big.supp" "$TMP/dir.supp"; do
	case $f in
	/dev/zero) why='not a regular file or a pipe' ;;
	*big.supp) why='larger than 1 MiB' ;;
	*) why='a directory' ;;
	esac
	while IFS='|' read -r name cmd args; do
		case $name in "profconv report") continue ;; esac
		# shellcheck disable=SC2086
		usage_refused "$name" "cannot read suppressions file '$f': $why" \
		    $cmd --suppressions "$f" $args
	done <"$TMP/commands"
done
# A pipe larger than the bound, likewise; a small one is read.
usage_refused proftrend "cannot read suppressions file '/dev/stdin': larger than 1 MiB" \
    sh -c "cat '$TMP/big.supp' | exec '$PROFTREND' --suppressions /dev/stdin '$M' '$M'"
bounded 0 sh -c "printf 'leak:nothing_here\n' | exec '$PROFTREND' --suppressions /dev/stdin '$M' '$M'"

# --- item 7: every float option is checked before any input is read -------
# report --minwidth nan was refused after reading and symbolizing (exit 1,
# naming the input); each is a usage error now, as a missing input shows.
for bad in nan inf -inf 1e400 -1 x ''; do
	usage_refused "profconv report" "invalid --minwidth value '$bad'" \
	    "$PROFCONV" report --minwidth "$bad" -o "$TMP/r.html" "$NOFILE"
	usage_refused profflame "invalid --minwidth value '$bad'" \
	    "$PROFFLAME" --svg --minwidth "$bad" "$NOFILE"
	usage_refused "profconv report" "invalid --nodefraction value '$bad'" \
	    "$PROFCONV" report --nodefraction "$bad" -o "$TMP/r.html" "$NOFILE"
	for opt in nodefraction edgefraction; do
		usage_refused profgraph "invalid --$opt value '$bad'" \
		    "$PROFGRAPH" --$opt "$bad" "$NOFILE"
	done
	for opt in min-grew min-share; do
		usage_refused proftrend "invalid --$opt value '$bad'" \
		    "$PROFTREND" --$opt "$bad" "$NOFILE" "$NOFILE"
	done
	for opt in fontsize fontwidth factor min-delta; do
		usage_refused profflame "invalid --$opt value '$bad'" \
		    "$PROFFLAME" --svg --$opt "$bad" "$NOFILE"
	done
done
usage_refused "profconv report" "invalid --minwidth value '101%'" \
    "$PROFCONV" report --minwidth 101% -o "$TMP/r.html" "$NOFILE"
bounded 0 "$PROFCONV" report --minwidth 2.5% --nodefraction 0.01 \
    -o "$TMP/r.html" "$M"

finish
