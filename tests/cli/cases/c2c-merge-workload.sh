# --merge of the YAML results of two built-in workload captures == the
# direct report of both captures, the instruction names included
# (workload_ips), in every output format; a result without the key (as
# earlier versions wrote) still merges, showing addresses.
pebs-capture --workload false-sharing -d 1 -o $TMP/a.pebs 2>/dev/null &&
pebs-capture --workload true-sharing -d 1 -o $TMP/b.pebs 2>/dev/null &&
pebs-c2c -f yaml -o $TMP/a.yaml $TMP/a.pebs &&
pebs-c2c -f yaml -o $TMP/b.yaml $TMP/b.pebs &&
echo "== workload_ips of a.yaml" &&
sed -n '/^workload_ips:/,/^totals:/p' $TMP/a.yaml &&
for f in text csv yaml html svg; do
	pebs-c2c -f $f $TMP/a.pebs $TMP/b.pebs > $TMP/whole.$f &&
	pebs-c2c --merge -f $f $TMP/a.yaml $TMP/b.yaml > $TMP/merged.$f &&
	cmp $TMP/whole.$f $TMP/merged.$f && echo "$f: merged == whole" || exit
done
echo "== merged text" &&
cat $TMP/merged.text &&
echo "== without workload_ips: addresses" &&
sed '/^workload_ips:/,/^totals:/{/^totals:/!d}' $TMP/a.yaml > $TMP/old.yaml &&
pebs-c2c --merge $TMP/old.yaml | grep -m2 '^    0x0'
