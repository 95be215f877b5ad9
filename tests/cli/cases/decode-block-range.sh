# A value outside its column's directory range is damage (format section 6).
# testdata/bad/block-minmax-lie.pebs is one checksum-valid block of 10
# samples whose directory gives lat (FOR, width 2, stored) a maximum of 100
# while one stored value is 500.  Decoding lat reports the block (exit 1),
# with or without salvage; time alone still reads.  A count the directory
# decides alone (lat <= 100 matches the whole block by its maximum) decodes
# nothing and cannot notice: readers may skip and count from the directory.
f=$TD/bad/block-minmax-lie.pebs
pebs-decode -f csv --fields lat $f; echo "rc=$?"
pebs-decode -f csv --fields time $f | wc -l; echo "rc=$?"
pebs-filter -f csv --no-header --fields lat 'lat <= 100' $f; echo "rc=$?"
pebs-filter -c 'lat > 50' $f; echo "rc=$?"
pebs-filter -c 'lat <= 100' $f; echo "rc=$?"
pebs-decode --salvage -f csv --fields time,lat $f; echo "rc=$?"
