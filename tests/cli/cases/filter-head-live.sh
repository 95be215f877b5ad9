# pebs-filter --head ends once it has its samples while its input goes
# on (a capture that runs on, here a writer that holds its pipe open
# until the filter is done, or a timeout of 10 s ends it: 124).  With
# several threads it waited for the end of input: a reader thread held
# the reader's lock while it waited for the pipe's next chunk, so the
# batch decoded before it was not delivered, and closing the reader
# waited for that lock too.
pebs-gen -n 1000 --seed 1 -o $TMP/a.pebs
mkfifo $TMP/done
for j in 1 2 4; do
	{ cat $TMP/a.pebs; read x <$TMP/done; } |
		{ timeout 10 pebs-filter -j$j --head 3 -f csv 'lat > 20'
		  echo "-j$j: rc=$?"; echo >$TMP/done; }
done
