# --perf-compat counts remote-DRAM HITMs twice, as perf does: a line's
# detail says how many loads were sampled, the count its latency and
# offset rows are over, beside perf's count
pebs-capture -d 1 -o $TMP/run.pebs 2>/dev/null &&
pebs-c2c --perf-compat $TMP/run.pebs | grep -E '^  loads|^    0x' &&
echo --- &&
pebs-c2c $TMP/run.pebs | grep -E '^  loads'
