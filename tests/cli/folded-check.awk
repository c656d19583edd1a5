# SPDX-License-Identifier: MIT
# folded-check.awk - a strict checker of folded-stack output.  Usage:
#   awk -v counts=1 -f folded-check.awk FILE    (counts=2: differential)
# Checks every line: frames non-empty, no stray whitespace, a leaf that does
# not end in " <digits>", integer counts, no duplicate stacks, bytewise
# sorted order.  Prints the sum of the last column; exits 1 on any fault.
BEGIN {
	if (counts == "") counts = 1
	bad = 0
}
{
	line = $0
	if (line ~ /\r/ || line ~ /\t/) { err("tab or CR"); next }
	n = split(line, f, " ")
	# Counts are the last COUNTS space-separated fields.
	for (i = n - counts + 1; i <= n; i++)
		if (f[i] !~ /^[0-9]+$/) { err("count '" f[i] "' is not an unsigned integer"); next }
	stack = line
	for (i = 1; i <= counts; i++) sub(/ [0-9]+$/, "", stack)
	if (stack == "" || stack ~ /^ / || stack ~ / $/) { err("empty or padded stack"); next }
	if (stack ~ / [0-9]+$/) { err("leaf ends in ' <digits>'"); next }
	m = split(stack, fr, ";")
	for (i = 1; i <= m; i++)
		if (fr[i] == "") { err("empty frame"); next }
	if (stack in seen) { err("duplicate stack"); next }
	seen[stack] = 1
	if (NR > 1 && stack < prev) { err("not sorted"); next }
	prev = stack
	sum += f[n]
	if (counts == 2) base += f[n - 1]
}
function err(msg) {
	printf "line %d: %s: %s\n", NR, msg, $0 > "/dev/stderr"
	bad = 1
}
END {
	if (counts == 2) printf "%d %d\n", base, sum
	else printf "%d\n", sum
	exit bad
}
