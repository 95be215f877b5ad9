# A CSV written by pebs-decode reads back to the same bytes.
pebs-import $TD/good/decode-basic.csv >$TMP/a.pebs &&
pebs-decode $TMP/a.pebs >$TMP/a.csv &&
cmp $TMP/a.csv $TD/good/decode-basic.csv && cat $TMP/a.csv
