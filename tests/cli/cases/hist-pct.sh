# percentile table (nearest rank)
f=$TD/good/filter-hist-2k.pebs
pebs-hist -f csv --percentiles 50,90,99 $f
pebs-hist -f csv --by mem --percentiles 0,50,90,99,99.9,100 $f
pebs-hist -f csv --by snoop --percentiles 50 --where 'load' $f
pebs-hist -f csv --field ip --by cpu --percentiles 50 --where 'cpu < 3' $f
