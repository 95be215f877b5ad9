# Any number of decode threads gives the same output, in order.
awk 'BEGIN { print "time,cpu,lat"; for (i = 0; i < 200000; i++)
	printf "%d,%d,%d\n", i, i % 8, i % 500 }' | pebs-import >$TMP/big.pebs &&
pebs-decode -j 1 $TMP/big.pebs >$TMP/1.csv &&
pebs-decode -j 4 $TMP/big.pebs >$TMP/4.csv &&
cmp $TMP/1.csv $TMP/4.csv && wc -l <$TMP/1.csv
