#!/bin/bash
# perf.data interoperability benchmark (not a timed test):
#   bench/perf-bench.sh BUILD_DIR [SAMPLES]
# Makes a perf.data of SAMPLES (default 1M) samples with our writer (from
# pebs-gen), then times
#   1. pebs-import -f perf          vs  perf script (default fields)
#   2. pebs-decode -f csv of .pebs  vs  perf script -F ip,addr,weight,data_src
#   3. pebs-decode -f perf (export) vs  nothing (perf has no peer)
# Results are recorded by hand in bench/RESULTS-perf.md.
set -eu
b=${1:-build}
n=${2:-1000000}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
PATH="$root/$b/bin:$PATH"
out=bench/out/perf
mkdir -p "$out"
command -v perf >/dev/null || { echo "perf-bench: needs perf" >&2; exit 3; }
t() { /usr/bin/time -f "  %e s wall, %U s user, peak %M KiB" "$@"; }
best() {	# best of 3 runs of "$@" (output discarded): wall and CPU
	local m= c=
	for i in 1 2 3; do
		local s=$(date +%s.%N)
		/usr/bin/time -f "%U %S" -o "$out/time" "$@" > /dev/null 2>&1
		local e=$(date +%s.%N)
		m=$(echo "$s $e ${m:-1e9}" | awk '{d=$2-$1; print (d<$3)?d:$3}')
		c=$(awk -v b="${c:-1e9}" '{d=$1+$2; print (d<b)?d:b}' \
			"$out/time")
	done
	printf '  best of 3: %.3f s wall (%.0f samples/s), %.2f s CPU (%.0f samples/CPU-s)\n' \
		"$m" "$(echo "$n $m" | awk '{print $1/$2}')" \
		"$c" "$(echo "$n $c" | awk '{print ($2>0)?$1/$2:0}')"
}
echo "== machine: $(nproc) CPUs,$(grep -m1 'model name' /proc/cpuinfo | \
	cut -d: -f2-), $(perf --version)"
pebs-gen -n "$n" --seed 1 -o "$out/gen.pebs"
pebs-decode -f perf "$out/gen.pebs" -o "$out/big.data"
echo "== input: $n samples, perf.data $(stat -c %s "$out/big.data") bytes"

echo "== 1. perf.data -> .pebs: pebs-import -f perf"
t pebs-import -f perf "$out/big.data" -o "$out/big.pebs"
best pebs-import -f perf "$out/big.data" -o "$out/big.pebs"
echo "   .pebs: $(stat -c %s "$out/big.pebs") bytes"
echo "== 1'. perf script -i big.data (default fields) > /dev/null"
t perf script -i "$out/big.data" > /dev/null 2>&1
best perf script -i "$out/big.data"

echo "== 2. pebs-decode -f csv --fields ip,addr,lat,dsrc big.pebs"
t pebs-decode -f csv --fields ip,addr,lat,dsrc "$out/big.pebs" > /dev/null
best pebs-decode -f csv --fields ip,addr,lat,dsrc "$out/big.pebs"
echo "== 2'. perf script -F ip,addr,weight,data_src -i big.data"
t perf script -F ip,addr,weight,data_src -i "$out/big.data" > /dev/null 2>&1
best perf script -F ip,addr,weight,data_src -i "$out/big.data"

echo "== 3. .pebs -> perf.data: pebs-decode -f perf"
t pebs-decode -f perf "$out/big.pebs" -o "$out/back.data"
best pebs-decode -f perf "$out/big.pebs" -o "$out/back.data"
