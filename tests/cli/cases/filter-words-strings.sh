# For a string field a bare word is a string, also one naming a field (a
# call is not); strings of any length; symbols longer than 512 bytes (a
# workload's instruction names: sym with an offset, srcline with a line)
# still match by their end
printf '%s\n' time,pid,tid,lat 1,1,1,5 2,2,2,6 3,3,3,7 |
	pebs-import -f csv --meta comm.1=ip --meta comm.2=bash \
	--meta comm.3=line -o $TMP/comm.pebs &&
for e in 'comm in (bash, ip)' 'comm == ip' 'comm != line' \
	'comm == line(addr)'; do
	printf '%-24s ' "$e"
	pebs-filter -c "$e" $TMP/comm.pebs 2>&1; echo "rc=$?"
done
pebs-filter -c "comm == \"_ZN$(printf 'b%.0s' $(seq 160))Ev\"" \
	$TMP/comm.pebs; echo "rc=$?"
a=$(printf 'a%.0s' $(seq 600))
printf '%s\n' time,ip,lat 1,0x10,5 2,0x20,6 |
	pebs-import -f csv --meta workload.ips.0.ip=0x10 \
	--meta "workload.ips.0.name=_Z${a}Ev+0x10: load x" \
	--meta workload.ips.1.ip=0x20 \
	--meta "workload.ips.1.name=f: load ${a}Ev:7" -o $TMP/long.pebs &&
for e in 'sym ~ "*Ev"' 'srcline ~ "*Ev"' "sym == \"_Z${a}Ev\""; do
	printf '%-28.28s ' "$e"
	pebs-filter -c "$e" $TMP/long.pebs; echo "rc=$?"
done
