# A pipe that stalls inside a block: the batches decoded before it come
# out while the reader waits for the rest.  With threads, the caller's
# thread may be the one reading the block the pipe stalls in; before, it
# then held the batches a worker had decoded (and itself delivers) until
# the writer wrote again.  Now it gives the block's bytes back after a
# short wait and delivers; a worker reads on.  The writer below holds
# its pipe open until what came before the cut came out at the end, or a
# timeout (10 s) ends the wait; several cuts and thread counts, since
# which thread reads the cut block depends on timing.
pebs-gen -n 400000 --seed 1 -o $TMP/a.pebs
mkfifo $TMP/done
# $1: what the writer writes before it waits; $2: threads; $3: rows due;
# more arguments: inputs after the pipe's.  Prints the rows not out yet.
late() {
	local got
	got=$({ eval "$1"; read x <$TMP/done; } |
		pebs-filter -j$2 -f csv 'lat > 500' "${@:4}" 2>/dev/null |
		{ timeout 10 head -n $3 | wc -l; echo >$TMP/done; })
	echo $(($3 - got))
}
for cut in 1200000 2500000 2900000; do
	n=$(head -c $cut $TMP/a.pebs | pebs-filter -f csv 'lat > 500' 2>/dev/null |
	    wc -l)
	for j in 2 3 4; do
		echo "cut $cut -j$j: $(late "head -c $cut $TMP/a.pebs" $j $n) rows late"
	done
done
# The same where the pipe stalls after a segment's end, in its trailing
# chunks (index, tail) or before the next input (standard input named
# after a file): the reads there gave up too late (never), and the last
# batches waited.  Small blocks, so that many are decoded ahead.
pebs-gen --block 4096 -n 400000 --seed 2 -o $TMP/s.pebs
size=$(wc -c <$TMP/s.pebs)
n=$(pebs-filter -f csv 'lat > 500' $TMP/s.pebs | wc -l)
for cut in $size $((size - 300)) $((size - 10)); do
	for j in 2 3 4; do
		echo "end-$((size - cut)) -j$j:" \
		     "$(late "head -c $cut $TMP/s.pebs" $j $n) rows late"
	done
done
for j in 2 3 4; do
	echo "file, then stdin -j$j: $(late : $j $n $TMP/s.pebs -) rows late"
done
