# 128-byte lines (adjacent-line prefetch pairs): lines 0x...1000 and
# 0x...1040 would merge; the fix pads to 128.
pebs-import -f csv -o $TMP/s.pebs $TD/good/c2c-sharing.csv &&
pebs-c2c --line-size 128 -f csv $TMP/s.pebs | cut -d, -f1-4,15 &&
pebs-c2c --line-size 128 --top 2 $TMP/s.pebs | grep '^  fix'
