# A closed pipe downstream ends the tool quietly with status 0.
awk 'BEGIN { print "time,cpu,lat"; for (i = 0; i < 200000; i++)
	printf "%d,%d,%d\n", i, i % 8, i % 500 }' | pebs-import >$TMP/big.pebs &&
pebs-decode $TMP/big.pebs | head -2 &&
pebs-decode -f yaml $TMP/big.pebs | head -1 &&
pebs-decode -f jsonl $TMP/big.pebs | head -1
