# pebs-decode -f perf in a live pipeline (pipe mode) hands on what it
# wrote when its input stalls, as the other formats do: the writer below
# holds its pipe open until as many bytes as the whole conversion has came
# out, or a timeout (10 s; exit 124) ends the wait.  Before, the last
# records waited in the writer's buffer and stdio's until the end of
# input.  Two FINISHED_ROUNDs go out with them (16 bytes), so that perf
# processes every sample written so far; the stream stays one that
# perf.data readers take whole.
pebs-gen -n 1000 --seed 1 -o $TMP/a.pebs
mkfifo $TMP/done
whole=$(pebs-decode -f perf $TMP/a.pebs | wc -c)
pebs-decode -f perf $TMP/a.pebs | pebs-import -f perf | pebs-decode -f csv \
	>$TMP/whole.csv
for j in 1 2; do
	{ cat $TMP/a.pebs; read x <$TMP/done; } | pebs-decode -j$j -f perf |
		{ timeout 10 head -c $whole >$TMP/live.data; echo "-j$j: rc $?"
		  echo >$TMP/done; cat >>$TMP/live.data; }
	echo "extra bytes: $(( $(wc -c <$TMP/live.data) - whole ))"
	pebs-import -f perf $TMP/live.data | pebs-decode -f csv |
		cmp - $TMP/whole.csv && echo "same samples"
done
