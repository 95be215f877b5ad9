# csv bins (default log2), linear and explicit edges
f=$TD/good/filter-hist-2k.pebs
pebs-hist $f
pebs-hist -f csv --by op --bins linear:100 $f
pebs-hist -f csv --by mem --bins 0,10,50,100,1000 $f
pebs-hist -f csv --field addr --by event $f
