pebs-capture --plan --uarch glm -e MEM_UOPS_RETIRED.ALL_LOADS -e MEM_UOPS_RETIRED.ALL_STORES
