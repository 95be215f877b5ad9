# A thread renamed between its samples (a COMM after some of them, as
# pthread_setname_np writes): each sample keeps the name it had then, as
# perf script shows it.  Two captures that call thread 11 "alpha", then
# "beta", go out as one perf.data with a COMM between; the import starts
# a second segment at the rename.  Thread 12 is renamed after its last
# sample (the second capture's metadata only): its samples keep "x", and
# that rename starts no segment.  The second segment carries the first
# one's start as time.origin: `t` goes on across the split.
printf '%s\n' 'time,pid,tid,comm,addr' '1000,10,10,main,0x1000' \
	'1100,10,11,alpha,0x1040' '1200,10,12,x,0x1080' > $TMP/a.csv &&
printf '%s\n' 'time,pid,tid,comm,addr' '2000,10,11,beta,0x2000' \
	'2100,10,11,beta,0x2040' > $TMP/b.csv &&
pebs-import $TMP/a.csv -o $TMP/a.pebs &&
pebs-import --meta comm.10.12=y $TMP/b.csv -o $TMP/b.pebs &&
cat $TMP/a.pebs $TMP/b.pebs | pebs-decode -f perf -o $TMP/r.data &&
pebs-import -f perf $TMP/r.data -o $TMP/r.pebs &&
pebs-decode -f csv --fields time,tid,comm $TMP/r.pebs &&
pebs-decode --info $TMP/r.pebs | grep 'segments:' &&
echo "== t goes on across the split (from 1000 ns, not 2000)" &&
pebs-filter -f csv --fields time,comm 't >= 1000ns' $TMP/r.pebs &&
pebs-filter -c 't in 100ns..1100ns' $TMP/r.pebs &&
echo "== no rename: one segment" &&
pebs-decode -f perf $TMP/a.pebs | pebs-import -f perf |
	pebs-decode --info - | grep 'segments:'
