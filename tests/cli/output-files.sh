# SPDX-License-Identifier: MIT
# output-files.sh - -o through links and descriptors, overwriting keeps
# mode, owner and hard links, long names, no temporary file after a signal.
. "${PROFCONV_SRCDIR:?}/tests/cli/lib.sh"

IN=$DATA/go/cpu.pb.gz
"$PROFCONV" text2pb "$IN" -o "$TMP/ref.pb.gz" || fail "reference output"

# no_temporaries DIR: no OUT.tmpXXXXXX stays behind in DIR.
no_temporaries() {
	if ls "$1" | grep -Eq '\.(tmp|old)......$'; then
		fail "temporary file left in $1: $(ls "$1" | grep -E '\.(tmp|old)')"
	fi
}

# A link to a file: the file gets the data, the link stays a link.
mkdir "$TMP/l"
ln -s real.pb.gz "$TMP/l/link.pb.gz"
run 0 "$PROFCONV" text2pb "$IN" -o "$TMP/l/link.pb.gz"
[ -L "$TMP/l/link.pb.gz" ] || fail "-o LINK replaced the link"
cmp -s "$TMP/ref.pb.gz" "$TMP/l/real.pb.gz" || fail "-o LINK: target lacks the data"
# ... through a chain of links, relative and absolute.
ln -s "$TMP/l/link.pb.gz" "$TMP/l/chain"
rm -f "$TMP/l/real.pb.gz"
run 0 "$PROFCONV" text2pb "$IN" -o "$TMP/l/chain"
[ -L "$TMP/l/chain" ] && [ -L "$TMP/l/link.pb.gz" ] || fail "-o CHAIN replaced a link"
cmp -s "$TMP/ref.pb.gz" "$TMP/l/real.pb.gz" || fail "-o CHAIN: target lacks the data"
no_temporaries "$TMP/l"

# A link to this process's standard output, as /dev/stdout is: the data
# go where the shell sent stdout ("> f" and ">> f" alike).  A link of our
# own, so that a regression cannot replace the system's /dev/stdout.
ln -s /proc/self/fd/1 "$TMP/l/stdout"
"$PROFCONV" text2pb "$IN" -o "$TMP/l/stdout" >"$TMP/l/got.pb.gz" ||
	fail "-o link-to-stdout exited $?"
[ -L "$TMP/l/stdout" ] || fail "-o link-to-stdout replaced the link"
cmp -s "$TMP/ref.pb.gz" "$TMP/l/got.pb.gz" || fail "-o link-to-stdout: '> f' lacks the data"
echo first >"$TMP/l/log"
"$CMD/profflame" --no-symbolize "$IN" -o "$TMP/l/stdout" >>"$TMP/l/log" ||
	fail "profflame -o link-to-stdout exited $?"
[ "$(head -n 1 "$TMP/l/log")" = first ] || fail "-o link-to-stdout: '>> f' was not appended to"
[ "$(wc -l <"$TMP/l/log")" -gt 1 ] || fail "-o link-to-stdout: '>> f' lacks the data"
if [ "$(id -u)" != 0 ]; then
	# Safe only when we cannot replace /dev/stdout.
	"$PROFCONV" text2pb "$IN" -o /dev/stdout >"$TMP/l/dev.pb.gz"
	cmp -s "$TMP/ref.pb.gz" "$TMP/l/dev.pb.gz" || fail "-o /dev/stdout: '> f' lacks the data"
fi
"$PROFCONV" text2pb "$IN" -o /dev/fd/3 3>"$TMP/l/fd3.pb.gz" >/dev/null
cmp -s "$TMP/ref.pb.gz" "$TMP/l/fd3.pb.gz" || fail "-o /dev/fd/3: '3> f' lacks the data"
[ -L /dev/stdout ] || [ -c /dev/stdout ] || fail "/dev/stdout is no longer a link"

# Overwriting keeps mode and (as root) owner and group; hard links keep
# sharing one file, which gets the new data.
mkdir "$TMP/m"
echo old >"$TMP/m/out"
chmod 0640 "$TMP/m/out"
if [ "$(id -u)" = 0 ]; then
	chown 65534:65534 "$TMP/m/out"
fi
before=$(stat -c '%a %u %g' "$TMP/m/out")
ln "$TMP/m/out" "$TMP/m/other"
run 0 "$PROFCONV" text2pb "$IN" -o "$TMP/m/out"
after=$(stat -c '%a %u %g' "$TMP/m/out")
[ "$before" = "$after" ] || fail "overwriting changed mode/owner: $before -> $after"
[ "$(stat -c %i "$TMP/m/out")" = "$(stat -c %i "$TMP/m/other")" ] ||
	fail "overwriting broke the hard link"
cmp -s "$TMP/ref.pb.gz" "$TMP/m/other" || fail "the other hard link lacks the new data"
# A failed command leaves a hard-linked output as it was.
run 1 "$PROFCONV" text2pb /dev/null -o "$TMP/m/out"
cmp -s "$TMP/ref.pb.gz" "$TMP/m/other" || fail "a failed command changed the output"
no_temporaries "$TMP/m"

# The copy into a hard-linked output, hurt on cue by failio.c: a write
# error puts the old contents back; a signal waits for the copy to end.
# Either way the other link sees the old file or the new one, whole.
mkdir "$TMP/h"
awk 'BEGIN { for (i = 0; i < 5000; i++) print "old line", i }' >"$TMP/h/old"

# hurt DO AFTER: a fresh pair of links, "out" and "other", holding the old
# contents; text2pb -o out runs with failio doing DO after AFTER bytes.
hurt() {
	rm -f "$TMP/h/out" "$TMP/h/other"
	cp "$TMP/h/old" "$TMP/h/out"
	ln "$TMP/h/out" "$TMP/h/other"
	FAILIO_PATH=$TMP/h/out FAILIO_DO=$1 FAILIO_AFTER=$2 \
	    LD_PRELOAD=$TMP/failio.so env --default-signal \
	    "$PROFCONV" text2pb "$IN" -o "$TMP/h/out" >"$TMP/out" 2>"$TMP/err"
}
hurt_copies() {
	for at in 0 1000 2686; do
		hurt eio $at
		[ $? = 1 ] || fail "EIO at $at: exit status"
		expect_err "profconv text2pb: cannot write '$TMP/h/out': Input/output error"
		cmp -s "$TMP/h/old" "$TMP/h/other" || fail "EIO at $at: the old contents are not back"
		[ "$(stat -c %i "$TMP/h/out")" = "$(stat -c %i "$TMP/h/other")" ] ||
			fail "EIO at $at: the hard link is broken"
		[ "$(ls "$TMP/h" | wc -l)" = 3 ] || fail "EIO at $at: files left: $(ls "$TMP/h")"
	done
	# The disk fails for good: the old contents stay in a file the message names.
	hurt eio-always 1000
	[ $? = 1 ] || fail "lasting EIO: exit status"
	kept=$(ls "$TMP/h" | grep '^out\.old......$')
	expect_err "profconv text2pb: cannot write '$TMP/h/out': Input/output error; its old contents are in '$TMP/h/$kept'"
	cmp -s "$TMP/h/old" "$TMP/h/$kept" || fail "lasting EIO: the kept copy differs"
	rm -f "$TMP/h/$kept"
	no_temporaries "$TMP/h"
	for sig in TERM INT HUP; do
		hurt $sig 1000
		status=$?
		[ "$status" -gt 128 ] || fail "SIG$sig mid-copy: exit $status"
		cmp -s "$TMP/ref.pb.gz" "$TMP/h/other" || fail "SIG$sig mid-copy: the output is not whole"
		[ "$(ls "$TMP/h" | wc -l)" = 3 ] || fail "SIG$sig mid-copy: files left: $(ls "$TMP/h")"
	done
	# A rename that fails names the output.
	rm -f "$TMP/h/out" "$TMP/h/other"
	cp "$TMP/h/old" "$TMP/h/out"
	FAILIO_DO=rename LD_PRELOAD=$TMP/failio.so \
	    "$PROFCONV" text2pb "$IN" -o "$TMP/h/out" >"$TMP/out" 2>"$TMP/err"
	[ $? = 1 ] || fail "failed rename: exit status"
	expect_err "profconv text2pb: cannot write '$TMP/h/out': Input/output error"
	cmp -s "$TMP/h/old" "$TMP/h/out" || fail "failed rename: the output changed"
	no_temporaries "$TMP/h"
}
if ! cc -shared -fPIC -o "$TMP/failio.so" "$PROFCONV_SRCDIR/tests/cli/failio.c" 2>/dev/null; then
	echo "no C compiler: failed copies are not tested" >&2
elif ! LD_PRELOAD=$TMP/failio.so "$PROFCONV" --version >/dev/null 2>&1; then
	echo "failio.so cannot be preloaded (a sanitizer build?): failed copies are not tested" >&2
else
	hurt_copies
fi

# Names of up to NAME_MAX (255) bytes: the temporary name must fit too.
mkdir "$TMP/n"
for len in 246 250 255; do
	name=$(printf "%${len}s" "" | tr ' ' n)
	run 0 "$PROFCONV" text2pb "$IN" -o "$TMP/n/$name"
	cmp -s "$TMP/ref.pb.gz" "$TMP/n/$name" || fail "a $len-byte output name"
done
no_temporaries "$TMP/n"

# A signal mid-write removes the temporary file.  The output is big enough
# to take a while; the process is stopped once the temporary file exists,
# so the signal is sure to come mid-write.
mkdir "$TMP/s"
awk 'BEGIN { print "heap profile: 1: 2 [ 1: 2] @ heapprofile"
	for (i = 0; i < 100000; i++)
		printf "1: 16 [1: 16] @ 0x%x 0x%x 0x%x\n", 4096 + i * 16,
		    8192 + i * 32, 99999 + i * 7 }' >"$TMP/s/big.heap"

# has_tmp OUT: OUT.tmpXXXXXX exists.
has_tmp() {
	for f in "$1".tmp*; do
		[ -e "$f" ] && return 0
	done
	return 1
}

# signal_mid_write SIGNAL OUT CMD...: run CMD in the background, stop it
# once OUT.tmp* exists, send SIGNAL; no temporary file may survive.
signal_mid_write() {
	sig=$1 out=$2
	shift 2
	tries=0
	while [ "$tries" -lt 5 ]; do
		tries=$((tries + 1))
		# Default dispositions: a caller's nohup (SIGHUP ignored, as
		# inherited) must not turn the signal into a clean exit.
		env --default-signal "$@" 2>"$TMP/s/err" &
		pid=$!
		while kill -0 "$pid" 2>/dev/null && ! has_tmp "$out"; do
			:
		done
		kill -STOP "$pid" 2>/dev/null
		if has_tmp "$out"; then
			kill "-$sig" "$pid"
			kill -CONT "$pid"
			wait "$pid"
			status=$?
			[ "$status" -gt 128 ] || fail "$sig mid-write: exit $status"
			no_temporaries "$(dirname "$out")"
			rm -f "$out" "$out".tmp*
			return
		fi
		kill -CONT "$pid" 2>/dev/null
		wait "$pid" || { fail "'$*' failed"; return; }
		rm -f "$out"
	done
	skip "the write was too quick to catch five times"
}
signal_mid_write TERM "$TMP/s/big.pb.gz" \
	"$PROFCONV" text2pb -l 9 "$TMP/s/big.heap" -o "$TMP/s/big.pb.gz"
signal_mid_write HUP "$TMP/s/big.folded" \
	"$CMD/profflame" --no-symbolize --addresses "$TMP/s/big.heap" -o "$TMP/s/big.folded"
# A file size limit (SIGXFSZ) is a signal mid-write as well.
(ulimit -f 1; exec "$PROFCONV" text2pb "$IN" -o "$TMP/s/small.pb.gz") 2>/dev/null
[ $? -gt 128 ] || fail "ulimit -f did not stop text2pb"
no_temporaries "$TMP/s"
[ -e "$TMP/s/small.pb.gz" ] && fail "a partial output after SIGXFSZ"

finish
