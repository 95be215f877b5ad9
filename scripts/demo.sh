#!/bin/sh
# make demo: the toolkit's main job, start to finish, on any machine.
# Captures a false-sharing workload with load-latency and store sampling on
# the simulated PEBS PMU (a real capture on real hardware needs -b msr or
# -b perf and a PMU), then shows the file's summary, the first samples, a
# latency histogram per data source and the cache-line (c2c) report.
# Then the same for a real program (examples/false_sharing.c, built with
# -fsanitize=thread instrumentation and our recording runtime): its
# threads' real accesses drive the simulated PMU, and the report names
# its functions, source lines and variables.
set -eu
bin=${1:-build/bin}
examples=${2:-$bin/../examples}
PATH="$bin:$PATH"
out=${DEMO_DIR:-build/demo}
mkdir -p "$out"
f="$out/false-sharing.pebs"

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

# A short simulated run: the sim's default period, 199, gives a couple of
# thousand samples.
step pebs-capture -b sim --uarch skx --workload false-sharing --seed 1 \
	-e load-latency -e precise-store -o "$f"
pebs-capture -b sim --uarch skx --workload false-sharing --seed 1 \
	-e load-latency -e precise-store -o "$f"

step pebs-decode --info "$f"
pebs-decode --info "$f"

step "pebs-decode -f text $f | head -8"
pebs-decode -f text "$f" | head -8

step pebs-hist --by mem --percentiles 50,90,99 -f text "$f"
pebs-hist --by mem --percentiles 50,90,99 -f text "$f"

step "pebs-filter 'hitm' $f | pebs-hist -f text"
pebs-filter 'hitm' "$f" | pebs-hist -f text

step pebs-c2c --top 1 -f text "$f"
pebs-c2c --top 1 -f text "$f"

prog="$examples/false_sharing"
if [ -x "$prog" ]; then
	g="$out/false-sharing-prog.pebs"
	step pebs-capture -b sim --uarch skx -e load-latency \
		-e precise-store -o "$g" -- "$prog"
	pebs-capture -b sim --uarch skx -e load-latency -e precise-store \
		-o "$g" -- "$prog"

	step pebs-hist --by srcline --where load --percentiles 50,99 -f text "$g"
	pebs-hist --by srcline --where load --percentiles 50,99 -f text "$g"

	step pebs-c2c --top 1 -f text "$g"
	pebs-c2c --top 1 -f text "$g"
fi
