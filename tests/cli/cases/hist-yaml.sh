# complete yaml: stats, bins and the exact value counts
f=$TD/good/filter-hist-2k.pebs
pebs-hist -f yaml --by snoop --where 'lat > 450' $f
pebs-hist -f yaml --where false $f
