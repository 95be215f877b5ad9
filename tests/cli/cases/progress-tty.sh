# The progress line of the .pebs readers: on a terminal only (a pty from
# script(1)), here from the first batch on (PEBS_PROGRESS_AFTER=0; the
# tools wait a second), cleared at the end; none with PEBS_PROGRESS=0 or
# when stderr is not a terminal.  Numbers are masked: sizes follow the
# encoder.
pebs-gen -n 3000 --seed 1 -o $TMP/a.pebs || exit 9
for t in "pebs-decode -f csv" "pebs-filter --count load" "pebs-hist -f csv" \
	 "pebs-c2c -f csv"; do
	script -qec "PEBS_PROGRESS_AFTER=0 $t $TMP/a.pebs > $TMP/out" \
		/dev/null | cat -v | sed -E 's/[0-9]+(\.[0-9]+)?([M ]|%)/N\2/g'
	echo
	$t $TMP/a.pebs > $TMP/plain 2> $TMP/err
	cmp -s $TMP/out $TMP/plain && echo "same output" || echo "output differs"
	test -s $TMP/err && echo "stderr not empty off a terminal"
done
# Standard input: no total, so no percentage.
script -qec "PEBS_PROGRESS_AFTER=0 pebs-hist -f csv < $TMP/a.pebs > /dev/null" \
	/dev/null | cat -v | sed -E 's/[0-9]+(\.[0-9]+)?([M ]|%)/N\2/g'
echo
script -qec "PEBS_PROGRESS=0 PEBS_PROGRESS_AFTER=0 pebs-hist -f csv $TMP/a.pebs > /dev/null" \
	/dev/null | cat -v
echo "end"
# Output streaming to the same terminal: no line to garble it.
script -qec "PEBS_PROGRESS_AFTER=0 pebs-decode -f csv --fields cpu $TMP/a.pebs" \
	/dev/null | grep -c 'pebs-decode:'
# A report or a count, written at the end after the line is cleared,
# does not turn it off (pebs-hist(1), pebs-c2c(1), pebs-filter(1)).
for t in "pebs-hist -f csv" "pebs-c2c -f csv" "pebs-filter --count load"; do
	script -qec "PEBS_PROGRESS_AFTER=0 $t $TMP/a.pebs" /dev/null |
		grep -c "${t%% *}: .* samples"
done
