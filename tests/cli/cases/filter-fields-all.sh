# --fields all: the same columns as pebs-decode's, for the matching samples
f=$TD/good/filter-hist-2k.pebs
pebs-filter -f csv --fields all 'lat > 400' $f > $TMP/a.csv &&
pebs-decode -f csv --fields all $f | head -1 | cmp - <(head -1 $TMP/a.csv) &&
echo "same header" &&
head -3 $TMP/a.csv &&
echo "rows $(($(wc -l < $TMP/a.csv) - 1)) of $(pebs-filter --count 'lat > 400' $f)"
