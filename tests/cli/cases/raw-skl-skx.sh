# SKL/SKX (fmt 3): TSC as time; encoding 8 is L4 on client, PMEM on server;
# C is a forwarded remote cache line.  Applicable counters 0x3 with only
# PMC0 enabled give one sample.
pebs-decode --raw --uarch skl -f csv --fields time,event,ip,addr,lat,ins_lat,dsrc,raw_dse,applicable,flags,op,mem,snoop,tlb,lock $TD/good/raw-skl-ldlat.bin &&
pebs-decode --raw --uarch skx -f csv --no-header --fields time,event,ip,addr,lat,ins_lat,dsrc,raw_dse,applicable,flags,op,mem,snoop,tlb,lock \
	$TD/good/raw-skx-ldlat.bin
