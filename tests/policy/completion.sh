# SPDX-License-Identifier: MIT
# completion.sh - the bash completion, sourced in bash, offers each
# command's subcommands, options and option arguments as its --help
# lists them, and files elsewhere.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v bash >/dev/null 2>&1 || skip "bash is not installed"
comp=$PROFCONV_SRCDIR/completion/profconv
mkdir -p "$TMP/dir" && : >"$TMP/dir/heap.0001.heap" && : >"$TMP/dir/other.pb.gz"

# complete WORD...: COMPREPLY, sorted, one line, for the last word.
cat >"$TMP/complete.bash" <<'EOS'
. "$1"
shift
cd "$DIR" || exit 1
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMPREPLY=()
fn=$(complete -p "$1" | sed 's/.*-F \([^ ]*\) .*/\1/')
"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
EOS
expect() {
	want=$1
	shift
	got=$(PATH=$CMD:$PATH DIR=$TMP/dir bash "$TMP/complete.bash" "$comp" "$@" 2>&1)
	[ "$got" = "$want" ] || fail "'$*': got '$got', expected '$want'"
}

expect "$(subcommands | sort | tr '\n' ' ' | sed 's/ $//')" profconv ""
expect "jemalloc tcmalloc" profconv record --allocator ""
expect "--interval" profconv record --int
# After "--": PROG's own arguments are files, never record's options.
expect "heap.0001.heap" profconv record -o x -- prog he
expect "" profconv record -- prog --int
expect "text2pb" profconv te
expect "--help --version" profconv --
expect "--level" profconv merge --l
expect "--no-compress" profconv text2pb --no
expect "--sysroot" profconv symbolize --sys
expect "--list-top" profconv report --list
expect "--by-thread" profconv report --by-t
expect "--suppressions" profconv report --supp
expect "function line stack" profdiff --by ""
expect "line" profdiff --by l
expect "delta-bytes delta-objects" profdiff --sort delta
expect "stack" profdiff --by=st
expect "--functions" profflame --fu
expect "--factor --filefunctions --files --find-wrappers --focus --fontsize --fonttype --fontwidth --functions" profflame --f
expect "heap.0001.heap" profflame --base he
expect "heap.0001.heap" profconv show he
expect "other.pb.gz" profconv merge -o ot
expect "" profconv text2pb --level ""
expect "heap.0001.heap" profdiff he
expect "function line stack" proftrend --by ""
expect "--no-sort" proftrend --no-so
expect "--svg" proftrend --sv
expect "--tagfocus --taghide --tagignore --tagleaf --tagroot --tagshow --title --top --type" proftrend --t
expect "other.pb.gz" proftrend -o ot
expect "heap.0001.heap" proftrend other.pb.gz he
# profflame --svg: the palettes the library knows, the backgrounds, files.
palettes=$("$CMD/profflame" --svg --colors nope "$DATA/go/mem.pb.gz" 2>&1 |
	sed -n "s/^profflame: unknown palette 'nope' (\(.*\))$/\1/p" | tr -d , |
	tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')
[ -n "$palettes" ] || fail "no palette list from profflame"
expect "$palettes" profflame --svg --colors ""
expect "java js" profflame --svg --colors=j
expect "blue green grey yellow" profflame --svg --bgcolors ""
expect "heap.0001.heap" profflame --svg --palfile he
expect "--factor" profflame --fa
expect "--nodecount --nodefraction" profgraph --node
expect "heap.0001.heap" profgraph --base he
# Every command has a completion, and make install links it under the
# name of each command but profconv (the file's own name).
all_tools
links=" $(make_var BASH_COMPLETION_COMMANDS "$MAKEFILE" | tr '\n' ' ')"
for cmd in $ALL_TOOLS; do
	bash -c ". '$comp'; complete -p $cmd" >/dev/null 2>&1 ||
		fail "no completion for $cmd"
	case $cmd:$links in
	profconv:*) ;;
	*" $cmd "*) ;;
	*) fail "$cmd not in BASH_COMPLETION_COMMANDS ($MAKEFILE): no completion link" ;;
	esac
done
finish
