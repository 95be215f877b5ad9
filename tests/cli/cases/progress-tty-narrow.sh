# The progress line fits one row of the terminal (cut short of the last
# column: a wrapped line leaves a row behind at each update), for the
# readers and the writers (pebs-capture: capture-progress-tty); TERM=dumb cannot erase a line,
# so none is drawn there.  Prints each line's length, not its text.
pebs-gen -n 3000 --seed 1 -o $TMP/a.pebs || exit 9
lens() {	# of each line drawn: between a return and its erase to the end
	cat -v | grep -o '\^M[^^]*\^\[\[K' | awk 'length($0) > 6 { print length($0) - 6 }' |
		sort -u | tr '\n' ' '
	echo
}
for t in "pebs-decode -f csv $TMP/a.pebs" "pebs-gen -n 70000 -o $TMP/b.pebs"; do
	script -qec "stty cols 24; PEBS_PROGRESS_AFTER=0 $t > /dev/null" \
		/dev/null | lens
done
script -qec "stty cols 200; PEBS_PROGRESS_AFTER=0 pebs-gen -n 70000 -o $TMP/b.pebs" \
	/dev/null | lens
script -qec "TERM=dumb PEBS_PROGRESS_AFTER=0 pebs-decode -f csv $TMP/a.pebs > /dev/null" \
	/dev/null | cat -v
echo "end"
