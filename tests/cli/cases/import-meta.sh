# --meta adds metadata keys (here the NUMA topology pebs-c2c reads);
# a key given twice keeps its last value; malformed or with -f perf it is
# a usage error.
printf 'time,cpu,lat\n1,0,5\n2,30,7\n' |
pebs-import --meta topology.node.0.cpus=0-27 --meta topology.node.1.cpus=28-55 \
	--meta note=first --meta note=a=b |
pebs-decode --info | sed -n '/^metadata:/,/^summary:/p' | grep -v -e start_time -e host: -e cmdline
pebs-import --meta novalue </dev/null; echo "rc $?"
pebs-import --meta =x </dev/null; echo "rc $?"
pebs-import -f perf --meta a=b </dev/null; echo "rc $?"
