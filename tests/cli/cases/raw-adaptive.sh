# ICL (fmt 4) MemInfo+GPR (GPR group order RAX RCX RDX RBX ...), MemInfo+
# XMM+LBR; SPR (fmt 4, as SPR/EMR report it) latency split 47:32 / 15:0
# and block bits 6/7.
pebs-decode --raw --uarch icl -f csv \
	--fields time,event,ip,addr,lat,ins_lat,dsrc,raw_dse,applicable,flags,op,mem,snoop,tlb,lock,rip,rax,rbx,rcx,rdx,rsp,rbp,rsi,rdi,r8,r15 \
	$TD/good/raw-icl-adaptive.bin &&
pebs-decode --raw --uarch icl -f csv --no-header --fields time,event,ip,addr,lat,ins_lat,dsrc,raw_dse,applicable,flags,op,mem,snoop,tlb,lock \
	$TD/good/raw-icl-xmm-lbr.bin &&
pebs-decode --raw --uarch spr -f yaml $TD/good/raw-spr-adaptive.bin &&
pebs-decode --raw --uarch spr -f csv --fields event,fmt,lat,ins_lat \
	$TD/good/raw-spr-adaptive.bin
