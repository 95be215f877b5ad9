# Ivy Bridge: precise store on PMC3 with PS_EN (bit 63)
pebs-capture --plan --uarch ivb -e precise-store -c 50000
