# Both events of a generated perf.data record PHYS_ADDR: every sample has
# flag 0x2 (PEBS_SF_PHYS), the mem-loads samples as the first event's
# (mem-stores) do; the first sample's physical address is 0, but valid.
pebs-import -f perf $TD/perf/gen-two-events-lost.perf.data |
	pebs-decode --fields event,phys_addr,flags
