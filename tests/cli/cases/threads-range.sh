# -j: a count above 8, up to 1024, is taken as 8 (the output is the same);
# one above 1024 is a usage error (exit 2), as the man pages now say
# (they said every larger count was taken as 8).
f=$TD/good/filter-hist-2k.pebs
for t in "pebs-decode -f csv" "pebs-filter -f csv load" "pebs-hist -f csv" \
	 "pebs-c2c -f csv"; do
	$t -j 1024 $f | cmp - <($t -j 8 $f) && echo "$t -j 1024: as -j 8"
	$t -j 1025 $f; echo "rc=$?"
done
