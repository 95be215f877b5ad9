# Samples without an event name (a CSV without an event column, or with an
# empty one) go to perf as an event called "pebs" and come back unnamed,
# in a file and through a pipe; they came back as "pebs" once.
cd $TMP || exit 9
printf 'time,cpu,pid,tid,event,addr,lat\n100,1,10,10,,0x7f00,70\n200,0,10,10,load-latency,0x7f08,5\n300,0,10,10,,0x7f10,9\n' > mixed.csv &&
printf 'time,addr,lat\n100,0x7f00,70\n' > none.csv &&
for f in mixed none; do
	echo "== $f" &&
	pebs-import $f.csv -o $f.pebs &&
	pebs-decode -f perf $f.pebs -o $f.data &&
	pebs-import -f perf $f.data -o $f.back.pebs &&
	pebs-decode --info $f.back.pebs | sed -n '/^  events:/,/^  [a-z]/p' |
		grep -E '^  - name:' &&
	pebs-decode -f csv --fields time,event,addr $f.back.pebs &&
	pebs-decode -f perf $f.pebs | pebs-import -f perf |
		pebs-decode -f csv --fields time,event,addr > $f.pipe.csv &&
	pebs-decode -f csv --fields time,event,addr $f.pebs | cmp - $f.pipe.csv &&
	echo "pipe: same" || exit
done
