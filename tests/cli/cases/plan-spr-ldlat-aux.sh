# Sapphire Rapids: the auxiliary event 0x8203 of load latency counts on
# PMC0-3 only (Linux core.c intel_spr_event_constraints: event codes below
# 0x90), so three 0xD0 events take PMC0-2, the auxiliary event PMC3 and
# load latency PMC4; a fourth PMC0-3 event leaves it none: rule ldlat-aux
pebs-capture --plan --uarch spr -C 0 -e MEM_INST_RETIRED.ALL_STORES \
	-e MEM_INST_RETIRED.ALL_LOADS -e MEM_INST_RETIRED.SPLIT_LOADS \
	-e load-latency | sed -n '/^events:/,/^msr_writes:/p' |
	grep -E 'name:|counter:' &&
pebs-capture --plan --uarch spr -e MEM_INST_RETIRED.ALL_STORES \
	-e MEM_INST_RETIRED.ALL_LOADS -e MEM_INST_RETIRED.SPLIT_LOADS \
	-e MEM_LOAD_RETIRED.L1_HIT -e load-latency
