# Damaged dumps: every complete record first, then the record index and
# offset of the damage, exit 1.
pebs-decode --raw --uarch skl -f csv --fields time,ip,lat \
	$TD/bad/raw-skl-truncated.bin; echo "rc=$?"
pebs-decode --raw --uarch icl -f csv --fields time,ip,lat \
	$TD/bad/raw-icl-badsize.bin; echo "rc=$?"
pebs-decode --raw --uarch icl -f csv --fields time,ip,lat \
	$TD/bad/raw-icl-zerosize.bin; echo "rc=$?"
# a fmt-3 dump read as adaptive is refused, not misread
pebs-decode --raw --uarch icl -f csv --fields time $TD/good/raw-skl-ldlat.bin
# standard input is named as the .pebs reader names it, not "-"
head -c 100 $TD/good/raw-skl-ldlat.bin |
	pebs-decode --raw --uarch skl -f csv --fields time -; echo "rc=$?"
