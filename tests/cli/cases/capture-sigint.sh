# SIGINT mid-capture: everything drained is flushed, registers restored,
# the file is complete (decodes with exit 0), the capture exits 0.
pebs-capture -b sim --uarch skx --workload false-sharing --seed 1 \
	-e load-latency -c 1 --accesses 200000000 -o $TMP/a.pebs \
	2>$TMP/err &
pid=$!
sleep 3
kill -INT $pid
wait $pid
echo "capture rc=$?"
n=$(pebs-decode -f csv $TMP/a.pebs | tail -n +2 | wc -l)
echo "decode rc=$?"
[ "$n" -gt 1000 ] && echo "samples: many"
s=$(sed -n 's/.*: \([0-9]*\) samples.*/\1/p' $TMP/err)
[ "$s" = "$n" ] && echo "summary count = decoded count"
