# A FIFO named as a later input, whose writer never comes, does not keep
# a tool that is done (--head) from ending: a reader thread opening it
# waited in open(2) with the reader's lock held, and closing the reader
# waited for it (hung).  FIFOs are now opened without blocking and
# waited for polled.  Five runs: whether a thread reached the FIFO
# before the end depended on timing.
pebs-gen -n 1000 --seed 1 -o $TMP/a.pebs
mkfifo $TMP/ff
for i in 1 2 3 4 5; do
	timeout 5 pebs-filter -j2 --head 3 -f csv 'lat > 0' $TMP/a.pebs $TMP/ff |
		wc -l
done
# the FIFO is still read once its writer comes, with one thread or two
for j in 1 2; do
	{ sleep 0.3; cat $TMP/a.pebs >$TMP/ff; } &
	pebs-filter -j$j -c 'lat > 0' $TMP/ff $TMP/a.pebs
	wait
done
