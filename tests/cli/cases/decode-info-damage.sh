# --info checks every column's checksum, not only those it summarizes: a
# damaged column is a damaged block, as when decoding (exit 1; --salvage
# counts it and goes on, from a file or a pipe).
cd $TMP || exit 9
pebs-gen -n 20000 --block 1000 --seed 3 -o m.pebs &&
cp m.pebs d.pebs &&
printf XXXX | dd of=d.pebs bs=1 seek=30000 conv=notrunc 2>/dev/null &&
printf XXXX | dd of=d.pebs bs=1 seek=100000 conv=notrunc 2>/dev/null || exit 9
info() { grep -E '^  (samples|blocks|damaged_blocks):'; }
pebs-decode --info m.pebs | info; echo "rc ${PIPESTATUS[0]}"
pebs-decode --info d.pebs | info; echo "rc ${PIPESTATUS[0]}"
pebs-decode --info --salvage d.pebs | info; echo "rc ${PIPESTATUS[0]}"
pebs-decode --info --salvage < d.pebs | info; echo "rc ${PIPESTATUS[0]}"
pebs-decode --salvage d.pebs | wc -l
