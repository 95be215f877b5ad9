# PEBS_PROGRESS_AFTER that is not a number of seconds keeps the default
# delay (1 s), as an unset one: "abc" and "-1" drew the line at once.  A
# decode of 3000 samples ends before a second, so nothing is drawn.
pebs-gen -n 3000 --seed 1 -o $TMP/a.pebs || exit 9
for v in abc -1 1x; do
	script -qec "PEBS_PROGRESS_AFTER=$v pebs-decode -f csv $TMP/a.pebs > /dev/null" \
		/dev/null | cat -v
	echo "$v: end"
done
