pebs-capture --plan --uarch hsw -e r1d1 -e r2d1 -e r4d1 -e r8d1 -e r10d1
