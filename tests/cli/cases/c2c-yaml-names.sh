# The YAML names the store counters as the CSV does (stores_l1hit,
# stores_l1miss, stores_na) and gives tot_stores with tot_recs and
# tot_loads; results written with the old names (st_l1hit, ...) and no
# tot_stores merge to the same report, since --merge reads only samples.
pebs-gen -n 20000 --seed 3 -o $TMP/g.pebs &&
pebs-c2c -f yaml --top 1 $TMP/g.pebs >$TMP/new.yaml &&
grep -E '^ *(tot_recs|tot_loads|tot_stores|stores_l1hit|stores_l1miss|stores_na):' $TMP/new.yaml &&
grep -m1 -o 'tot_recs: [0-9]*, tot_loads: [0-9]*, tot_stores: [0-9]*' $TMP/new.yaml &&
echo "st_ keys left: $(grep -cE '\bst_(l1hit|l1miss|na)\b' $TMP/new.yaml)"
sed -E -e 's/\bstores_(l1hit|l1miss|na)\b/st_\1/g' -e '/^    tot_stores:/d' \
	-e 's/, tot_stores: [0-9]+//' $TMP/new.yaml >$TMP/old.yaml
pebs-c2c --merge -f csv $TMP/new.yaml >$TMP/a.csv &&
pebs-c2c --merge -f csv $TMP/old.yaml >$TMP/b.csv &&
pebs-c2c -f csv $TMP/g.pebs | cmp - $TMP/a.csv && cmp $TMP/a.csv $TMP/b.csv &&
echo "old and new names merge to the report of the samples"
