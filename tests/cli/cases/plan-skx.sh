# Skylake server: load latency + remote HITM loads (libpfm4-free table name)
pebs-capture --plan --uarch skx -e load-latency -e MEM_LOAD_L3_MISS_RETIRED.REMOTE_HITM -c 20011
