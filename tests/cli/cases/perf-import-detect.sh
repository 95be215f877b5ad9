# Without -f a perf.data file is recognised by its magic and imported as
# with -f perf (same samples); CSV stays the default.  A perf.data file on
# a pipe cannot be looked at first: it is read as CSV and refused with a
# hint, exit 1.
cd $TMP
f=$OLDPWD/$TD/perf/skx-load-latency.perf.data
pebs-import "$f" -o auto.pebs; echo "exit $?"
pebs-import -f perf "$f" -o perf.pebs; echo "exit $?"
pebs-decode auto.pebs >auto.csv && pebs-decode perf.pebs >perf.csv &&
	cmp auto.csv perf.csv && wc -l <auto.csv
pebs-decode --info auto.pebs | grep -E '^  source:'
printf 'time,cpu\n1,2\n' >x.csv
pebs-import x.csv | pebs-decode; echo "exit $?"
pebs-import <"$f" >pipe.pebs; echo "exit $?"
