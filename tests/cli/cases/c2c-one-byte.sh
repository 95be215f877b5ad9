# Byte-wide fields: tid 1 stores to offset 0x3e, tid 2 to 0x3f, so the
# offsets' alignment makes each access 1 byte, and one byte of padding
# after 0x3e moves 0x3f to the next line.  The texts say "1 byte", not
# "1 bytes".
printf '%s\n' time,cpu,pid,tid,event,ip,addr,lat,dsrc > $TMP/s.csv &&
for i in 1 2 3 4 5 6 7 8 9 10; do
	echo "$i,0,10,1,precise-store,0x401000,0x7f000000103e,0,0x80144"
	echo "$i,1,10,2,precise-store,0x401010,0x7f000000103f,0,0x80144"
	echo "$i,1,10,2,load-latency,0x401020,0x7f000000103f,200,0x10668800842"
done >> $TMP/s.csv &&
pebs-import -f csv -o $TMP/s.pebs $TMP/s.csv &&
pebs-c2c $TMP/s.pebs | grep -E '^  (verdict|fix):'
