# --info time: first and last are the earliest and the latest sample time
# (the minimum and maximum), not the times of the first and the last
# sample: the man page said "first and last sample times".  The YAML
# names stay (the time range of cli-contract.md); the page now says
# earliest and latest.
cd $TMP || exit 9
printf 'time,pid,tid,ip\n30,7,7,0x401000\n10,7,7,0x401000\n20,7,7,0x401000\n' \
	> a.csv
printf 'time,pid,tid,ip\n5,7,7,0x401000\n40,7,7,0x401000\n25,7,7,0x401000\n' \
	> b.csv
pebs-import --meta time.unit=ns a.csv -o a.pebs || exit 9
pebs-import --meta time.unit=ns b.csv -o b.pebs || exit 9
cat a.pebs b.pebs | pebs-decode --info | sed -n '/^summary:/,$p' |
	grep -E '^  time:' -A2
# the page, as rendered text: what the two fields are
cd "$OLDPWD" || exit 9
awk '/^\.B first$/ { on = 1 } on { print } on && /the$/ { exit }' \
	man/pebs-decode.1 | grep -v '^\.' | tr '\n' ' ' | sed 's/ *$/\n/'
