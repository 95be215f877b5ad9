# The format is the first input's that opens: a missing first input is
# reported (3) and decides nothing.  It chose CSV, and the perf.data after
# it was refused as "not CSV as the first input, which chose the format".
cd $TMP || exit 9
pebs-gen -n 20 --seed 2 | pebs-decode -f perf >a.perf.data || exit 9
pebs-import missing.data a.perf.data -o x.pebs
echo "rc=$?"
pebs-decode --info x.pebs | grep -E '^  (source|samples):'
# a CSV after a missing one is CSV, as before
printf 'time\n7\n' | pebs-import missing.csv - | pebs-decode -f csv --fields time
# a directory opens but cannot be read: it decides nothing either
mkdir d
pebs-import d a.perf.data -o y.pebs
echo "rc=$?"
pebs-decode --info y.pebs | grep -E '^  (source|samples):'
