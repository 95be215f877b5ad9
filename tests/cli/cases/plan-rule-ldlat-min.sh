pebs-capture --plan --uarch snb -e load-latency:ldlat=2
