# A live CSV source whose first rows are shorter than the 8 bytes of the
# perf.data magic ("lat\n5\n"): they are imported and written when it
# stalls, as any rows are.  The format probe waited for 8 bytes, so
# nothing came out until the source wrote more or ended (here the reader
# waits up to 10 s for both rows, then lets the writer go on: 124).
mkfifo $TMP/done
{ printf 'lat\n5\n'; read x <$TMP/done; printf '6\n'; } |
	pebs-import | pebs-decode -f csv --fields lat |
	{ timeout 10 head -n 2; echo "head: rc=$?"; echo >$TMP/done; cat; }
# the bytes so far can no longer be the magic: a short PERF... still waits
# for the rest, and is read as perf.data
{ printf 'PERF'; sleep 0.3; pebs-gen -n 10 | pebs-decode -f perf |
	tail -c +5; } | pebs-import | pebs-decode --info |
	grep -E '^  (source|samples):'
