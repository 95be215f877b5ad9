# --top N: the N groups with the most samples, most first (text, csv, svg);
# equal counts keep the key's order; yaml keeps every group (refused)
f=$PWD/$TD/good/filter-hist-2k.pebs
pebs-hist -f text --by mem --top 2 $f
pebs-hist -f csv --by mem --top 3 --percentiles 50,99 $f
pebs-hist -f csv --by cpu --top 1 --bins linear:200 $f
# every group, ordered by count: the same rows as without --top, sorted
pebs-hist -f csv --by mem --top 1000 --percentiles 50 $f >$TMP/top.csv
pebs-hist -f csv --by mem --percentiles 50 $f | tail -n +2 |
	sort -t, -k2,2nr -s | cmp - <(tail -n +2 $TMP/top.csv) &&
	echo "--top 1000 == every group by count"
pebs-hist -f svg --by ip --top 3 $f | grep -c '<polyline'
# with --merge: the merged result's largest groups
cd $TMP
pebs-filter 'cpu < 20' $f >a.pebs
pebs-filter 'cpu >= 20' $f >b.pebs
pebs-hist -f yaml --by ip a.pebs >a.yaml
pebs-hist -f yaml --by ip b.pebs >b.yaml
pebs-hist --merge -f csv --top 4 --percentiles 90 a.yaml b.yaml |
	cmp - <(pebs-hist -f csv --by ip --top 4 --percentiles 90 $f) &&
	echo "merge --top 4 == whole --top 4"
pebs-hist -f yaml --top 2 $f; echo "rc=$?"
pebs-hist --top 0 $f; echo "rc=$?"
pebs-hist --top many $f; echo "rc=$?"
