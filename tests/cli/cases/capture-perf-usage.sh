# -b perf: a -C CPU that is not online and an event's pmc= (the kernel
# assigns perf's counters) are usage errors naming the option, exit 2,
# before anything is programmed: the same on a machine with a PMU or
# without (the online list is the machine's; --force: skx's profile on
# any CPU, which an Intel CPU of another profile refuses without it).
pebs-capture -b perf --uarch skx --force -C 99 -d 0.1 -o $TMP/x.pebs 2>&1 |
	sed 's/(online: [0-9,-]*)/(online: LIST)/'
echo "rc $?"
pebs-capture -b perf --uarch skx --force -C 0,4095 -d 0.1 -o $TMP/x.pebs 2>&1 |
	sed 's/(online: [0-9,-]*)/(online: LIST)/'
echo "rc $?"
pebs-capture -b perf --uarch skx --force -e load-latency:pmc=1 -d 0.1 \
	-o $TMP/x.pebs
echo "rc $?"
# also without --uarch (no probe first) and in perf's own spelling
pebs-capture -b perf -e cpu/mem-loads,ldlat=30/P -e r1cd:pmc=0 -d 0.1 \
	-o $TMP/x.pebs
echo "rc $?"
[ -e $TMP/x.pebs ] && echo "x.pebs created"
# the sim takes pmc=
pebs-capture -b sim --uarch skx -e load-latency:pmc=1 \
	--workload false-sharing -c 997 -o $TMP/s.pebs 2>/dev/null
echo "sim rc $?"
