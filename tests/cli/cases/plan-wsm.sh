# Westmere: load latency beside another PEBS event (allowed before SNB)
pebs-capture --plan --uarch wsm -e load-latency:ldlat=16 -e MEM_INST_RETIRED.STORES -c 10007
