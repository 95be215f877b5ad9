# Goldmont: PMC0 only
pebs-capture --plan --uarch glm -e MEM_UOPS_RETIRED.ALL_LOADS
