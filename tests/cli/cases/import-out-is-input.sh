# -o naming an input is a usage error found before the output is opened:
# the input is left as it was.
cp $TD/good/decode-basic.csv $TMP/x.csv &&
cp $TMP/x.csv $TMP/keep.csv || exit 9
pebs-import $TMP/x.csv -o $TMP/x.csv 2>&1 | sed "s|$TMP|TMP|g"; echo "rc=$?"
ln $TMP/x.csv $TMP/hard.csv &&
pebs-import $TD/good/import-subset.csv $TMP/hard.csv -o $TMP/x.csv 2>&1 |
	sed "s|$TMP|TMP|g"; echo "rc=$?"
cmp $TMP/x.csv $TMP/keep.csv && echo "input kept"
# "-" is standard input, never the output file.
pebs-import -o $TMP/x.pebs - <$TMP/x.csv && pebs-decode $TMP/x.pebs | wc -l
