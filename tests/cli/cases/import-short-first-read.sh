# A pipe whose first read gives fewer than the 8 bytes the format probe
# wants: the probe read the bytes it already had again instead of the
# pipe, so the input came out rotated ('unknown column "mtie"', exit 1).
printf '%s\n' 'time,pid,tid,addr' 1000,1,1,0x10 2000,1,1,0x20 > $TMP/s.csv &&
{ head -c 3 $TMP/s.csv; sleep 0.3; tail -c +4 $TMP/s.csv; } |
	pebs-import -o $TMP/x.pebs &&
pebs-decode -f csv --fields time,addr $TMP/x.pebs
