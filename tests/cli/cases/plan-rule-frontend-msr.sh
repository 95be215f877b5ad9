pebs-capture --plan --uarch skl -e frontend:sub=idq_bubbles,latency=2,width=5
