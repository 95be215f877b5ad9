# A latency of 0 is no measurement (stores, events that do not measure
# it): left out of the histogram and counted apart, per group and in all;
# --zeros counts them as the value 0.  A group of only such samples is
# listed in text and yaml, not in csv.  --merge adds the unmeasured counts
# up (parts == whole), and YAML without the key (zeros as values) merges.
# Fields whose 0 is a value (addr, cpu) are unchanged.
cd $TMP
h=time,cpu,pid,tid,event,ip,addr,lat,ins_lat,dsrc,op,mem,snoop
{ echo $h
  echo 1,0,1,1,ld,0x1,0x10,7,0,0x268100142,load,L1,none
  echo 2,0,1,1,ld,0x1,0x20,12,3,0x268100142,load,L1,none
  echo 3,1,1,1,st,0x1,0x30,0,0,0x268100142,store,L1,none
  echo 4,1,1,1,st,0x1,0,0,0,0x268100142,store,L1,none
  echo 5,1,1,1,st,0x1,0x50,0,2,0x268100142,store,L1,none
  echo 6,2,1,1,ld,0x1,0x60,300,0,0x268100142,load,L1,none
} | pebs-import -f csv -o x.pebs
echo "== text"
pebs-hist -f text x.pebs
pebs-hist -f text --by event x.pebs
echo "== text --zeros"
pebs-hist -f text --zeros x.pebs | head -3
echo "== csv (count: the measured samples; st has none)"
pebs-hist -f csv --by event x.pebs
pebs-hist -f csv --by event --percentiles 50 x.pebs
pebs-hist -f csv --by event --percentiles 50 --zeros x.pebs
pebs-hist -f csv --field ins_lat --by cpu --percentiles 0,100 x.pebs
echo "== addr and cpu: 0 is a value"
pebs-hist -f csv --field addr --percentiles 0 x.pebs
pebs-hist -f csv --field cpu --percentiles 0 x.pebs
echo "== yaml"
pebs-hist -f yaml --by event x.pebs | tee e.yaml
pebs-hist -f yaml --zeros x.pebs | grep -E '^(  )?(unmeasured|count|total):|\[0,'
pebs-hist -f svg x.pebs | grep -o '([0-9]* samples[^)]*)'
echo "== merge"
pebs-filter 'cpu < 1' x.pebs >a.pebs
pebs-filter 'cpu >= 1' x.pebs >b.pebs
for by in none event cpu; do
	for z in "" --zeros; do
		pebs-hist -f yaml --by $by $z a.pebs >a.yaml
		pebs-hist -f yaml --by $by $z b.pebs >b.yaml
		pebs-hist -f yaml --by $by $z x.pebs >whole.yaml
		pebs-hist --merge -f yaml $z a.yaml b.yaml | cmp - whole.yaml &&
			echo "by $by${z:+ $z}: merge == whole"
	done
done
# YAML without the key (from before it, or --zeros): value 0 is unmeasured
pebs-hist -f yaml --by event --zeros x.pebs >old.yaml
pebs-hist --merge -f yaml old.yaml | cmp - e.yaml && echo "old yaml: merge == whole"
pebs-hist --merge -f text --by event e.yaml old.yaml | head -2
# refused: unmeasured of a field whose 0 is a value
pebs-hist -f yaml --field addr x.pebs | sed 's/^  count: 6$/  count: 6\n  unmeasured: 1/' |
	pebs-hist --merge -f csv; echo "rc=$?"
printf -- '---\npebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n  unmeasured: x\n  values: []\n' |
	pebs-hist --merge -f csv; echo "rc=$?"
printf -- '---\npebs_hist: 1\nfield: lat\nby: none\ngroups:\n- group: all\n  unmeasured: 0\n  values: []\n' |
	pebs-hist --merge -f csv; echo "rc=$?"
