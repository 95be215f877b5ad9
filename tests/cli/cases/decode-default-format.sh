# Not a terminal: csv; -o FILE: csv too.
pebs-import $TD/good/decode-basic.csv >$TMP/a.pebs &&
pebs-decode $TMP/a.pebs | head -2 &&
pebs-decode -o $TMP/out.csv $TMP/a.pebs && cmp $TMP/out.csv $TD/good/decode-basic.csv &&
echo "file same"
