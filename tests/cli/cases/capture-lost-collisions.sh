# Loads and INST_RETIRED with one period count the same instructions and
# overflow together: on nhm (record format 1) the GLOBAL_STATUS snapshot
# names both counters, the record cannot be split and counts lost once
# per event (the man page says so beside the buffer-full losses), so
# --max-lost 0 exits 4; skx (format 3) gives the record to both events.
for u in nhm skx; do
	ev=r10b; [ $u = skx ] && ev=r81d0
	pebs-capture -b sim --uarch $u --workload mixed -e "$ev" -e r1c0 \
		-c 97 --max-lost 0 -o $TMP/$u.pebs 2>$TMP/err
	echo "$u rc=$?"
	sed 's/lost, [0-9]* bytes, [0-9.]* s, [0-9]* samples\/s/lost, B bytes, S s, R samples\/s/' $TMP/err
done
