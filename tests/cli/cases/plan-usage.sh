# usage errors: each exits 2 with its message
pebs-capture --plan -e load-latency; echo rc=$?
pebs-capture --plan --uarch k8 -e load-latency; echo rc=$?
pebs-capture --plan --uarch skl; echo rc=$?
pebs-capture --plan --uarch skl -e 'load-latency:bogus'; echo rc=$?
pebs-capture --plan --uarch skl -e NO_SUCH_EVENT; echo rc=$?
pebs-capture --plan --uarch skl -e load-latency -C 3-1; echo rc=$?
pebs-capture --plan --uarch skl -e load-latency -c 0; echo rc=$?
pebs-capture --plan --probe; echo rc=$?
pebs-capture --plan --uarch skl -e r1d1 -- ls; echo rc=$?
# TOPDOWN.SLOTS (0x0400) is fixed counter 3's; code 0x00 counts nothing
pebs-capture --plan --uarch icl -e r400; echo rc=$?
pebs-capture --plan --uarch skl -e r400; echo rc=$?
# options that do not apply are refused, not ignored
pebs-capture --probe --workload false-sharing; echo rc=$?
pebs-capture --probe -e load-latency; echo rc=$?
pebs-capture --plan --uarch skl -e load-latency -d 1; echo rc=$?
# a capture's -C errors name the option
pebs-capture -b sim --workload false-sharing -C 3-1; echo rc=$?
# -o naming the program that -- COMMAND runs
cp "$(type -P true)" $TMP/prog && (cd $TMP && pebs-capture -o prog -- ./prog)
echo rc=$?; cmp -s $TMP/prog "$(type -P true)" && echo "program kept"
pebs-capture --plan --uarch icl -e INST_RETIRED.PREC_DIST
