# Sourced by symbol CLI cases: builds testdata/sym/pie.c as the PIE $TMP/r
# and writes $TMP/maps.args, the --meta options of the maps Linux makes for
# it at 0x555555554000 in pid ${PID:-7} (one per PT_LOAD, the RELRO part of
# the RW one split off read-only), and $TMP/r.csv, two samples: the ip of
# main, the data addresses of table_ops (RELRO) and counter[2] (.bss).
# ${CCFLAGS} adds to the cc command.
cc -g -O0 -fPIE -pie ${CCFLAGS:-} -o $TMP/r $TD/sym/pie.c &&
B=$((0x555555554000)) && k=0 && rs=0 && re=0 &&
pd() { echo $(($1 & ~4095)); } &&
map() { printf ' --meta maps.%d.pid=%d --meta maps.%d.start=0x%x' $k \
	${PID:-7} $k $((B + $1)) &&
	printf ' --meta maps.%d.end=0x%x --meta maps.%d.pgoff=0x%x' $k \
	$((B + $2)) $k $3 &&
	printf ' --meta maps.%d.path=%s' $k $TMP/r && k=$((k + 1)); } &&
readelf -lW $TMP/r >$TMP/ph.txt &&
read -r _ _ rv _ rf _ < <(grep GNU_RELRO $TMP/ph.txt) &&
rs=$(pd $((rv))) && re=$(pd $((rv + rf))) &&
while read -r _ o v _ f _; do
	s=$(pd $((v))) e=$(pd $((v + f + 4095))) off=$(pd $((o)))
	if [ $re -gt $rs ] && [ $rs -ge $s ] && [ $rs -lt $e ]; then
		[ $rs -gt $s ] && map $s $rs $off
		map $rs $re $((off + rs - s))
		off=$((off + re - s)) s=$re
	fi
	[ $e -gt $s ] && map $s $e $off
	true
done < <(grep ' LOAD ' $TMP/ph.txt) >$TMP/maps.args &&
sym() { echo $((0x$(nm $TMP/r | grep " $1\$" | cut -d' ' -f1))); } &&
{ echo time,cpu,pid,tid,event,ip,addr,lat
  printf '1,1,%d,%d,load-latency,0x%x,0x%x,10\n' ${PID:-7} ${PID:-7} \
	$((B + $(sym main))) $((B + $(sym table_ops)))
  printf '2,1,%d,%d,load-latency,0x%x,0x%x,10\n' ${PID:-7} ${PID:-7} \
	$((B + $(sym main))) $((B + $(sym counter) + 8))
} >$TMP/r.csv
