# A line's own counters take the samples that are neither load nor store
# with a LOCK or BLK bit at an address on it, as perf files every sample
# under the line of its address (nr_entries, locks, blk_data, blk_addr,
# noparse), shared or not, as --stats' shared-line table does; its
# records, loads, stores and verdict stay the loads' and stores'.  The
# same in CSV, YAML and after --merge.  0x7f0000001000: 1 HITM load + 3
# locked; 0x7f0000002000: 1 peer load + 2 blocked; 0x7f0000003000: 2 L1
# loads + 5 locked.  With --perf-compat line 0 takes the samples without
# an address besides (see c2c-perf-compat-line0).
keys='^  - dcacheline|^    (nr_entries|locks|blk_data|blk_addr|noparse):'
pebs-import -f csv -o $TMP/s.pebs $TD/good/c2c-shared.csv &&
for m in "" --perf-compat; do
	echo "== ${m:-default}"
	pebs-c2c $m --show-all -f csv $TMP/s.pebs | cut -d, -f1,5,6,15,23 &&
	pebs-c2c $m --show-all -f yaml $TMP/s.pebs > $TMP/r.yaml &&
	grep -E "$keys" $TMP/r.yaml > $TMP/direct &&
	cat $TMP/direct &&
	pebs-c2c $m --show-all --merge -f yaml $TMP/r.yaml | grep -E "$keys" |
		diff $TMP/direct - && echo "merged: same"
done
