# pebs-filter (block skipping, raw copies, column-wise evaluation) against
# awk over the decoded CSV, on a file of 8 blocks
f=$TD/good/filter-hist-2k.pebs
pebs-decode -f csv $f >$TMP/all.csv
check() {
	pebs-filter -f csv "$1" $f >$TMP/got.csv
	awk -F, "NR == 1 || ($2)" $TMP/all.csv >$TMP/want.csv
	if cmp -s $TMP/got.csv $TMP/want.csv; then
		echo "ok   $(($(wc -l <$TMP/got.csv) - 1)) $1"
	else
		echo "FAIL $1"
	fi
}
# fields: 1 time 2 cpu 3 pid 4 tid 5 event 8 lat 9 ins_lat 12 mem 13 snoop
check 'lat > 250' '$8 > 250'
check 'lat in 20..40 or cpu == 3' '($8 >= 20 && $8 <= 40) || $2 == 3'
check 'not (mem in (L1, L2)) and snoop != none' '$12 != "L1" && $12 != "L2" && $13 != "none"'
check 'time < 1001000000' '$1 < 1001000000'
check 'time >= 1001000000 and time < 1002000000' '$1 >= 1001000000 && $1 < 1002000000'
check 'event == "precise-store" or lat >= 0x200' '$5 == "precise-store" || $8 >= 512'
check 'tid >= pid' '$4 >= $3'
check 'cpu in (0, 28..31) and lat != 7' '($2 == 0 || ($2 >= 28 && $2 <= 31)) && $8 != 7'
check 'time > 0' '$1 > 0'
check 'time > 1010000000' '$1 > 1010000000'
