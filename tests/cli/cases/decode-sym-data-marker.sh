# data_sym of a static variable that starts where a size-0 global marker
# does (__bss_start, _edata; gcc's completed.0 shares __TMC_END__'s): its
# first byte read [unknown], since libdwfl prefers the global marker, while
# the next byte read first_bss+0x4.  Both bytes name the variable.
printf 'static int first_bss[8];\nint main(void) { return first_bss[1]; }\n' \
	>$TMP/m.c &&
cc -O0 -nostartfiles -e main -no-pie -o $TMP/m $TMP/m.c &&
a=$((0x$(nm $TMP/m | grep ' first_bss$' | cut -d' ' -f1))) &&
nm $TMP/m | grep -q "^$(printf %016x $a) B __bss_start\$" &&
{ echo time,cpu,pid,tid,event,ip,addr,lat
  printf '1,1,5,5,load-latency,0x401000,0x%x,1\n' $a
  printf '2,1,5,5,load-latency,0x401000,0x%x,1\n' $((a + 4)); } >$TMP/m.csv &&
pebs-import --meta maps.0.pid=5 --meta maps.0.start=0x400000 \
	--meta maps.0.end=0x$(printf %x $(((a + 4096) & ~4095))) \
	--meta maps.0.pgoff=0 --meta maps.0.path=$TMP/m -o $TMP/m.pebs \
	$TMP/m.csv &&
pebs-decode -f csv --fields data_sym $TMP/m.pebs
