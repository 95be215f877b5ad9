# pebs-filter refuses a repeated --fields name for yaml and jsonl output,
# as pebs-decode does; csv and text keep repeats.
f=$TD/good/filter-hist-2k.pebs
pebs-filter -f csv --fields lat,lat 'lat > 400' $f | head -2
pebs-filter -f yaml --fields event,lat,event 'lat > 400' $f; echo "rc=$?"
pebs-filter --fields mem,mem -f jsonl 'lat > 400' $f; echo "rc=$?"
