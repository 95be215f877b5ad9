# A perf.data cut short in its header features, after the data: all 14
# samples are imported, the features before the cut are kept (here none,
# then the build-ids and HOSTNAME), and the cut is reported, naming the
# first feature lost, with exit 1; the same from standard input.  A cut
# only into the padding after the last feature loses nothing: exit 0.
cd $TMP
f=$OLDPWD/$TD/perf/skx-load-latency.perf.data
for n in 1240000 1247160 1253199; do
	head -c $n $f > cut.data
	pebs-import -f perf cut.data -o cut.pebs
	echo "$n: exit $?"
	pebs-decode --info cut.pebs | grep -E '^  (samples|host):'
done
head -c 1240000 $f | pebs-import -f perf -o pipe.pebs
echo "stdin: exit $?"
pebs-decode --info pipe.pebs | grep -E '^  samples:'
