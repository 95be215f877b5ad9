# A block's chunk checksum is checked by --info (the integrity check) and
# before pebs-filter copies the chunk, although the block decodes from
# its column checksums: damage there is reported (exit 1) and not copied,
# and pebs-filter writes the block's samples (all 3000) encoded anew.
cd $TMP || exit 9
pebs-gen -n 3000 --block 1000 --seed 4 -o m.pebs || exit 9
off=$(grep -obUa BLCK m.pebs | sed -n 3p | cut -d: -f1)
[ -n "$off" ] || exit 9
cp m.pebs d.pebs
# the last byte of block 1's chunk checksum, just before block 2
printf '\xff' | dd of=d.pebs bs=1 seek=$((off - 1)) conv=notrunc 2>/dev/null
pebs-decode --fields time d.pebs | wc -l
pebs-decode --info d.pebs | grep -E '^  (samples|damaged_blocks):'
pebs-decode --info --salvage <d.pebs | grep -E '^  (samples|damaged_blocks):'
pebs-filter 'time >= 0' d.pebs -o f.pebs; echo "rc $?"
pebs-decode --fields time f.pebs | wc -l
