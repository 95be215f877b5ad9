# Accesses that run past the end of the last line of the address space:
# the texts named "line 0x0" (the line end + line size wrapped to 0) as
# the line they run into, and said "1 bytes".  Now they say the end of
# the address space, and "1 byte".  Line 0x0's own samples (stores at
# 0x8) are not counted as run into from the line before it.
cd $TMP || exit 9
{
	echo time,cpu,pid,tid,ip,addr,op
	for i in $(seq 1 10); do
		echo "$((2 * i)),0,1,1,0x401000,0xfffffffffffffff9,load"
		echo "$((2 * i + 1)),1,1,2,0x401010,0x8,store"
	done
} > s.csv
pebs-import -f csv --meta time.unit=ns -o s.pebs s.csv || exit 9
pebs-c2c --access-size 8 --show-all s.pebs |
	grep -E '^(Line|  verdict:|  evidence:)'
