# Every usage error pebs-import(1) EXIT STATUS lists is exit 2, before
# anything is written (the list missed --meta with perf.data input, -f
# perf from a terminal and -o naming an input); a pty from script(1).
cd $TMP || exit 9
cp $OLDPWD/$TD/perf/skx-load-latency.perf.data p.data || exit 9
printf 'time\n1\n' >a.csv
pebs-import --bogus a.csv >/dev/null 2>&1; echo "option rc=$?"
pebs-import -f xml a.csv >/dev/null; echo "format rc=$?"
pebs-import --level 99 a.csv >/dev/null; echo "level rc=$?"
pebs-import --meta nokey a.csv >/dev/null; echo "meta rc=$?"
pebs-import --meta a=b p.data >/dev/null; echo "meta, perf found rc=$?"
pebs-import -f perf --meta a=b p.data >/dev/null; echo "meta, -f perf rc=$?"
pebs-import -o a.csv a.csv; echo "-o input rc=$?"
script -qec "pebs-import a.csv; echo stdout rc=\$?
	pebs-import -o /dev/tty a.csv; echo /dev/tty rc=\$?
	pebs-import -f perf -o x.pebs; echo stdin rc=\$?" /dev/null </dev/null |
	tr -d '\r'
ls
