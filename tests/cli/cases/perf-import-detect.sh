# Without -f a perf.data file is recognised by its magic and imported as
# with -f perf (same samples); CSV stays the default.  Standard input and
# pipes are looked at too (perf record -o - | pebs-import), the bytes
# looked at read again.  Only an explicit -f csv reads perf.data as CSV,
# refused with a hint, exit 1; so is perf.data after a CSV input.
cd $TMP
f=$OLDPWD/$TD/perf/skx-load-latency.perf.data
pebs-import "$f" -o auto.pebs; echo "exit $?"
pebs-import -f perf "$f" -o perf.pebs; echo "exit $?"
pebs-decode auto.pebs >auto.csv && pebs-decode perf.pebs >perf.csv &&
	cmp auto.csv perf.csv && wc -l <auto.csv
pebs-decode --info auto.pebs | grep -E '^  source:'
printf 'time,cpu\n1,2\n' >x.csv
pebs-import x.csv | pebs-decode; echo "exit $?"
pebs-import <"$f" >redir.pebs; echo "exit $?"
cat "$f" | pebs-import >pipe.pebs; echo "exit $?"
pebs-import <(cat "$f") >fifo.pebs; echo "exit $?"
for p in redir pipe fifo; do
	pebs-decode $p.pebs | cmp - auto.csv && echo "$p: same samples"
done
pebs-import <"$f" -f csv >/dev/null; echo "exit $?"
cp "$f" p.data
pebs-import x.csv p.data >/dev/null; echo "exit $?"
# the hint says how the format was chosen: -f csv, or the first input
# (it named a -f csv never given); a later input is looked at as the
# first is, through a pipe too, and a CSV one read whole
cat "$f" | pebs-import x.csv - >/dev/null; echo "exit $?"
printf 'time,cpu\n3,4\n' | pebs-import x.csv - | pebs-decode -f csv --fields time,cpu
pebs-import -f csv x.csv p.data >/dev/null; echo "exit $?"
