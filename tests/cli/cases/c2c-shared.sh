# --stats, Global Shared Cache Line table: a line is shared with a HITM or
# a peer hit (here the L2 load with SNOOPX PEER), and the locked or blocked
# samples that are neither load nor store count on the line of their
# address; with --perf-compat the samples without an address count on
# line 0 (shared by the HITM load at 0x8).  testdata/good/
# c2c-shared.perf61-stats.txt is perf c2c report --stats --stdio (perf
# 6.1.187) on the same samples (pebs-decode -f perf); only "No Page Map
# Rejects" and perf's -nan differ.  A YAML round trip keeps the table.
pebs-import -f csv -o $TMP/s.pebs $TD/good/c2c-shared.csv &&
pebs-c2c --stats $TMP/s.pebs | sed -n '/^Global/,$p' &&
pebs-c2c --stats --perf-compat $TMP/s.pebs > $TMP/ours &&
sed -n '/^Global/,$p' $TMP/ours &&
grep ' : ' $TMP/ours | grep -v -e 'No Page' -e 'LLC Misses to' > $TMP/o &&
grep ' : ' $TD/good/c2c-shared.perf61-stats.txt | grep -v -e Events \
	-e 'Cachelines sort' -e 'data grouping' -e '^  *: ' -e 'No Page' \
	-e 'LLC Misses to' > $TMP/p &&
diff $TMP/p $TMP/o && echo "--perf-compat == perf 6.1" &&
pebs-c2c -f yaml $TMP/s.pebs | grep '^other_at' &&
pebs-c2c -f yaml $TMP/s.pebs | pebs-c2c --merge --stats --perf-compat |
	diff $TMP/ours - && echo "merged: same"
