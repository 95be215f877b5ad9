pebs-capture --plan --uarch hsw -e frontend:sub=dsb_miss
