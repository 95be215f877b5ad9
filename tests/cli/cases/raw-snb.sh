# SNB (fmt 1) load latency on PMC3 (the default raw event), then precise
# store: data sources L1, L3 HITM, remote DRAM + STLB miss, locked LFB;
# a zero GLOBAL_STATUS with one PEBS counter belongs to it.
pebs-decode --raw --uarch snb -f csv --fields time,event,ip,addr,lat,ins_lat,dsrc,raw_dse,applicable,flags,op,mem,snoop,tlb,lock $TD/good/raw-snb-ldlat.bin &&
pebs-decode --raw --uarch snb --raw-event precise-store -f csv --no-header \
	--fields time,event,ip,addr,lat,ins_lat,dsrc,raw_dse,applicable,flags,op,mem,snoop,tlb,lock $TD/good/raw-snb-pstore.bin
