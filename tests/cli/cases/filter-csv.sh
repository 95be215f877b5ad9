# text outputs through the shared output formats
f=$TD/good/filter-hist-2k.pebs
pebs-filter -f csv --head 5 'dram and lat > 350' $f
pebs-filter -f csv --fields time,cpu,lat,mem,snoop --head 3 hitm $f
pebs-filter -f jsonl --fields lat,mem --head 2 'remote' $f
pebs-filter -f csv --no-header --fields lat --head 3 'lat in (500..510, 600)' $f
pebs-filter -f csv --fields lat 'false' $f
