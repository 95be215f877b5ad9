# pebs-decode --raw in a live pipeline: the records of a dump that came
# are decoded and written when the pipe stalls, not when 256 KiB more or
# the end of input come (fread(3) waited for either).  The writer below
# holds its pipe open until the rows came out, or a timeout (10 s) ends
# the wait: the count of rows that came out before the writer was done.
mkfifo $TMP/done
T=$TD/good/raw-skl-ldlat.bin
rows=$(pebs-decode --raw --uarch skl -f csv $T | wc -l)
echo "rows: $rows"
# $2: the lines to wait for
live() {
	{ cat $T; read x <$TMP/done; } | eval "$1" |
		{ timeout 10 head -n $2 | wc -l; echo >$TMP/done; }
}
live "pebs-decode --raw --uarch skl -f csv" $rows
live "pebs-decode --raw --uarch skl -f pebs | pebs-decode -f csv" $rows
live "pebs-decode --raw --uarch skl -f jsonl" $((rows - 1))
# a file, then standard input that has not started: the file's rows come
# out before the wait for standard input's first bytes
{ read x <$TMP/done; } | pebs-decode --raw --uarch skl -f csv $T - |
	{ timeout 10 head -n $rows | wc -l; echo >$TMP/done; }
