# An event name over 1024 bytes is bad input: file, line and field, exit 1;
# the rows before it and the other inputs are written, the output ends
# properly.
{ printf 'time,event\n1,a\n2,'; head -c 1025 /dev/zero | tr '\0' A
  printf '\n3,c\n'; } >$TMP/long.csv || exit 9
cd $TMP || exit 9
pebs-import long.csv ../${PWD##*/}/long.csv -o o.pebs 2>&1 | sed 's|\.\./[^/]*/|../TMP/|'
echo "rc=$?"
pebs-import long.csv - -o o.pebs <<'CSV'; echo "rc=$?"
time,event
4,d
CSV
pebs-decode --fields time,event o.pebs && pebs-decode --info o.pebs | grep -E '^  (samples|blocks)'
