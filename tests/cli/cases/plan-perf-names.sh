# perf's names of the portable events (as perf mem record gives them):
# the same plan as load-latency:ldlat=30 and precise-store
for e in 'cpu/mem-loads,ldlat=30/P' 'mem-loads:ldlat=30' \
	'load-latency:ldlat=30'; do
	pebs-capture --plan --uarch skl -e "$e" | sed -n '/^- spec/,/^msr_writes/p'
done | sort | uniq -c
for e in mem-stores 'cpu/mem-stores/P'; do pebs-capture --plan --uarch snb -e "$e"; done |
	sed -n '/^- spec/,/^  period/p'
# what is not perf's spelling of a PEBS event, and an unknown name
pebs-capture --plan --uarch skl -e 'cpu/mem-loads/H'; echo rc=$?
pebs-capture --plan --uarch skl -e 'cpu_atom/mem-loads/'; echo rc=$?
pebs-capture --plan --uarch skl -e mem-load; echo rc=$?
# perf's mem-stores on spr is store latency 0x02CD on PMC0 (core.c
# mem_st_spr), as -e r2cd is; precise-store stays the DataLA store event
for e in mem-stores 'cpu/mem-stores/P' r2cd precise-store; do
	pebs-capture --plan --uarch spr -e "$e" | sed -n '/^- spec/,/^  counter/p'
done
