#!/bin/bash
# Benchmarks of pebs-filter and pebs-hist: samples/s by wall clock and per
# CPU-second (user + sys), 1 and 2 decode threads.  Results are recorded by
# hand in bench/RESULTS-filter-hist.md.
#   bench/filter_hist.sh BUILD_DIR [SAMPLES]    (tools in BUILD_DIR/bin)
# The input is pebs-gen's synthetic workload (seed 3); each command runs
# REPS times (default 3) and the best run is kept.
#   REPS=3 COPIES=4 bench/filter_hist.sh build 10000000   (40M samples)
set -eu
b=${1:-build}
n=${2:-20000000}
reps=${REPS:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=bench/out
mkdir -p "$out"
PATH="$root/$b/bin:$PATH"
copies=${COPIES:-1}
base="$out/filter-hist-$n.pebs"
[ -f "$base" ] || pebs-gen -n "$n" --seed 3 -o "$base"
# COPIES=k: the input is k copies of the file back to back (a valid
# stream), so short runs last long enough for the timer's resolution
data=$base
if [ "$copies" -gt 1 ]; then
	data="$out/filter-hist-$n-x$copies.pebs"
	[ -f "$data" ] || for _ in $(seq "$copies"); do cat "$base"; done \
		>"$data"
	n=$((n * copies))
fi

echo "== machine: $(nproc) CPUs,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
echo "== load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== input: $data, $n samples, $(stat -c %s "$data") bytes"
printf '%-44s %3s %8s %8s %12s %12s\n' command j wall_s cpu_s \
	Msamples/s Ms/cpu-s
bench() {
	local j=$1 name=$2
	shift 2
	local best_w=999999 best_c=999999
	for _ in $(seq "$reps"); do
		/usr/bin/time -o "$out/.time" -f "%e %U %S" "$@" -j "$j" \
			"$data" >"$out/.out"
		read -r w u s <"$out/.time"
		c=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
		best_w=$(awk -v a="$w" -v b="$best_w" 'BEGIN { print a < b ? a : b }')
		best_c=$(awk -v a="$c" -v b="$best_c" 'BEGIN { print a < b ? a : b }')
	done
	awk -v n="$n" -v w="$best_w" -v c="$best_c" -v j="$j" -v nm="$name" \
		'BEGIN { printf "%-44s %3d %8.2f %8.2f %12.1f %12.1f\n", nm, j,
		w, c, n / w / 1e6, n / c / 1e6 }'
}
for j in 1 2; do
	sel=$(pebs-filter --count 'lat > 450' "$data")
	bench $j "pebs-filter 'lat > 450' (~1% pass) >pebs" \
		pebs-filter 'lat > 450'
	bench $j "pebs-filter 'lat > 200' >pebs" pebs-filter 'lat > 200'
	bench $j "pebs-filter --count 'lat > 450'" \
		pebs-filter --count 'lat > 450'
	bench $j "pebs-filter --count 'hitm and dram'" \
		pebs-filter --count 'hitm and dram'
	bench $j "pebs-hist -f csv (lat)" pebs-hist -f csv
	bench $j "pebs-hist -f csv --by mem" pebs-hist -f csv --by mem
	# many groups: ~40% as many lines as samples, each its own histogram
	bench $j "pebs-hist -f csv --by line" pebs-hist -f csv --by line
done
echo "== 'lat > 450' keeps $sel of $n samples"

# The same samples written at zstd's fast level -1 (--level -1: larger
# files, no entropy coding of literals), to show what that trade buys.
fast="${data%.pebs}-fast.pebs"
[ -f "$fast" ] || pebs-decode -f pebs --level -1 -o "$fast" "$data"
echo "== input at --level -1: $fast, $(stat -c %s "$fast") bytes" \
	"($(awk -v a="$(stat -c %s "$fast")" -v n="$n" \
	'BEGIN { printf "%.2f", a / n }') bytes/sample, against" \
	"$(awk -v a="$(stat -c %s "$data")" -v n="$n" \
	'BEGIN { printf "%.2f", a / n }'))"
data=$fast
for j in 1 2; do
	bench $j "--level -1 input: pebs-filter 'lat > 450' >pebs" \
		pebs-filter 'lat > 450'
	bench $j "--level -1 input: pebs-hist -f csv (lat)" pebs-hist -f csv
	bench $j "--level -1 input: pebs-hist -f csv --by mem" \
		pebs-hist -f csv --by mem
done
