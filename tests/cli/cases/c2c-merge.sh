# --merge of the YAML results of two parts == the result of the whole,
# in every output format; concatenated results merge too.
head -90 $TD/good/c2c-sharing.csv > $TMP/a.csv &&
{ head -1 $TD/good/c2c-sharing.csv; tail -n +91 $TD/good/c2c-sharing.csv; } \
	> $TMP/b.csv &&
pebs-import -f csv $TMP/a.csv | pebs-c2c -f yaml -o $TMP/a.yaml &&
pebs-import -f csv $TMP/b.csv | pebs-c2c -f yaml -o $TMP/b.yaml &&
pebs-import -f csv $TD/good/c2c-sharing.csv -o $TMP/all.pebs &&
for f in text csv html; do
	pebs-c2c -f $f $TMP/all.pebs > $TMP/whole.$f &&
	pebs-c2c --merge -f $f $TMP/a.yaml $TMP/b.yaml > $TMP/merged.$f &&
	cmp $TMP/whole.$f $TMP/merged.$f && echo "$f: merged == whole" || exit
done
cat $TMP/b.yaml $TMP/a.yaml | pebs-c2c --merge -f csv | cmp - $TMP/whole.csv &&
echo "concatenated: merged == whole"
pebs-c2c --merge -f yaml $TMP/a.yaml $TMP/b.yaml | sed '/^cells:/q' > $TMP/m.yaml &&
pebs-c2c -f yaml $TMP/all.pebs | sed '/^cells:/q' | cmp - $TMP/m.yaml &&
echo "yaml report part: merged == whole"
