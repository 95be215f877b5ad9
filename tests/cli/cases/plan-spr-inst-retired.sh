# Sapphire Rapids: PEBS on INST_RETIRED.* (event 0xC0, any umask) only on
# PMC1-7 (kernel constraint 0xfe); PMC0 is refused
pebs-capture --plan --uarch spr -e INST_RETIRED.ANY_P | sed -n '1,10p' &&
pebs-capture --plan --uarch spr -e INST_RETIRED.ANY_P:pmc=0
