# The progress line of the tools that write many samples: pebs-gen (of
# the samples asked for) and pebs-import (CSV and perf.data; bytes of the
# inputs, with a percentage for regular files), on a terminal only (a pty
# from script(1)), from the first batch on here (PEBS_PROGRESS_AFTER=0),
# cleared at the end; the file written is the same as off a terminal.
# Numbers are masked; a slow machine may show more lines (uniq).
mask() {
	cat -v | sed -E 's/\^M/\n/g; s/[0-9]+(\.[0-9]+)?([M ]|%)/N\2/g' |
		grep . | uniq
}
script -qec "PEBS_PROGRESS_AFTER=0 pebs-gen -n 70000 --seed 1 -o $TMP/a.pebs" \
	/dev/null | mask
pebs-gen -n 70000 --seed 1 -o $TMP/b.pebs 2> $TMP/err
cmp -s $TMP/a.pebs $TMP/b.pebs && echo "same file"
test -s $TMP/err && echo "stderr not empty off a terminal"
pebs-decode -f csv $TMP/a.pebs > $TMP/a.csv || exit 9
pebs-decode -f perf -o $TMP/a.perf.data $TMP/a.pebs || exit 9
# CSV: a file has a size, standard input none (samples only); a clock
# read every 65536 rows
script -qec "PEBS_PROGRESS_AFTER=0 pebs-import -o $TMP/c.pebs $TMP/a.csv" \
	/dev/null | mask
pebs-decode -f csv $TMP/c.pebs | cmp -s - $TMP/a.csv && echo "same samples"
script -qec "PEBS_PROGRESS_AFTER=0 pebs-import -o $TMP/d.pebs < $TMP/a.csv" \
	/dev/null | mask
# perf.data: after its scan, as the records are passed
script -qec "PEBS_PROGRESS_AFTER=0 pebs-import -o $TMP/p.pebs $TMP/a.perf.data" \
	/dev/null | mask
pebs-import -o $TMP/q.pebs $TMP/a.perf.data 2> $TMP/err
pebs-decode -f csv $TMP/p.pebs > $TMP/p.csv
pebs-decode -f csv $TMP/q.pebs | cmp -s - $TMP/p.csv && echo "same samples"
test -s $TMP/err && echo "stderr not empty off a terminal"
script -qec "PEBS_PROGRESS=0 PEBS_PROGRESS_AFTER=0 pebs-gen -n 70000 -o $TMP/e.pebs" \
	/dev/null | cat -v
echo "end"
