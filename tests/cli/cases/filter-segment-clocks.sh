# Each segment's t counts from its own start (the smallest time of its
# first block) on its own clock: a tsc segment at 1 kHz, one at 1 MHz with
# three blocks (the first two ruled out by t >= 1.35s, counted whole by
# t < 1.32s), one in ns.  Counted
# from block directories (-c), evaluated (csv), in pebs-hist --where, one
# thread or several, concatenated or as separate inputs: all as awk says.
printf 'time,lat\n1000,1\n2000,2\n3000,3\n' |
	pebs-import --meta time.unit=tsc --meta tsc.hz=1000 -o $TMP/a.pebs &&
awk 'BEGIN { print "time,lat"
	for (i = 0; i < 140000; i++)
		printf "%d,4\n", 500000000 + i * 10 }' |
	pebs-import --meta time.unit=tsc --meta tsc.hz=1000000 \
	-o $TMP/b.pebs &&
printf 'time,lat\n100,5\n1000000100,6\n2000000100,7\n' |
	pebs-import --meta time.unit=ns -o $TMP/c.pebs &&
cat $TMP/a.pebs $TMP/b.pebs $TMP/c.pebs >$TMP/abc.pebs &&
# t in seconds of each segment, by its clock and its start
{ printf '1000 0\n1000 1000\n1000 2000\n'
  awk 'BEGIN { for (i = 0; i < 140000; i++) print 1000000, i * 10 }'
  printf '1000000000 0\n1000000000 1000000000\n1000000000 2000000000\n'
} >$TMP/t.txt
for e in 't >= 1s' 't < 1ms' 't >= 1.35s' 't in 0.5s..1s' 't == 1s' \
	'not t < 2s' 't >= 1.35s or lat == 1' 't < 1.32s'; do
	c1=$(pebs-filter -c "$e" $TMP/abc.pebs) &&
	c2=$(pebs-filter -j 1 -c "$e" $TMP/a.pebs $TMP/b.pebs $TMP/c.pebs) &&
	c3=$(pebs-filter -f csv --fields time --no-header "$e" \
		<$TMP/abc.pebs | wc -l) &&
	c4=$(pebs-hist --where "$e" -f csv $TMP/abc.pebs |
		awk -F, 'NR > 1 { n += $4 } END { print n + 0 }') &&
	c5=$(pebs-filter "$e" $TMP/abc.pebs | pebs-decode -f csv | wc -l) &&
	printf '%-26s %s %s %s %s %s\n' "$e" $c1 $c2 $c3 $c4 $((c5 - 1))
done
# the reference, from t.txt (lat 1 is the first sample)
awk '{ t = $2 / $1 } t >= 1 { a++ } t < 0.001 { b++ } t >= 1.35 { c++ }
	t >= 0.5 && t <= 1 { d++ } t == 1 { e++ } t >= 2 { f++ }
	t >= 1.35 || NR == 1 { g++ } t < 1.32 { h++ }
	END { print "awk:", a, b, c, d, e, f, g, h }' $TMP/t.txt
# a segment without tsc.hz: an error naming its input and segment
printf 'time,lat\n7,1\n' | pebs-import -o $TMP/d.pebs &&
cat $TMP/a.pebs $TMP/d.pebs | pebs-filter -c 't >= 1s'; echo "rc=$?"
(cd $TMP && pebs-hist --where 'lat > 0 and t >= 1s' a.pebs d.pebs)
echo "rc=$?"
