# Sapphire Rapids: load latency on PMC1-7, store latency on PMC0, and the
# auxiliary event 0x8203 the load-latency event needs on the next free counter
pebs-capture --plan --uarch spr -e load-latency:ldlat=128 -e MEM_TRANS_RETIRED.STORE_SAMPLE
