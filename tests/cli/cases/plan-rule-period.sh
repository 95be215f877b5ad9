pebs-capture --plan --uarch core2 -e MEM_LOAD_RETIRED.L2_MISS -c 0x80000000
