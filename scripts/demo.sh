#!/bin/sh
# make demo: the toolkit's main job, start to finish, on any machine.
# Captures a false-sharing workload with load-latency and store sampling on
# the simulated PEBS PMU, then shows the file's summary, a latency
# histogram per data source and the cache-line (c2c) report.
set -eu
bin=${1:-build/bin}
PATH="$bin:$PATH"
out=${DEMO_DIR:-build/demo}
mkdir -p "$out"
f="$out/demo.pebs"

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

step pebs-capture -b sim --uarch skx --workload false-sharing --seed 1 \
	-e load-latency:ldlat=30 -e precise-store -o "$f"
if ! pebs-capture -b sim --uarch skx --workload false-sharing --seed 1 \
	-e load-latency:ldlat=30 -e precise-store -o "$f"; then
	# The simulated capture is not in this build: say so, and go on with
	# realistic generated samples instead.
	echo "(no simulated capture in this build: using generated samples)"
	step pebs-gen -n 1000000 --seed 1 -o "$f"
	pebs-gen -n 1000000 --seed 1 -o "$f"
fi

step pebs-decode --info "$f"
pebs-decode --info "$f"

step "pebs-decode -f text $f | head -8"
pebs-decode -f text "$f" | head -8

step pebs-hist --by mem --percentiles 50,90,99 -f text "$f"
pebs-hist --by mem --percentiles 50,90,99 -f text "$f"

step "pebs-filter 'hitm' $f | pebs-hist -f text"
pebs-filter 'hitm' "$f" | pebs-hist -f text

step pebs-c2c --top 3 "$f"
pebs-c2c --top 3 -f text "$f"
