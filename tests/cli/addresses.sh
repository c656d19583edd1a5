# SPDX-License-Identifier: MIT
# addresses.sh - the frames of --addresses (one per location) read as
# gdb, perf, backtrace(3) and addr2line read them, on a real tcmalloc
# profile of tests/producers/multifile made at test time:
#
#   - "function+0xOFF": OFF is an offset into the function; the function
#     is a symbol of the program or of one of its libraries (nm, on the
#     file or its debug file), and addr2line -f -i at that symbol's start
#     + OFF names the same function as the outermost (not inlined) one.
#   - "function [module+0xADDR]" (where the function starts is not
#     known) and "module+0xADDR" (no symbols): ADDR is an ELF address of
#     MODULE that addr2line reads, into that function when one is named.
#   - show --summary --addresses and profflame --addresses (folded) write
#     the same frames with the same text.
#   - read back from a .pb.gz symbolized beforehand (the pprof format has
#     no function start), no frame has a name followed by +0x: every one
#     is "function [module+0xADDR]" or "module+0xADDR", checked as above.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

command -v cc >/dev/null 2>&1 || skip "no C compiler"
command -v nm >/dev/null 2>&1 || skip "no nm (binutils)"
command -v addr2line >/dev/null 2>&1 || skip "no addr2line (binutils)"
need_tcmalloc
export LC_ALL=C
SRC=$PROFCONV_SRCDIR/tests/producers/multifile

cc -O2 -g -fno-omit-frame-pointer -o "$TMP/multifile" "$SRC/a.c" "$SRC/b.c" \
    -Wl,--no-as-needed -ltcmalloc || skip "cannot build multifile with tcmalloc"
HEAPPROFILE=$TMP/mf "$TMP/multifile" >/dev/null 2>&1 || fail "multifile failed"
DUMP=$TMP/mf.0001.heap
[ -s "$DUMP" ] || { fail "no heap dump"; finish; }

# The program and its libraries, each as "basename<TAB>file to read",
# the file its debug file (by build id) when there is one.
{
	echo "$TMP/multifile"
	ldd "$TMP/multifile" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}'
} | while read -r f; do
	d=$f
	id=$(readelf -n "$f" 2>/dev/null | awk '/Build ID/ {print $3; exit}')
	if [ -n "$id" ]; then
		dbg=/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug
		[ -f "$dbg" ] && d=$dbg
	fi
	printf '%s\t%s\n' "$(basename "$f")" "$d"
done >"$TMP/modules"

# file_of MODULE: the file to read for module MODULE (a base name).
file_of() {
	awk -F '\t' -v m="$1" '$1 == m {print $2; exit}' "$TMP/modules"
}

# outermost FILE ADDR: the outermost function addr2line names at ADDR.
outermost() {
	addr2line -f -i -e "$1" "$2" 2>/dev/null | awk 'NR % 2 == 1 {f = $0} END {print f}'
}

# check_frame TEXT: TEXT read as the notation says.
check_frame() {
	t=$1
	case $t in
	*" ["*"+0x"*"]")
		fn=${t% \[*}
		at=${t##* \[}
		at=${at%\]}
		mod=${at%+0x*}
		addr=0x${at##*+0x}
		file=$(file_of "$mod")
		[ -n "$file" ] || { fail "'$t': no module '$mod'"; return; }
		got=$(outermost "$file" "$addr")
		[ "$got" = "$fn" ] ||
			fail "'$t': addr2line -e $file $addr names '$got', not '$fn'"
		nchecked=$((nchecked + 1))
		;;
	*"+0x"*)
		name=${t%+0x*}
		off=0x${t##*+0x}
		file=$(file_of "$name")
		if [ -n "$file" ]; then	# a frame without symbols
			got=$(outermost "$file" "$off")
			[ -n "$got" ] && [ "$got" != "??" ] ||
				fail "'$t': addr2line -e $file $off reads nothing"
			nchecked=$((nchecked + 1))
			return
		fi
		[ "$2" = named ] || { fail "'$t': a name followed by +0x"; return; }
		found=0
		while IFS="$(printf '\t')" read -r mod file; do
			start=$(nm "$file" 2>/dev/null |
			    awk -v n="$name" '$3 == n && $2 ~ /^[TtWiu]$/ {print $1; exit}')
			[ -n "$start" ] || continue
			found=1
			addr=$(printf '%#x' $((0x$start + off)))
			got=$(outermost "$file" "$addr")
			[ "$got" = "$name" ] ||
				fail "'$t': $mod's $name starts at 0x$start; addr2line -e $file $addr names '$got'"
			break
		done <"$TMP/modules"
		[ "$found" = 1 ] || fail "'$t': no module has a symbol '$name'"
		nchecked=$((nchecked + 1))
		;;
	*)
		fail "'$t': neither name+0xOFF nor [module+0xADDR]"
		;;
	esac
}

# frames_show FILE OUT: the frames of show -s --addresses's function rows.
frames_show() {
	"$PROFCONV" show --summary --addresses -n 100000 "$1" >"$TMP/show.out" 2>"$TMP/show.err" ||
		fail "show --addresses $1: $(cat "$TMP/show.err")"
	awk '/^top [0-9]+ functions by/ {s = 1; next}
	    s {n = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +/, "", n); print n}' \
	    "$TMP/show.out" | sort -u >"$2"
}

# frames_flame FILE OUT: the frames of profflame --addresses's stacks.
frames_flame() {
	"$CMD/profflame" --addresses -o "$TMP/flame.folded" "$1" 2>"$TMP/flame.err" ||
		fail "profflame --addresses $1: $(cat "$TMP/flame.err")"
	sed 's/ [0-9][0-9]*$//' "$TMP/flame.folded" | tr ';' '\n' | sort -u >"$2"
}

# check_all FILE KIND: show's and profflame's frames of FILE agree and
# each reads right.
check_all() {
	frames_show "$1" "$TMP/show.frames"
	frames_flame "$1" "$TMP/flame.frames"
	[ "$(wc -l <"$TMP/show.frames")" -ge 5 ] ||
		fail "show --addresses $1: too few frames: $(cat "$TMP/show.out")"
	diff -u "$TMP/show.frames" "$TMP/flame.frames" >&2 ||
		fail "$1: show and profflame write other frames with --addresses"
	nchecked=0
	while IFS= read -r t; do
		check_frame "$t" "$2"
	done <"$TMP/show.frames"
	[ "$nchecked" -ge 5 ] || fail "$1: only $nchecked frames checked"
}

# --- symbolized here: offsets into functions ------------------------------------
check_all "$DUMP" named
for f in a_alloc b_alloc main; do
	grep -Eq "^$f\\+0x[0-9a-f]+\$" "$TMP/show.frames" ||
		fail "no '$f+0xOFF' frame: $(cat "$TMP/show.frames")"
done

# --- symbolized elsewhere: no function start -----------------------------------
"$PROFCONV" symbolize -o "$TMP/mf.pb.gz" "$DUMP" 2>"$TMP/sym.err" ||
	fail "symbolize: $(cat "$TMP/sym.err")"
check_all "$TMP/mf.pb.gz" unknown
grep -Eq '^a_alloc \[multifile\+0x[0-9a-f]+\]$' "$TMP/show.frames" ||
	fail "no 'a_alloc [multifile+0xADDR]' frame: $(cat "$TMP/show.frames")"

finish
