# SPDX-License-Identifier: MIT
# massif-stacks.awk - the stacks of one snapshot of a massif file, read
# independently of profconv: the tree's shape from the child counts (as
# ms_print reads it), one line per node that holds bytes none of its
# children hold: its frames outermost first, each as massif prints it
# without the address, ';'-joined, then the bytes.  Below-threshold
# aggregates are written "[TEXT];".  Usage: awk -v snap=N -f THIS FILE
function flush_node(d,    i, s) {
	if (d == 0 || own[d] <= 0)
		return
	s = ""
	for (i = d; i >= 1; i--)
		s = s text[i] ";"
	print s, own[d]
}
/^snapshot=/ { insnap = (substr($0, 10) == snap); next }
!insnap { next }
/^heap_tree=/ { intree = ($0 != "heap_tree=empty"); depth = -1; next }
!intree || /^#/ { next }
{
	line = $0
	sub(/^ */, "", line)
	nch = line; sub(/:.*/, "", nch); nch = substr(nch, 2) + 0
	rest = line; sub(/^n[0-9]+: /, "", rest)
	bytes = rest; sub(/ .*/, "", bytes); bytes += 0
	t = rest; sub(/^[0-9]+ /, "", t)
	if (t ~ /^0x[0-9A-F]+: /)
		sub(/^0x[0-9A-F]+: /, "", t)
	else
		t = "[" t "]"
	if (depth < 0) {		# the root
		depth = 0
		left[0] = nch
		if (nch == 0)
			intree = 0
		next
	}
	d = depth + 1
	left[depth]--
	text[d] = t
	own[d] = bytes
	own[depth] -= bytes
	depth = d
	left[d] = nch
	# Climb out of every node whose children are all read.
	while (depth >= 0 && left[depth] == 0) {
		flush_node(depth)
		depth--
	}
	if (depth < 0)
		intree = 0
}
