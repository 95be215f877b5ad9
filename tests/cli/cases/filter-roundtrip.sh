# .pebs output decodes to exactly the matching rows of the input
f=$TD/good/filter-hist-2k.pebs
pebs-decode -f csv $f >$TMP/all.csv
pebs-filter 'lat > 300' $f | pebs-decode -f csv >$TMP/sel.csv
awk -F, 'NR == 1 || $8 > 300' $TMP/all.csv | cmp - $TMP/sel.csv && echo "lat > 300: same rows"
# every block matches: copied raw; output equals input rows
pebs-filter 'time > 0' $f | pebs-decode -f csv | cmp - $TMP/all.csv && echo "all blocks copied: same rows"
# --invert gives the complement
pebs-filter -v 'lat > 300' $f | pebs-decode -f csv >$TMP/inv.csv
awk -F, 'NR == 1 || $8 <= 300' $TMP/all.csv | cmp - $TMP/inv.csv && echo "invert: same rows"
# the output records the filter in its metadata
pebs-filter 'lat > 300' $f | pebs-decode --info | grep filter
# concatenated inputs are one stream
pebs-filter --count hitm $f $f
cat $f $f | pebs-filter --count hitm
# threads do not change the result
pebs-filter -j 2 'mem == L3' $f | pebs-decode -f csv | md5sum
pebs-filter -j 1 'mem == L3' $f | pebs-decode -f csv | md5sum
