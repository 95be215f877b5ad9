# Core 2: PEBS on PMC0 only, 40-bit counters, legacy IA32_PMC0 write
pebs-capture --plan --uarch core2 -e MEM_LOAD_RETIRED.L2_MISS -c 2000
