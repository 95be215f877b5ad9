pebs-capture --plan --uarch snb -e load-latency:pmc=0
