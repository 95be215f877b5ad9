# --merge of parts is exactly the histogram of the whole
f=$PWD/$TD/good/filter-hist-2k.pebs
cd $TMP
pebs-filter 'cpu < 20' $f >a.pebs
pebs-filter 'cpu >= 20' $f >b.pebs
for by in none mem event cpu line; do
	pebs-hist -f yaml --by $by a.pebs >a.yaml
	pebs-hist -f yaml --by $by b.pebs >b.yaml
	pebs-hist -f yaml --by $by $f >whole.yaml
	pebs-hist --merge -f yaml a.yaml b.yaml | cmp - whole.yaml && echo "by $by: merge == whole"
	cat a.yaml b.yaml | pebs-hist --merge -f yaml | cmp - whole.yaml && echo "by $by: merge of a concatenation == whole"
done
pebs-hist -f yaml --by cpu a.pebs >a.yaml
pebs-hist -f yaml --by cpu b.pebs >b.yaml
pebs-hist --merge -f csv --percentiles 50,90,99 a.yaml b.yaml
pebs-hist --merge -f csv --bins linear:200 a.yaml b.yaml | head -5
pebs-hist -f yaml --by mem a.pebs >m.yaml
pebs-hist --merge m.yaml b.yaml; echo "rc=$?"	# a usage error: nothing written
echo 'not: [yaml' | pebs-hist --merge; echo "rc=$?"
# --by with --merge can only repeat the inputs' grouping
pebs-hist -f yaml $f > n.yaml
pebs-hist --merge --by mem n.yaml; echo "rc=$?"
pebs-hist --merge --by none n.yaml | head -2
