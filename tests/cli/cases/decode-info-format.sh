# --info names the format version of the segments read (a 1.0 file from
# testdata followed by one written now) and where the bytes go, per
# column, largest first; the sizes follow zstd and are left out.
td=$PWD/$TD; cd $TMP || exit 9
pebs-import $td/good/decode-basic.csv >new.pebs || exit 9
pebs-decode --info new.pebs | grep -E "^  format:"
cat $td/good/filter-hist-2k.pebs new.pebs | pebs-decode --info |
	awk '/^  format:/ { print } /^  columns:/ { c = 1; next }
	     c && /^  [a-z]/ { c = 0 } c && /^  - name:/ { print }'
pebs-decode --info $td/good/filter-hist-2k.pebs | awk '
	/^  bytes:/ { file = $2 }
	/^    bytes:/ { sum += $2 }
	END { if (sum > 0 && sum < file) print "columns fit in the file"
	      else print "columns do not add up" }'
