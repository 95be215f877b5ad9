# Period 1 outruns the DS buffer between the threshold PMI and the
# drain: the loss is counted in the file and --max-lost turns it into
# exit 4 (the file is still complete).
pebs-capture -b sim --uarch skx --workload streaming --seed 1 \
	-e MEM_INST_RETIRED.ALL_LOADS -c 1 --max-lost 0 -o $TMP/a.pebs \
	2>$TMP/err
echo "rc=$?"
grep -c 'more than --max-lost 0' $TMP/err
pebs-decode --info $TMP/a.pebs | grep -E '^ *lost:' | sed 's/[0-9]\+/N/'
pebs-decode $TMP/a.pebs -f csv | tail -n +2 | wc -l | sed 's/[0-9]\+/N/'
pebs-capture -b sim --uarch skx --workload streaming --seed 1 \
	-e MEM_INST_RETIRED.ALL_LOADS -c 1 --max-lost 100000000 \
	-o $TMP/b.pebs 2>/dev/null
echo "rc=$?"
pebs-decode -f csv $TMP/a.pebs >$TMP/a.csv
pebs-decode -f csv $TMP/b.pebs >$TMP/b.csv
cmp $TMP/a.csv $TMP/b.csv && echo same samples
