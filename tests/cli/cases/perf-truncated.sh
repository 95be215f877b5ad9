# A perf.data cut short: the samples before the cut are imported (8 of the
# 14 here), then a clear error and exit 1; the same for a pipe-mode stream
# cut inside a record, read from standard input.
cd $TMP
head -c 983040 $OLDPWD/$TD/perf/skx-load-latency.perf.data > cut.data
pebs-import -f perf cut.data -o cut.pebs
echo "exit $?"
pebs-decode -f csv --fields time,ip cut.pebs
head -c 12000 $OLDPWD/$TD/perf/skx-pipe.perf.data |
	pebs-import -f perf -o pipe.pebs
echo "exit $?"
pebs-decode -f csv --fields time,ip pipe.pebs
