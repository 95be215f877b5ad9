# Counts of one read in the singular: a line with one sample ("1 sample
# on this line", "the 1 sample comes from one thread"), and the html and
# svg notes for one listed line past the 50 drawn ("1 more listed line").
# 51 lines, one HITM load each.
printf '%s\n' time,cpu,pid,tid,event,ip,addr,lat,dsrc > $TMP/s.csv &&
for i in $(seq 10 60); do
	echo "$i,0,10,1,load-latency,0x401000,0x7f00000$i""00,$i,0x10668800842"
done >> $TMP/s.csv &&
pebs-import -f csv -o $TMP/s.pebs $TMP/s.csv &&
pebs-c2c --top 1 $TMP/s.pebs | grep -E '^  verdict:' &&
pebs-c2c --top 1 --min-samples 1 $TMP/s.pebs | grep -E '^  verdict:' &&
pebs-c2c -f html $TMP/s.pebs | grep -o '<p>[0-9]* more listed[^:]*' &&
pebs-c2c -f svg $TMP/s.pebs | grep -o '[0-9]* more listed[^:]*'
