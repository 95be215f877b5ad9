# HSW (fmt 2): the portable precise-store is the DataLA store event; ip is
# the EventingIP; store status bit 0 = L1 hit.
pebs-decode --raw --uarch hsw --raw-event precise-store -f csv \
	--fields time,event,ip,addr,lat,ins_lat,dsrc,raw_dse,applicable,flags,op,mem,snoop,tlb,lock,tsx,rip $TD/good/raw-hsw-stores.bin
