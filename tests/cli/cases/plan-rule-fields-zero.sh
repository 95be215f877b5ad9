pebs-capture --plan --uarch skl -e MEM_LOAD_RETIRED.L1_HIT:any
