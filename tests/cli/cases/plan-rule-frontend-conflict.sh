pebs-capture --plan --uarch skl -e frontend:sub=dsb_miss -e frontend:sub=l1i_miss
