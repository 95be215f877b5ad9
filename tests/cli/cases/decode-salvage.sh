# A damaged middle block: without --salvage the file ends there (after the
# blocks before it); with it the later blocks are still read.  Exit 1.
td=$PWD/$TD; cd $TMP || exit 9
awk 'BEGIN { print "time,cpu,lat"; for (i = 0; i < 140000; i++)
	printf "%d,%d,%d\n", i, (i * 7919) % 61, (i * 104729) % 977 }' >big.csv &&
pebs-import big.csv >big.pebs || exit 9
# offset of the second block chunk ("BLCK" tag), and a byte inside it
off=$(grep -obUa BLCK big.pebs | sed -n 2p | cut -d: -f1)
[ -n "$off" ] || exit 9
cp big.pebs bad.pebs
printf '\xff' | dd of=bad.pebs bs=1 seek=$((off + 100)) conv=notrunc 2>/dev/null
pebs-decode --fields time bad.pebs | wc -l
pebs-decode --salvage --fields time bad.pebs | wc -l
pebs-decode --salvage --fields time bad.pebs >/dev/null 2>&1; echo "rc=$?"
pebs-decode --salvage --info bad.pebs 2>/dev/null |
	grep -E '^  (samples|blocks|damaged_blocks):'
