# A file cut short: every complete block, then the damage, exit 1.
cd $TMP || exit 9
awk 'BEGIN { print "time,cpu,lat"; for (i = 0; i < 140000; i++)
	printf "%d,%d,%d\n", i, (i * 7919) % 61, (i * 104729) % 977 }' >big.csv &&
pebs-import big.csv >big.pebs || exit 9
off=$(grep -obUa BLCK big.pebs | sed -n 3p | cut -d: -f1)
head -c $((off + 50)) big.pebs >cut.pebs
pebs-decode --fields time cut.pebs >cut.csv
echo "rc=$?"
wc -l <cut.csv
tail -1 cut.csv
