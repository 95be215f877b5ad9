# A KEYED column keyed on a column id this reader does not know (a newer
# writer's, format section 6) fails alone, and only when asked for: the
# other columns of the block read.  testdata/bad/block-key-unknown-id.pebs
# is one checksum-valid block of 10 samples: time, tid, lat, and cpu
# KEYED on column 40.
f=$TD/bad/block-key-unknown-id.pebs
pebs-decode -f csv --fields time,tid,lat $f; echo "rc=$?"
pebs-decode -f csv --fields time,cpu $f; echo "rc=$?"
pebs-filter -c 'lat > 5' $f; echo "rc=$?"
pebs-filter -c 'cpu > 5' $f; echo "rc=$?"
