# SPDX-License-Identifier: MIT
# text2pb.sh - "profconv text2pb": options, standard input and output,
# compression levels, whole-or-nothing output and error messages.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

in=$TMP/in.heap
cat >"$in" <<'EOF'
heap_v2/524288
  t*: 3: 100 [5: 200]
  t0: 2: 50 [3: 120] main
  t1: 1: 50 [2: 80]
@ 0x1010 0x2020
  t*: 2: 8192 [4: 16384]
  t0: 1: 4096 [2: 8192]
  t1: 1: 4096 [2: 8192]
@ 0x3000
  t*: 0: 32 [1: 4096]
  t1: 0: 32 [1: 4096]

MAPPED_LIBRARIES:
00001000-00004000 r-xp 00000000 08:01 123 /usr/bin/prog
EOF

# magic FILE: the first two bytes in hex.
magic() {
	od -An -tx1 -N2 "$1" | tr -d ' \n'
}

run 0 "$PROFCONV" text2pb --help
expect_out_has '^usage: profconv text2pb '
[ -s "$TMP/err" ] && fail "--help wrote to stderr"

# A file, gzip-compressed by default, that reads back as the input does,
# its drop_frames with the allocation wrappers the view cuts added
# (profconv(1), PPROF OUTPUT).
run 0 "$PROFCONV" text2pb -o "$TMP/a.pb.gz" "$in"
[ -s "$TMP/out" ] && fail "-o still wrote to stdout"
[ "$(magic "$TMP/a.pb.gz")" = 1f8b ] || fail "default output is not gzip"
# show_drop FILE: show's dump, the wrappers' alternatives taken out of its
# drop frames line.
show_drop() {
	"$PROFCONV" show "$1" | sed '/^drop frames: /s/|xmalloc|xcalloc|.*grow_zeroed)$//'
}
show_drop "$in" >"$TMP/show-in" || fail "show of the input"
show_drop "$TMP/a.pb.gz" >"$TMP/show-out" || fail "show of the output"
diff -u "$TMP/show-in" "$TMP/show-out" >&2 || fail "output does not read back as the input"
"$PROFCONV" show "$TMP/a.pb.gz" | grep '^drop frames: ' | grep -qF '|xmalloc|xcalloc|' ||
	fail "the output's drop frames lack the allocation wrappers"
grep -q '^total inuse_space/bytes: 1052709 ' <<EOF || fail "wrong inuse_space total"
$("$PROFCONV" show -s "$TMP/a.pb.gz")
EOF

# '-' is standard input and output; -o - is standard output too.
run 0 "$PROFCONV" text2pb - <"$in"
cmp -s "$TMP/out" "$TMP/a.pb.gz" || fail "stdin to stdout differs from the file"
run 0 "$PROFCONV" text2pb -o - "$in"
cmp -s "$TMP/out" "$TMP/a.pb.gz" || fail "-o - differs from the file"

# --no-compress writes raw protobuf (field 1, length-delimited: 0x0a);
# --level 0 is the same; other levels are valid gzip.
run 0 "$PROFCONV" text2pb --no-compress -o "$TMP/raw.pb" "$in"
[ "$(od -An -tx1 -N1 "$TMP/raw.pb" | tr -d ' ')" = 0a ] ||
	fail "--no-compress output is not raw protobuf"
show_drop "$TMP/raw.pb" | cmp -s - "$TMP/show-in" || fail "raw output reads back differently"
gzip -t "$TMP/raw.pb" 2>/dev/null && fail "--no-compress output is gzip"
run 0 "$PROFCONV" text2pb -l 0 -o "$TMP/l0.pb" "$in"
cmp -s "$TMP/raw.pb" "$TMP/l0.pb" || fail "--level 0 differs from --no-compress"
run 0 "$PROFCONV" text2pb --level 9 --no-compress -o "$TMP/n9.pb" "$in"
cmp -s "$TMP/raw.pb" "$TMP/n9.pb" || fail "a later --no-compress does not win over --level"
for level in 1 9; do
	run 0 "$PROFCONV" text2pb --level "$level" -o "$TMP/l$level.pb.gz" "$in"
	gzip -t "$TMP/l$level.pb.gz" || fail "--level $level output is not gzip"
	gzip -dc "$TMP/l$level.pb.gz" | cmp -s - "$TMP/raw.pb" ||
		fail "--level $level holds different bytes"
done

# --threads: one sample per thread line, with labels.
run 0 "$PROFCONV" text2pb --threads -o "$TMP/t.pb.gz" "$in"
"$PROFCONV" show "$TMP/t.pb.gz" >"$TMP/show-t"
grep -q '^samples: 3$' "$TMP/show-t" || fail "--threads: not 3 samples"
grep -q '^   labels: bytes=4096 thread=0 thread_name="main"$' "$TMP/show-t" ||
	fail "--threads: no thread/thread_name labels"

# Usage errors exit 2 with one message and a hint.
run 2 "$PROFCONV" text2pb --level 10 "$in"
[ -s "$TMP/out" ] && fail "a usage error wrote to stdout"
printf '%s\n' "profconv text2pb: invalid --level value '10' (expected 0..9)" \
	"Try 'profconv text2pb --help'." >"$TMP/want"
diff -u "$TMP/want" "$TMP/err" >&2 || fail "--level 10 message"
run 2 "$PROFCONV" text2pb --level x "$in"
run 2 "$PROFCONV" text2pb
run 2 "$PROFCONV" text2pb "$in" "$in"
run 2 "$PROFCONV" text2pb --bogus "$in"

# A bad input: exit 1, the file and the line named, no output file.
printf 'heap_v2/1\n@ 0x10\nbogus line\n' >"$TMP/bad.heap"
mkdir "$TMP/o"
run 1 "$PROFCONV" text2pb -o "$TMP/o/x.pb.gz" "$TMP/bad.heap"
expect_err "profconv text2pb: '$TMP/bad.heap': line 3: unexpected line 'bogus line'"
[ -z "$(ls -A "$TMP/o")" ] || fail "a failed run left files: $(ls -A "$TMP/o")"
# ... and an existing output stays as it was.
echo keep >"$TMP/o/x.pb.gz"
run 1 "$PROFCONV" text2pb -o "$TMP/o/x.pb.gz" "$TMP/bad.heap"
[ "$(cat "$TMP/o/x.pb.gz")" = keep ] || fail "a failed run changed the output"
[ "$(ls -A "$TMP/o")" = x.pb.gz ] || fail "a failed run left files: $(ls -A "$TMP/o")"
run 1 "$PROFCONV" text2pb - <"$TMP/bad.heap"
expect_err "profconv text2pb: '<stdin>': line 3: unexpected line 'bogus line'"
run 1 "$PROFCONV" text2pb -o "$TMP/o/y.pb" "$TMP/missing.heap"
expect_err "profconv text2pb: cannot open '$TMP/missing.heap': No such file or directory"
run 1 "$PROFCONV" text2pb -o "$TMP/nodir/y.pb" "$in"
grep -q "cannot create '$TMP/nodir/y.pb'" "$TMP/err" || fail "no message for a bad output directory"
finish
