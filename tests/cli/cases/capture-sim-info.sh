# Metadata a sim capture writes (host and cmdline vary by machine and
# are left out; so are sizes and block counts, which follow the format
# engine and the once-a-second flush).
cd $TMP || exit 9
pebs-capture -b sim --uarch icl --workload true-sharing --seed 2 \
	-e load-latency:ldlat=30 -c 499 -o a.pebs 2>/dev/null || exit 9
pebs-decode --info a.pebs | grep -v -E '^ *(host|cmdline|bytes|bytes_per_sample|blocks|percent_of_file):'
