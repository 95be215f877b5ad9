# Accesses that cross a line end, when only one of the two lines is in
# the report.  tid 1 stores 8 bytes at 0x3c of line 0x7f0000001000 (no
# HITM: not a line of the report), tid 2 stores and loads, with HITMs,
# the first bytes of the next line.  Line 0x7f0000001040's texts said
# what runs into it only when the line before had results (a HITM, or
# --show-all); now they say it in every format, and --merge of parts
# that split the two lines gives the whole.  The other way round (tid 3's
# accesses from 0x3c of line 0x7f0000002000, listed, run into a line of
# tid 4's stores without HITM) the line they start on says where they run.
cd $TMP || exit 9
{
	echo time,cpu,pid,tid,event,ip,addr,lat,dsrc
	t=1000
	for i in 1 2 3 4 5; do
		echo "$((t += 7)),0,100,1,precise-store,0x401000,0x7f000000103c,0,0x80184"
		echo "$((t += 7)),1,100,2,precise-store,0x401040,0x7f0000001040,0,0x80184"
		echo "$((t += 7)),1,100,2,load-latency,0x401140,0x7f0000001040,200,0x10668800842"
		echo "$((t += 7)),2,100,3,precise-store,0x402000,0x7f000000203c,0,0x80184"
		echo "$((t += 7)),2,100,3,load-latency,0x402100,0x7f000000203c,200,0x10668800842"
		echo "$((t += 7)),3,100,4,precise-store,0x402040,0x7f0000002040,0,0x80184"
	done
} > s.csv
pebs-import -f csv -o s.pebs s.csv || exit 9
pebs-c2c --access-size 8 s.pebs | grep -E '^(Line|  verdict:|  evidence:)'
in='samples of line 0x7f0000001000 run into 0x00-0x03 of this one'
out='past the line end into line 0x7f0000002040'
for f in yaml csv html svg; do
	pebs-c2c --access-size 8 -f $f s.pebs > r.$f || exit 9
	echo "$f: $(grep -c "$in" r.$f) $(grep -c 'tid 1 on the line before' r.$f) $(grep -c "$out" r.$f)"
done
# the same texts with the line before listed, and with it not listed
# though it has a HITM (one, below --min-hitm 2)
pebs-c2c --access-size 8 --show-all s.pebs | grep -c "$in"
sed -i '2s/precise-store,\(.*\),0,0x80184$/load-latency,\1,200,0x10668800842/' s.csv
pebs-import -f csv s.csv | pebs-c2c --access-size 8 --min-hitm 2 |
	grep -E '^(Line|  evidence:)'
# --merge of a part with each line == the whole
grep -v ',0x7f000000104' s.csv > a.csv
{ head -1 s.csv; grep ',0x7f000000104' s.csv; } > b.csv
for p in a b; do
	pebs-import -f csv $p.csv | pebs-c2c --access-size 8 -f yaml -o $p.yaml || exit 9
done
pebs-import -f csv s.csv -o s.pebs || exit 9
for f in text yaml; do
	pebs-c2c --access-size 8 -f $f s.pebs > whole.$f &&
	pebs-c2c --merge --access-size 8 -f $f a.yaml b.yaml > merged.$f &&
	cmp whole.$f merged.$f && echo "$f: merged == whole, $(grep -c "$in" merged.$f) cross" || exit
done
