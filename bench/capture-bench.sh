#!/bin/bash
# Capture throughput (bench/RESULTS-capture.md records the results):
#   bench/capture-bench.sh [BUILD_DIR]     (needs BUILD_DIR/libpebs.a)
# 1. simulated capture to a file, every access sampled, accesses from a
#    trivial generator (the capture path) and from the false-sharing
#    workload (cache model included);
# 2. the drain + decode path alone on a prepared 64 KiB DS buffer, the
#    fast decoder and its plain twin (PEBS_DS_PLAIN=1), then with the
#    .pebs writer's encoding added;
# each without registers (a default capture) and with them (--regs).
# Wall and CPU (process) rates are printed: on a shared machine the CPU
# figure is the per-core one.
set -eu
b=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=bench/out
mkdir -p "$out"
cc -std=gnu11 -O2 -pthread -D_GNU_SOURCE -Ilib/include \
	-o "$out/capture-bench" bench/capture-bench.c "$b/libpebs.a" \
	-lzstd -lyaml -lcsv -lxxhash -lpfm -ldw -lelf -lpthread -lm
cb=$out/capture-bench
echo "== machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo |
	cut -d: -f2-), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== simulated capture, every access sampled"
$cb sim -n ${CAPBENCH_ACCESSES:-20000000} -o "$out/capture.pebs"
$cb sim -r -n ${CAPBENCH_ACCESSES:-20000000} -o "$out/capture.pebs"
$cb sim -n ${CAPBENCH_WL_ACCESSES:-5000000} -w false-sharing \
	-o "$out/capture-fs.pebs"
echo "== drain + decode (fast), plain twin, + encode"
$cb drain -n ${CAPBENCH_RECORDS:-50000000}
PEBS_DS_PLAIN=1 $cb drain -n ${CAPBENCH_RECORDS_PLAIN:-10000000}
$cb drain -e -n ${CAPBENCH_RECORDS_ENC:-10000000}
$cb drain -W -n ${CAPBENCH_RECORDS_ENC:-10000000}
echo "== the same with registers kept (pebs-capture --regs)"
$cb drain -r -n ${CAPBENCH_RECORDS:-50000000}
$cb drain -r -e -n ${CAPBENCH_RECORDS_ENC:-10000000}
