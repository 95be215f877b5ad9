# An input that could not be read at all (missing, not .pebs) gives no
# header, no empty yaml sequence and no empty .pebs or perf.data: only its
# message (exit 3 or 1), as pebs-hist and pebs-c2c.  A valid input with no
# samples still gets them, as does an empty raw dump; one readable input
# among unreadable ones is enough.
cp $TD/good/decode-basic.csv $TMP/samples.csv && cd $TMP || exit 9
pebs-gen -n 0 -o empty.pebs || exit 9
for f in csv text yaml jsonl pebs perf; do
	fl="--fields time"
	case $f in pebs|perf) fl= ;; esac
	pebs-decode -f $f $fl nope.pebs | wc -c
	echo "$f missing rc=$?"
	pebs-decode -f $f $fl samples.csv | wc -c
	echo "$f not-pebs rc=$?"
	pebs-decode -f $f $fl empty.pebs | wc -c | sed 's/^[1-9][0-9]*$/some/'
	echo "$f empty rc=$?"
done
pebs-decode -f csv --fields time empty.pebs
pebs-decode -f yaml --fields time empty.pebs
pebs-decode -f csv --fields time nope.pebs empty.pebs
echo "rc=$?"
pebs-decode -f csv --fields time </dev/null
echo "rc=$?"
pebs-decode --raw --uarch skl --fields time nope.bin
echo "rc=$?"
pebs-decode --raw --uarch skl --fields time </dev/null
echo "rc=$?"
