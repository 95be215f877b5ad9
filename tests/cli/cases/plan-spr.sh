# Sapphire Rapids: load latency on PMC1-7, store latency on PMC0
pebs-capture --plan --uarch spr -e load-latency:ldlat=128 -e MEM_TRANS_RETIRED.STORE_SAMPLE
