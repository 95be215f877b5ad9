# --no-header (cli-contract: CSV has a header line by default, --no-header
# drops it) in pebs-hist and pebs-c2c: the same rows without the first line;
# the formats without a header ignore it, as pebs-decode's yaml does
f=$TD/good/filter-hist-2k.pebs
pebs-hist -f csv --by mem $f | tail -n +2 > $TMP/a
pebs-hist -f csv --by mem --no-header $f > $TMP/b
cmp $TMP/a $TMP/b && head -2 $TMP/b
pebs-hist -f csv --percentiles 50,99 --no-header $f
pebs-hist -f yaml $f > $TMP/a
pebs-hist -f yaml --no-header $f | cmp - $TMP/a && echo "hist yaml: same"
pebs-hist -f csv --no-header -o /dev/full $f; echo "rc=$?"
pebs-import -f csv -o $TMP/s.pebs $TD/good/c2c-sharing.csv
pebs-c2c -f csv $TMP/s.pebs | tail -n +2 > $TMP/a
pebs-c2c -f csv --no-header $TMP/s.pebs | cmp - $TMP/a && echo "c2c csv: same"
pebs-c2c -f csv --stats --no-header $TMP/s.pebs | head -2
pebs-c2c $TMP/s.pebs > $TMP/a
pebs-c2c --no-header $TMP/s.pebs | cmp - $TMP/a && echo "c2c text: same"
# the text reports keep their tables' column headings (pebs-hist(1),
# pebs-c2c(1): they cannot be read without them)
pebs-hist -f text $f > $TMP/a
pebs-hist -f text --no-header $f | cmp - $TMP/a && echo "hist text: same"
