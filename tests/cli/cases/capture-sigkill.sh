# SIGKILL: no chance to finish, but blocks were flushed regularly (sim:
# every simulated millisecond), so the file reads up to its last complete
# block: pebs-decode prints those samples and reports the truncation
# (exit 1).  The subshell keeps bash's "Killed" notice out of stderr.
cd $TMP || exit 9
(
	pebs-capture -b sim --uarch skx --workload false-sharing --seed 1 \
		-e load-latency -c 1 --accesses 200000000 -o a.pebs \
		2>/dev/null &
	pid=$!
	sleep 3.5
	kill -KILL $pid
	wait $pid
	echo "capture rc=$?"
) 2>/dev/null
pebs-decode -f csv a.pebs 2>err | tail -n +2 | wc -l >n
echo "decode rc=${PIPESTATUS[0]}"
[ "$(cat n)" -gt 0 ] && echo "samples before the cut: some"
# inside a block or between blocks: the wording depends on the moment
sed 's/: truncated .*/: truncated .../' err
