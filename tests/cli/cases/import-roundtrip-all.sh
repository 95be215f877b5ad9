# --fields all (every stored column, then derived) is its own inverse.
pebs-import $TD/good/decode-basic.csv | pebs-decode --fields all >$TMP/all.csv &&
pebs-import $TMP/all.csv | pebs-decode --fields all >$TMP/again.csv &&
cmp $TMP/all.csv $TMP/again.csv && head -2 $TMP/all.csv
