# 150000 threads with one tid, 7, each of its own process.  The tables of
# threads (pid << 32 | tid) started each key at a slot that only the low
# bits chose, so all of these began at one slot and each insert probed past
# every one before: the writer took ~20 s and the import ~1 min where they
# take well under a second.  The timeouts turn the hang into a failure.
awk 'BEGIN { print "time,pid,tid,addr";
	for (i = 1; i <= 150000; i++)
		printf "%d,%d,7,0x1000\n", 1000 + i, 100 + i }' > $TMP/a.csv &&
pebs-import $TMP/a.csv -o $TMP/a.pebs &&
timeout 30 pebs-decode -f perf -o $TMP/a.data $TMP/a.pebs &&
timeout 30 pebs-import -f perf $TMP/a.data -o $TMP/b.pebs &&
pebs-decode -f csv --fields time,pid,tid $TMP/b.pebs | sed -n '2p;$p' &&
pebs-decode -f csv --fields pid $TMP/b.pebs | sed 1d | sort -u | wc -l
