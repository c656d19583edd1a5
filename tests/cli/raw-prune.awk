# SPDX-License-Identifier: MIT
# raw-prune.awk - the Samples section of `go tool pprof -raw` (given the
# same file twice), each stack cut as pprof's Prune cuts it with a
# drop_frames that matches every location inside libtcmalloc,
# libjemalloc or libmimalloc: from the root, the first such location
# after one of the program's and everything below it go.
NR == FNR {
	if ($0 ~ /^Locations/) { l = 1; next }
	if ($0 ~ /^Mappings/) { l = 0; m = 1; next }
	if (l && $1 ~ /^[0-9]+:$/ && NF == 3)
		loc_map[substr($1, 1, length($1) - 1)] = $3
	if (m && $1 ~ /^[0-9]+:$/ &&
	    $0 ~ /\/lib(tcmalloc|jemalloc|mimalloc)[^ \/]*( |$)/)
		alloc_map["M=" substr($1, 1, length($1) - 1)] = 1
	next
}
FNR == 1 {
	for (k in loc_map)
		if (loc_map[k] in alloc_map)
			alloc_loc[k] = 1
}
/^Samples:/ { s = 1 }
/^Locations/ { print; exit }
!s { next }
{
	i = index($0, ":")
	if (i == 0 || $0 !~ /^ *-?[0-9]/) { print; next }
	head = substr($0, 1, i)
	n = split(substr($0, i + 1), id, " ")
	user = 0; cut = 0
	for (k = n; k >= 1; k--) {
		if (id[k] in alloc_loc) {
			if (user) { cut = k; break }
		} else {
			user = 1
		}
	}
	line = head
	for (k = cut + 1; k <= n; k++)
		line = line " " id[k]
	print line " "
}
