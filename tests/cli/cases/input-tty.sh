# Standard input on a terminal (a pty from script(1), util-linux): the
# readers of binary .pebs data (and of raw dumps, and pebs-import -f perf)
# refuse it at once with a usage hint, exit 2, instead of waiting
# silently; text (CSV to pebs-import, YAML results to --merge) can be
# pasted, so it is read, after a line saying so.  The pty echoes what is
# typed: those lines are dropped.
cd $TMP || exit 9
script -qec "pebs-decode; echo rc=\$?
	pebs-decode -; echo rc=\$?
	pebs-c2c; echo rc=\$?
	pebs-hist; echo rc=\$?
	pebs-filter 'lat > 0' -f csv; echo rc=\$?
	pebs-decode --raw --uarch skl; echo rc=\$?
	pebs-import -f perf -o x.pebs; echo rc=\$?" /dev/null </dev/null |
	tr -d '\r'
# typed a second after the start, so that the pty's echo of it cannot
# come between pebs-import's note and the output
{ sleep 1; printf 'time,cpu\n1,2\n\004'; sleep 2; } |
	script -qec "pebs-import | pebs-decode -f csv; echo rc=\$?" /dev/null |
	tr -d '\r' | grep -vx -e 'time,cpu' -e '1,2'
# pebs-hist --merge reads a result typed or pasted on the terminal, as
# pebs-c2c --merge does (pebs-hist(1), --merge)
pebs-gen -n 100 --seed 1 -o a.pebs && pebs-hist -f yaml a.pebs >a.yaml &&
	pebs-hist --merge -f csv a.yaml >want.csv || exit 9
{ sleep 1; cat a.yaml; printf '\004'; sleep 2; } |
	script -qec "pebs-hist --merge -f csv >got.csv; echo rc=\$?" /dev/null |
	tr -d '\r' | grep -e '^pebs-hist' -e '^rc='
cmp got.csv want.csv && echo "pebs-hist --merge: the typed result read"
