# A raw dump's metadata gives each event's encoding (events.N.evtsel), as a
# capture's does: -f perf then writes a DataLA store's weight as the TSX
# cycles (tsx bits 31:0), as the kernel does for events other than load
# latency, and gives the event its config; without it the weight was the
# latency field (0) and the cycles were lost.
pebs-decode --raw --uarch hsw --raw-event 'precise-store@PMC0' -f perf \
	-o $TMP/s.data $TD/good/raw-hsw-stores.bin &&
pebs-import -f perf $TMP/s.data | pebs-decode -f csv --fields event,lat,tsx &&
pebs-decode --raw --uarch skl --raw-event 'load-latency;r1c0;r99' --info \
	$TD/good/raw-skl-ldlat.bin | sed -n '/^  events:/,/^summary/p'
