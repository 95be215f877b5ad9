# A row over 1 MiB (1048576 bytes) is bad input, named by the line where it
# starts: a binary file, or /dev/zero, is refused after 1 MiB instead of
# being read into memory.  The rows before it are written, exit 1; of
# /dev/zero, which had no header, nothing (no .pebs of no samples).
pebs-import /dev/zero >$TMP/z.pebs
echo "rc=$?"
wc -c <$TMP/z.pebs
{ printf 'time,sym\n1,x\n2,"'; head -c 1048576 /dev/zero | tr '\0' '\n'
  printf '"\n3,x\n'; } >$TMP/long.csv || exit 9
pebs-import $TMP/long.csv 2>&1 >$TMP/l.pebs | sed "s|$TMP|TMP|"
pebs-decode --fields time $TMP/l.pebs
# exactly 1 MiB, its line end not counted, is fine
{ printf 'time,sym\n1,'; head -c 1048574 /dev/zero | tr '\0' A
  printf '\n2,x\n'; } | pebs-import | pebs-decode --fields time
