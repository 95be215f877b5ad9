# Several dumps read as if concatenated, even when a record straddles two
# files; stdin works; -f pebs keeps the metadata and re-reads the same.
head -c 300 $TD/good/raw-skl-ldlat.bin > $TMP/a &&
tail -c 300 $TD/good/raw-skl-ldlat.bin > $TMP/b &&
pebs-decode --raw --uarch skl -f csv --fields time,ip,lat $TMP/a $TMP/b &&
cat $TMP/a $TMP/b | pebs-decode --raw --uarch skl -f csv --no-header \
	--fields time,ip,lat &&
pebs-decode --raw --uarch skl -f pebs -o $TMP/s.pebs $TD/good/raw-skl-ldlat.bin &&
pebs-decode -f csv --no-header --fields time,ip,lat,dsrc $TMP/s.pebs &&
pebs-decode --info $TMP/s.pebs | sed -n '/^metadata:/,/^summary:/p'
