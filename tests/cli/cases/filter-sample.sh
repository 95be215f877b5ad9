# --sample 1/N is deterministic and a subset; --head stops early
f=$TD/good/filter-hist-2k.pebs
pebs-filter --count --sample 1/10 true $f
pebs-filter --count --sample 10 true $f
pebs-filter --count --sample 1/4 'lat > 100' $f
pebs-filter --count --head 7 'lat > 100' $f
pebs-filter --count --head 100000 'lat > 100' $f
pebs-filter --sample 1/4 'lat > 100' $f | pebs-filter --count 'lat <= 100'
# counts are decimal (or 0x hex) as in expressions: 010 is ten, not eight
pebs-filter --count --head 010 true $f
pebs-filter --count --head 0x10 true $f
