# csv bins (default log2), linear and explicit edges
f=$TD/good/filter-hist-2k.pebs
pebs-hist $f
pebs-hist -f csv --by op --bins linear:100 $f
pebs-hist -f csv --by mem --bins 0,10,50,100,1000 $f
pebs-hist -f csv --field addr --by event $f
# group names are quoted as pebs-decode quotes fields: a comma, a quote, or
# a space at an edge (which readers that trim unquoted fields would lose)
printf 'time,event,lat\n1," sp",7\n2,"a,b",3\n3,x,1\n' | pebs-import |
	pebs-hist --by event -f csv
