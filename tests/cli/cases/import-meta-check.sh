# --meta refuses a malformed value of a key whose syntax the tools define
# (time.unit, tsc.hz, time.origin, topology.nr_cpus, topology.node.N.cpus):
# usage error, naming the key and the expected form, before anything is
# written.
for kv in time.unit=us tsc.hz=abc tsc.hz=0 tsc.hz=2.5e9 topology.nr_cpus=x \
	topology.node.0.cpus=0-27, topology.node.4096.cpus=0 time.origin=-1 \
	time.origin=0x10 time.origin=18446744073709551616; do
	printf 'time\n1\n' | pebs-import --meta "$kv" -o $TMP/m.pebs
	echo "$kv rc=$?"
	test -e $TMP/m.pebs && echo "$kv: written"
done
# well-formed values are kept, and pebs-filter reads the clock from them
printf 'time\n1000\n2000000\n4000000\n' |
pebs-import --meta time.unit=tsc --meta tsc.hz=1000000000 \
	--meta topology.nr_cpus=8 --meta topology.node.0.cpus=0-7 |
pebs-filter -f csv --fields time 't > 1ms'
# t counts from a time.origin given, 0 included: 1ms after 1000000 ticks
printf 'time\n1000\n2000000\n4000000\n' |
pebs-import --meta time.unit=tsc --meta tsc.hz=1000000000 \
	--meta time.origin=1000000 | pebs-filter -f csv --fields time 't > 1ms'
printf 'time\n1000\n2000000\n4000000\n' |
pebs-import --meta time.unit=ns --meta time.origin=0 |
pebs-filter -c 't >= 1000ns'
