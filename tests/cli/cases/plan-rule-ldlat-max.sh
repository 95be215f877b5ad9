pebs-capture --plan --uarch hsw -e load-latency:ldlat=65536
