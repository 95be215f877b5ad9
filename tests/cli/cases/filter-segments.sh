# Each input segment keeps its own metadata in the output, as with
# pebs-decode -f pebs: a generated file and a capture stay two segments.
pebs-gen -n 1000 --seed 1 -o $TMP/a.pebs 2>/dev/null
pebs-capture --workload streaming -c 97 --accesses 100k -o $TMP/b.pebs \
	2>/dev/null
pebs-filter 'lat > 10' $TMP/a.pebs $TMP/b.pebs >$TMP/f.pebs
pebs-decode --info $TMP/f.pebs | grep -E '^  (segments|samples):'
pebs-filter 'lat > 10' $TMP/a.pebs $TMP/b.pebs | pebs-decode -f csv >$TMP/1.csv
pebs-decode -f csv $TMP/a.pebs $TMP/b.pebs | awk -F, 'NR == 1 || $8 > 10' \
	>$TMP/2.csv
cmp $TMP/1.csv $TMP/2.csv && echo same samples
