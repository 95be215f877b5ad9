# exact means beyond 2^53; --bins numbers as pebs-filter writes them (no
# octal, nothing too large clamped); percentiles of many digits; --merge
# refuses unknown versions and numbers beyond 64 bits
cd $TMP
h=time,cpu,pid,tid,event,ip,addr,lat,ins_lat,dsrc,op,mem,snoop
r=0,1,1,a,0x1,0x1,5,0,0x268100142,load,L1,none
{ echo $h
  for t in 18446744073709551615 18446744073709551615 100; do echo $t,$r; done
  echo 18446744073709551615,${r/,a,/,b,}
  echo 18446744073709551615,${r/,a,/,b,}
} | pebs-import -f csv -o x.pebs
pebs-hist -f yaml --field time x.pebs | grep -E 'sum|mean'
pebs-hist -f yaml --field time --by event x.pebs | grep -E 'group|max|mean'
pebs-hist -f csv --field time --by event --percentiles 50 x.pebs
pebs-hist -f text --field time --by event x.pebs | grep mean
pebs-hist -f yaml --field time x.pebs >a.yaml
pebs-hist --merge -f yaml a.yaml a.yaml | grep -E '^  (count|sum|mean):'
# bins: leading zeros are decimal, suffixes k, M, G
pebs-hist -f csv --bins 010,020 x.pebs
pebs-hist -f csv --bins 08,09 x.pebs
pebs-hist -f csv --bins 0x4,1k x.pebs
pebs-hist -f yaml --bins linear:4k x.pebs | grep -E 'bins:|lo:'
pebs-hist --bins 18446744073709551616 x.pebs; echo "rc=$?"
pebs-hist --bins linear:99999999999999999999999 x.pebs; echo "rc=$?"
pebs-hist --bins linear:18446744073709552k x.pebs; echo "rc=$?"
pebs-hist --bins 1k,1000 x.pebs; echo "rc=$?"
# percentiles: up to 19 digits
pebs-hist -f csv --percentiles 33.333333333333,99.99999999999999999 x.pebs
pebs-hist --percentiles 33.33333333333333333333 x.pebs; echo "rc=$?"
# merge: version 1 only, numbers within 64 bits
pebs-hist -f yaml x.pebs >l.yaml
sed 's/^pebs_hist: 1/pebs_hist: 2/' l.yaml >v2.yaml
pebs-hist --merge -f csv v2.yaml; echo "rc=$?"
pebs-hist --merge -f csv l.yaml v2.yaml; echo "rc=$?"
sed 's/- \[5, 5\]/- [18446744073709551616, 5]/' l.yaml >big.yaml
pebs-hist --merge -f csv big.yaml; echo "rc=$?"
sed 's/count: 5/count: 18446744073709551616/' l.yaml >bigc.yaml
pebs-hist --merge -f csv bigc.yaml; echo "rc=$?"
pebs-hist -f yaml --by cpu x.pebs | sed 's/"0"/"18446744073709551616"/' |
	pebs-hist --merge -f csv; echo "rc=$?"
sed 's/- \[5, 5\]/- [05, 5]/' l.yaml | pebs-hist --merge -f csv
# counts that add up past 64 bits within a group
printf 'pebs_hist: 1\nfield: lat\nby: none\ngroups:\n  - group: all\n    count: 0\n    values:\n      - [1, 9223372036854775808]\n      - [2, 9223372036854775808]\n' |
	pebs-hist --merge -f csv; echo "rc=$?"
