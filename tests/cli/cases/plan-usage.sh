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
pebs-capture --plan --uarch icl -e INST_RETIRED.PREC_DIST
