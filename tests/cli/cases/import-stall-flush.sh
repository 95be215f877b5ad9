# pebs-import of CSV from a pipe imports rows as they come and, when the
# pipe stalls, writes what it has: the writer below holds its pipe open
# (a live source) until the rows came out at the end, or a timeout (10 s)
# ends the wait.  Before, it parsed only once 64 KiB had come (fread),
# and held the samples as a partial block until the end of input.
pebs-gen -n 1000 --seed 1 | pebs-decode -f csv >$TMP/a.csv
mkfifo $TMP/done
live() {
	{ cat $TMP/a.csv; read x <$TMP/done; } | "$@" | pebs-decode -f csv |
		{ timeout 10 head -n 1001 | wc -l; echo >$TMP/done; }
}
live pebs-import
live pebs-import -f csv -
# a reader gone while the input stalls ends it quietly (0, not 124)
{ cat $TMP/a.csv; read x <$TMP/done; } |
	{ timeout 10 pebs-import | head -c 1 >/dev/null
	  echo "rc=${PIPESTATUS[0]}"; echo >$TMP/done; }
# and what is read from a pipe is what is read from the file
cat $TMP/a.csv | pebs-import | pebs-decode -f csv | cmp - $TMP/a.csv
# an input that cannot be read is still a read error (3)
pebs-import $TMP 2>&1 >/dev/null | sed "s|$TMP|\$TMP|"
echo "rc=${PIPESTATUS[0]}"
