# usage errors exit 2, a write error 3
f=$TD/good/filter-hist-2k.pebs
pebs-hist --field mem $f; echo "rc=$?"
pebs-hist --field latt $f; echo "rc=$?"
pebs-hist --by memm $f; echo "rc=$?"
pebs-hist --field weight $f; echo "rc=$?"
pebs-hist --by dcacheline $f; echo "rc=$?"
pebs-hist --by mem,snoop $f; echo "rc=$?"
pebs-hist --bins 10,5 $f; echo "rc=$?"
pebs-hist --bins 5,5 $f; echo "rc=$?"
pebs-hist --bins linear:0 $f; echo "rc=$?"
pebs-hist --percentiles 50,101 $f; echo "rc=$?"
# past the limits: a message naming the limit (it was "bad list ... of
# at most 19 digits", or "bad spec"); at the limits: accepted
pebs-hist --percentiles $(seq -s, 0 64) $f; echo "rc=$?"
pebs-hist -f csv --percentiles $(seq -s, 1 64) $f | head -1 | cut -c1-32
pebs-hist --bins $(seq -s, 1 1025) $f; echo "rc=$?"
pebs-hist --bins edges:$(seq -s, 1 1025) $f; echo "rc=$?"
pebs-hist -f csv --bins $(seq -s, 1 1024) $f | tail -1
# a repeated percentile would write duplicate keys (p50 twice)
pebs-hist -f yaml --percentiles 50,90,50 $f; echo "rc=$?"
pebs-hist -f csv --percentiles 50,50.0 $f; echo "rc=$?"
pebs-hist -f png $f; echo "rc=$?"
pebs-hist --where 'lat >' $f; echo "rc=$?"
# a full disk exits 3; with many groups, some dense (nothing may leak)
pebs-hist -f csv --by line -o /dev/full $f; echo "rc=$?"
pebs-hist --help | head -1
pebs-hist --version
# the help's "edges E0,E1,..." also written edges:E0,...: the same bins
cmp <(pebs-hist -f csv --bins edges:0,10,100 $f) \
    <(pebs-hist -f csv --bins 0,10,100 $f) && echo "edges: same"
pebs-hist --bins edges:10,5 $f; echo "rc=$?"
pebs-hist --help | grep -A1 '^  --bins SPEC'
# svg plots log2 bins and no percentiles: asking for others is refused,
# as --top with yaml is (they were ignored, exit 0); log2 is what it plots
pebs-hist -f svg --bins linear:100 $f; echo "rc=$?"
pebs-hist -f svg --percentiles 50 $f; echo "rc=$?"
pebs-hist -f svg --bins log2 $f | grep -c '<polyline'
