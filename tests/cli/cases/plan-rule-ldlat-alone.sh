pebs-capture --plan --uarch snb -e load-latency -e MEM_LOAD_UOPS_RETIRED.L1_HIT
