# 300 processes mapping the same binary, with 64 file descriptors: the
# binary is read once and shared by every process's modules, so all of
# them resolve (an fd held per process and object ran out: past the
# limit, samples read [unknown] with no note).
. $TD/sym/pie-setup.sh &&
row=$(sed -n 2p $TMP/r.csv | cut -d, -f6-) &&
echo time,cpu,pid,tid,event,ip,addr,lat >$TMP/many.csv &&
for p in $(seq 1 300); do
	sed "s/maps\.\([0-9]*\)\./maps.$p\1./g; s/pid=7 /pid=$p /g" \
		$TMP/maps.args
	echo "$p,1,$p,$p,load-latency,$row" >>$TMP/many.csv
done >$TMP/many.args &&
pebs-import $(cat $TMP/many.args) -o $TMP/many.pebs $TMP/many.csv &&
(ulimit -n 64 && pebs-decode -f csv --no-header --fields sym,data_sym \
	$TMP/many.pebs) | sort | uniq -c
