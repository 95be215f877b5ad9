# --count counts a block that matches whole from its directory, unread:
# only after the block's head checksum is verified.  A byte damaged in the
# head of block 1 ends the input there, as when the samples are written
# (100 samples, exit 1), instead of counting block 1 too.
cd $TMP || exit 9
pebs-gen -n 300 --block 100 --seed 2 -o hb.pebs || exit 9
off=$(grep -obUa BLCK hb.pebs | sed -n 2p | cut -d: -f1)
[ -n "$off" ] || exit 9
printf '\xff' | dd of=hb.pebs bs=1 seek=$((off + 40)) conv=notrunc 2>/dev/null
pebs-filter --count 'lat >= 0' hb.pebs; echo "rc=$?"
pebs-filter 'lat >= 0' -f csv --no-header hb.pebs | wc -l
pebs-filter --count --salvage 'lat >= 0' hb.pebs
