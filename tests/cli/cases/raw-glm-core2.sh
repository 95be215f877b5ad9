# GLM (fmt 3, no data source: raw bits kept, dsrc all NA but the op) and
# Core 2 (fmt 0: trap-like RIP, no address, every record is PMC0's).
pebs-decode --raw --uarch glm -f csv --fields time,event,ip,addr,lat,ins_lat,dsrc,raw_dse,applicable,flags,op,mem,snoop,tlb,lock $TD/good/raw-glm.bin &&
pebs-decode --raw --uarch core2 -f csv --no-header --fields time,event,ip,addr,lat,ins_lat,dsrc,raw_dse,applicable,flags,op,mem,snoop,tlb,lock,rax,r15 \
	$TD/good/raw-core2.bin
