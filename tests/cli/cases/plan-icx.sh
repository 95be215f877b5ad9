# Ice Lake server
pebs-capture --plan --uarch icx -e load-latency -e MEM_LOAD_L3_HIT_RETIRED.XSNP_HITM
