pebs-capture --plan --uarch skl -e load-latency:cmask=2
