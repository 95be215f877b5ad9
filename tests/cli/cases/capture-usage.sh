# Usage errors exit 2 with a message naming the problem.
pebs-capture -b nope --workload false-sharing; echo "rc=$?"
pebs-capture -b sim --uarch zen4 --workload false-sharing -o /dev/null
echo "rc=$?"
pebs-capture -b sim --uarch skx -o /dev/null; echo "rc=$?"
pebs-capture -b sim --uarch skx --workload nope -o /dev/null; echo "rc=$?"
pebs-capture -b sim --uarch snb --workload false-sharing \
	-e load-latency -e precise-store -o /dev/null; echo "rc=$?"
pebs-capture -b sim --uarch skx --workload false-sharing \
	-e load-latency:ldlat=1 -o /dev/null; echo "rc=$?"
pebs-capture -b msr --workload false-sharing -o /dev/null; echo "rc=$?"
pebs-capture -b sim --uarch skx --workload false-sharing -C 64 \
	-o /dev/null; echo "rc=$?"
pebs-capture -b sim --uarch skx --workload false-sharing -d x; echo "rc=$?"
pebs-capture -b sim --uarch skx -o /dev/null -- true; echo "rc=$?"
pebs-capture -b sim --uarch skx --workload false-sharing -o /dev/null \
	-- true; echo "rc=$?"
