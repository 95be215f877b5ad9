# Skylake: load latency, stores and a front-end event
pebs-capture --plan --uarch skl -e load-latency:ldlat=30 -e precise-store -e frontend:sub=dsb_miss
