# -o - is standard output in every tool, as the man pages now say (it
# was so, undocumented): the output is the one without -o, and no file
# named "-" is made.
f=$PWD/$TD/good/filter-hist-2k.pebs
cd $TMP || exit 9
for t in "pebs-decode" "pebs-filter lat>0" "pebs-hist" "pebs-c2c" \
	 "pebs-decode --info"; do
	$t -o - $f | cmp - <($t $f) && echo "$t: same"
done
pebs-decode $f > a.csv
pebs-import -o - a.csv | pebs-decode | cmp - a.csv && echo "pebs-import: same"
pebs-gen -n 100 -o - | cmp - <(pebs-gen -n 100) && echo "pebs-gen: same"
pebs-capture --plan --uarch skx -e load-latency -o - |
	cmp - <(pebs-capture --plan --uarch skx -e load-latency) &&
	echo "pebs-capture --plan: same"
pebs-capture --workload false-sharing --accesses 20k -o - 2>/dev/null |
	pebs-decode | cmp - <(pebs-capture --workload false-sharing \
	--accesses 20k 2>/dev/null | pebs-decode) && echo "pebs-capture: same"
ls
