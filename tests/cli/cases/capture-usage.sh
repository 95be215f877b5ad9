# Usage errors exit 2 with a message naming the problem.
pebs-capture -b nope --workload false-sharing; echo "rc=$?"
pebs-capture -b sim --uarch zen4 --workload false-sharing -o /dev/null
echo "rc=$?"
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
# -d: a finite number; the shortest positive duration is a cycle, not
# "no limit" (0 is no limit)
pebs-capture -b sim --uarch skx --workload false-sharing -d inf; echo "rc=$?"
# a positive duration too small for a double is not 0 (no limit); no
# blanks before a number, as -c and --seed
pebs-capture -b sim --uarch skx --workload false-sharing -d 1e-400; echo "rc=$?"
pebs-capture -b sim --uarch skx --workload false-sharing -d " 1"; echo "rc=$?"
pebs-capture -b sim --uarch skx --workload false-sharing -d -0; echo "rc=$?"
pebs-capture -b sim --uarch skx --workload false-sharing -d -1e-400; echo "rc=$?"
pebs-capture -b sim --uarch skx --workload false-sharing -c 1m; echo "rc=$?"
pebs-capture -b sim --uarch skx --workload streaming -c 997 -d 1e-12 \
	-o $TMP/d.pebs 2>/dev/null && pebs-decode --info $TMP/d.pebs |
	grep '^  samples:'
# more events than counters: the owners listed are whole names
pebs-capture --plan --uarch spr $(printf -- '-e load-latency %.0s' 1 2 3 4 5 6 7 8); echo "rc=$?"
# run by its path, option errors still name the tool, not the path
"$(command -v pebs-capture)" --bogus 2>&1 | head -1
# core2 has no default event: say so, not a rule about one never asked for
pebs-capture -b sim --uarch core2 --workload false-sharing -c 97 \
	-o /dev/null; echo "rc=$?"
# --force is the msr backend's alone (its probe's refusal: unit tests)
pebs-capture --force --workload false-sharing -o /dev/null; echo "rc=$?"
pebs-capture --plan --force --uarch skx; echo "rc=$?"
# --seed and --accesses drive the simulated workload: refused, not
# ignored, with a hardware backend (before anything is opened)
pebs-capture -b msr --accesses 1M -o /dev/null; echo "rc=$?"
pebs-capture -b perf --seed 7 -o /dev/null; echo "rc=$?"
# a number past 64 bits is out of range, not "not a number"
pebs-capture --seed 99999999999999999999; echo "rc=$?"
pebs-capture -c 99999999999999999999 -o /dev/null; echo "rc=$?"
