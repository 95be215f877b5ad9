# Ice Lake: adaptive PEBS (DATA_CFG, EVTSEL bit 34), no LL_EN bits
pebs-capture --plan --uarch icl -e load-latency:ldlat=64 -e precise-store -e frontend:sub=idq_bubbles,latency=2,width=1
