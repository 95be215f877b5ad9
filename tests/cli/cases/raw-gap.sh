# Several inputs are one dump; damage is named by the input where its
# record starts, with the offset in that input.  A record begun before an
# input that cannot be read is dropped and said (exit 3 for the missing
# input), not joined to the next input's bytes.
f=$TD/good/raw-skl-ldlat.bin
head -c 300 $f > $TMP/a
tail -c +301 $f | head -c 50 > $TMP/b
tail -c +301 $f | head -c 250 > $TMP/c
tail -c +401 $f > $TMP/rest
# record 1 starts in a (0xc8) and ends short in b
pebs-decode --raw --uarch skl -f csv --fields time,ip $TMP/a $TMP/b 2>&1 |
	sed "s|$TMP/||g"
# record 2 starts in c at 0x64
pebs-decode --raw --uarch skl -f csv --fields time,ip $TMP/a $TMP/c 2>&1 |
	sed "s|$TMP/||g"
# a (1.5 records), a missing input, then whole records: record 1's half is
# dropped, the last input decodes from its start
pebs-decode --raw --uarch skl -f csv --fields time,ip $TMP/a $TMP/missing \
	$TMP/rest 2>&1 | sed "s|$TMP/||g"
pebs-decode --raw --uarch skl -f csv --fields time $TMP/a $TMP/missing \
	$TMP/rest >/dev/null 2>&1
echo "rc=$?"
