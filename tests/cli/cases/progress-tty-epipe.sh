# A reader whose output pipe closes (head) exits 0 quietly, erasing its
# progress line first: the shell's next output starts a clean line.
# How far it read when the pipe closed varies: numbers and their units
# (kB or MB, k or M samples) are masked.
pebs-gen -n 300000 --seed 1 -o $TMP/a.pebs || exit 9
for t in "pebs-decode" "pebs-filter load"; do
	script -qec "PEBS_PROGRESS_AFTER=0 $t $TMP/a.pebs |
		(sleep 0.5; head -c1 >/dev/null); echo END" /dev/null |
		cat -v | sed -E 's/[0-9]+(\.[0-9]+)?[kKMG]? samples/N samples/g
			s/[0-9]+(\.[0-9]+)? [kKMG]?B/N B/g
			s/[0-9]+(\.[0-9]+)?(%| s)/N\2/g'
	echo
done
