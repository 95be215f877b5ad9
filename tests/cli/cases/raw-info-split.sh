# --info --raw: several inputs are one dump (raw-records.md section 5), as
# when decoding: a dump cut anywhere by split(1) is summarised whole, in one
# document naming every input, without errors.
for i in $(seq 400); do cat $TD/good/raw-skl-ldlat.bin; done > $TMP/d &&
split -b 100000 $TMP/d $TMP/p. &&
pebs-decode --raw --uarch skl -f csv --no-header --fields ip $TMP/p.* |
	wc -l &&
pebs-decode --info --raw --uarch skl $TMP/p.aa $TMP/p.ab $TMP/p.ac |
	grep -E '^file|samples|unattributed|bytes|count' | sed "s|$TMP/||g"
echo "rc=$?"
