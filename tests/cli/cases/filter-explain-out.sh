# --explain writes to -o like every other output, and a long program whole
pebs-filter --explain -o $TMP/ex.txt 'lat > 1'; echo "rc=$?"
cat $TMP/ex.txt
e=$(awk 'BEGIN { for (i = 0; i < 600; i++)
	printf "%slat == %d", i ? " or " : "", i * 7 }')
pebs-filter --explain "$e" >$TMP/long.txt; echo "rc=$?"
# every one of the 600 values is there, and the line is closed
grep -o 'lat in' $TMP/long.txt | wc -l
wc -c <$TMP/long.txt
tail -c 30 $TMP/long.txt
