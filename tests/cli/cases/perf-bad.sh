# Not a perf.data at all (exit 1), a missing file (exit 3), an empty file
# (exit 1), an unknown input format (exit 2).
cd $TMP
printf 'time,cpu\n1,2\n' > x.csv
pebs-import -f perf x.csv -o x.pebs; echo "exit $?"
pebs-import -f perf nonexistent.data -o y.pebs; echo "exit $?"
: > empty.data
pebs-import -f perf empty.data -o z.pebs; echo "exit $?"
pebs-import -f perfdata x.csv -o x.pebs; echo "exit $?"
