# group names that are not valid UTF-8 get U+FFFD for each bad byte in
# every format (names differing only in such bytes are one group); the
# yaml merges back into the same histogram
cd $TMP
h=time,cpu,pid,tid,event,ip,addr,lat,ins_lat,dsrc,op,mem,snoop
{ echo $h
  printf '100,%s,"\xff",%s\n' 0,1,1 0x1,0x1,5,0,0x268100142,load,L1,none
  printf '101,%s,"\xfe",%s\n' 0,1,1 0x1,0x1,7,0,0x268100142,load,L1,none
  printf '102,%s,"\xe2\x82\xacx",%s\n' 0,1,1 0x1,0x1,9,0,0x268100142,load,L1,none
  printf '103,%s,"c1\xc2\x85\xe2\x80\xa8",%s\n' 0,1,1 0x1,0x1,9,0,0x268100142,load,L1,none
  printf '104,%s,"\xed\xa0\x80",%s\n' 0,1,1 0x1,0x1,9,0,0x268100142,load,L1,none
} | pebs-import -f csv -o w.pebs
pebs-hist -f yaml --by event w.pebs >w.yaml
grep group: w.yaml
pebs-hist --merge -f yaml w.yaml | cmp - w.yaml && echo "merge == whole"
pebs-hist -f csv --by event w.pebs >w.csv
pebs-hist --merge -f csv w.yaml | cmp - w.csv && echo "csv: merge == whole"
cat w.csv
pebs-hist -f svg --by event w.pebs | grep -a '(1)\|(2)'
echo "lines of the svg with a byte 0xfe or 0xff: $(pebs-hist -f svg \
	--by event w.pebs | grep -ac $'[\xfe\xff]')"
