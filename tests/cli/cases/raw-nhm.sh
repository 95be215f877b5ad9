# NHM (fmt 1): STLB-miss and lock are NA; encoding E is reserved (NA).
pebs-decode --raw --uarch nhm -f csv --fields time,event,ip,addr,lat,ins_lat,dsrc,raw_dse,applicable,flags,op,mem,snoop,tlb,lock $TD/good/raw-nhm-ldlat.bin
