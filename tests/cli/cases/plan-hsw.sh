# Haswell: load latency + DataLA store event
pebs-capture --plan --uarch hsw -e load-latency:ldlat=50 -e precise-store
