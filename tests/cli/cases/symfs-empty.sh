# --symfs "" is no --symfs (the binaries are looked up where the maps name
# them), as the man pages now say; any other DIR that is not a directory
# is exit 3 (symfs-check).
f=$TD/good/filter-hist-2k.pebs
for t in "pebs-decode -f csv --fields all,sym" "pebs-filter -f csv load" \
	 "pebs-hist -f csv --by sym" "pebs-c2c -f csv"; do
	$t --symfs "" $f > $TMP/a 2>&1; echo "rc=$?"
	$t $f 2>&1 | cmp - $TMP/a && echo "$t: same"
done
