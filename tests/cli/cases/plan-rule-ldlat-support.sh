pebs-capture --plan --uarch core2 -e load-latency
