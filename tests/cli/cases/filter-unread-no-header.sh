# Inputs none of which could be read (missing, not .pebs, empty stdin)
# give no empty .pebs, no csv/text header, no empty yaml sequence and no
# --count of 0: only their messages (exit 3 or 1), as pebs-decode.  A
# valid input with no match still gets them; one readable input among
# unreadable ones is enough.
cp $TD/good/decode-basic.csv $TMP/samples.csv && cd $TMP || exit 9
pebs-gen -n 0 -o empty.pebs || exit 9
for f in pebs csv text yaml jsonl; do
	pebs-filter -f $f 'lat > 0' nope.pebs | wc -c
	echo "$f missing rc=$?"
	pebs-filter -f $f 'lat > 0' samples.csv | wc -c
	echo "$f not-pebs rc=$?"
	pebs-filter -f $f 'lat > 0' empty.pebs | wc -c |
		sed 's/^[1-9][0-9]*$/some/'
	echo "$f empty rc=$?"
done
pebs-filter -f csv --fields time true empty.pebs
pebs-filter -f yaml --fields time true empty.pebs
pebs-filter -f csv --fields time true nope.pebs empty.pebs
echo "rc=$?"
pebs-filter -f csv --fields time true </dev/null
echo "rc=$?"
pebs-filter 'lat > 0' nope.pebs empty.pebs | pebs-decode -f csv --fields time
echo "rc=$?"
pebs-filter --count true nope.pebs
echo "count missing rc=$?"
pebs-filter --count true samples.csv
echo "count not-pebs rc=$?"
pebs-filter --count true empty.pebs
echo "count empty rc=$?"
pebs-filter --count 'lat > 0' empty.pebs nope.pebs
echo "count some rc=$?"
