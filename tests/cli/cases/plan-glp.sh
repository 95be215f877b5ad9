# Goldmont Plus: stores and L2-miss loads on PMC0-3
pebs-capture --plan --uarch glp -e precise-store -e MEM_LOAD_UOPS_RETIRED.L2_MISS
