pebs-capture --plan --uarch skl -e load-latency:ldlat=10 -e load-latency:ldlat=20
