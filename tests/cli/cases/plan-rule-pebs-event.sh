pebs-capture --plan --uarch skl -e UOPS_ISSUED.ANY
