# Broadwell: load latency + all loads, user only, per-CPU writes
pebs-capture --plan --uarch bdw -e load-latency:u -e MEM_UOPS_RETIRED.ALL_LOADS:u -C 0,2
