# Sapphire Rapids: load latency on PMC1-7, store latency on PMC0, and the
# auxiliary event 0x8203 the load-latency event needs on PMC0-3 (event codes
# below 0x90): PMC1, before load latency takes the lowest one left
pebs-capture --plan --uarch spr -e load-latency:ldlat=128 -e MEM_TRANS_RETIRED.STORE_SAMPLE
