# A tool in the middle of a live pipeline gives out what it has read
# when its input stalls, not when more comes: the writer below holds its
# pipe open (a capture that runs on) until what it wrote came out at the
# end, or a timeout (10 s) ends the wait.  Before, pebs-decode -f csv held the
# last rows in its stdio buffer and the .pebs outputs (pebs-filter,
# pebs-decode -f pebs) their pending samples, all until the end of input;
# with threads, a decoded batch also waited while a reader thread waited
# for the pipe's next chunk, and -f yaml the rows libyaml's emitter held.
pebs-gen -n 1000 --seed 1 -o $TMP/a.pebs
n=$(pebs-filter -c 'lat > 20' $TMP/a.pebs)
mkfifo $TMP/done
# $1: the pipeline's stages after the writer; prints the rows that came
# out before the writer was done (all of them: the count, plus header)
live() {
	{ cat $TMP/a.pebs; read x <$TMP/done; } | eval "$1" |
		{ timeout 10 head -n $2 | wc -l; echo >$TMP/done; }
}
for j in 1 2; do
	echo "-j$j:"
	live "pebs-decode -j$j -f csv" 1001
	live "pebs-filter -j$j -f csv 'lat > 20'" $((n + 1))
	live "pebs-filter -j$j 'lat > 20' | pebs-decode -j$j -f csv" $((n + 1))
	live "pebs-decode -j$j -f pebs | pebs-decode -j$j -f csv" 1001
	live "pebs-decode -j$j -f jsonl" 1000
	# all but the document's end (libyaml's emitter kept the last rows)
	live "pebs-decode -j$j -f yaml" $(( $(pebs-decode -f yaml $TMP/a.pebs |
					      wc -l) - 1 ))
done
# and while the input stalls, a reader downstream that is gone ends the
# tool quietly (0), not the end of input or the timeout (124)
gone() {
	{ cat $TMP/a.pebs; read x <$TMP/done; } |
		{ timeout 10 "$@" | head -c 1 >/dev/null
		  echo "${PIPESTATUS[0]}"; echo >$TMP/done; }
}
for j in 1 2; do
	echo "gone -j$j:" $(gone pebs-filter -j$j 'lat > 20') \
		$(gone pebs-decode -j$j -f pebs) $(gone pebs-decode -j$j -f csv)
done
