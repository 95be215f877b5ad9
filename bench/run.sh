#!/bin/bash
# make bench: every benchmark, printing records/s, bytes/record and peak
# memory, against its peer where one exists.  Results are recorded by hand
# in bench/RESULTS.md with the machine they ran on.
#   bench/run.sh BUILD_DIR   (the tools are BUILD_DIR/bin)
set -eu
b=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=bench/out
mkdir -p "$out"
PATH="$root/$b/bin:$PATH"
N=${BENCH_SAMPLES:-10000000}

echo "== machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"

# Format: write, decode to memory, against memcpy and the CSV limit.
cc -std=gnu11 -O2 -pthread -D_GNU_SOURCE -Ilib/include \
	-o "$out/format-bench" bench/format-bench.c "$b/libpebs.a" \
	-lzstd -lyaml -lcsv -lxxhash -lpfm -ldw -lelf -lpthread -lm
"$out/format-bench" -n "$N" -o "$out/gen.pebs"
# What zstd costs each column; would another setting decode them faster?
cc -std=gnu11 -O2 -Ilib -Ilib/include -o "$out/zstd-probe" \
	bench/zstd-probe.c -lzstd
"$out/zstd-probe" "$out/gen.pebs"

# Decode to CSV with the tool, against zstd -1 of the same CSV.
t() { /usr/bin/time -f "%e s, peak %M KiB" "$@"; }
echo "== pebs-decode -f csv ($N samples), 1 and 2 threads"
for j in 1 2; do
	t pebs-decode -j $j -f csv "$out/gen.pebs" > "$out/gen.csv"
done
csv_bytes=$(stat -c %s "$out/gen.csv")
pebs_bytes=$(stat -c %s "$out/gen.pebs")
echo "csv: $csv_bytes bytes ($((csv_bytes / N)) bytes/sample); .pebs: $pebs_bytes bytes"
echo "== peer: zstd -1 of the CSV"
t zstd -1 -q -f -o "$out/gen.csv.zst" "$out/gen.csv"
echo "zstd -1: $(stat -c %s "$out/gen.csv.zst") bytes"
t zstd -d -q -c "$out/gen.csv.zst" > /dev/null
echo "== pebs-decode -f csv to /dev/null"
t pebs-decode -f csv "$out/gen.pebs" > /dev/null

echo "== bench/filter_hist.sh"
bench/filter_hist.sh "$b" "$N" || echo "bench/filter_hist.sh failed"

# The tools' own benchmarks; each prints its peer comparison.
run_one() {
	echo "== $*"
	"$@" || echo "$1 failed"
}
run_one bench/c2c-bench.sh "$root/$b/bin"
run_one bench/perf-bench.sh "$b"
run_one bench/capture-bench.sh "$b"
