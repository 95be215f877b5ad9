# A perf.data of RTM aborts with PERF_SAMPLE_TRANSACTION (pipe layout,
# generated: flags TX|SYNC, the same with XABORT code 0x2a, TX|CON|CAP-READ
# with code 0xff, EL): the import stores the TSX tuning field (abort flags
# in bits 39:32) and an abort code as the AX bits it came from (rax, flag
# bit 0 clear); the export writes TRANSACTION again (the event recorded it)
# and a second import gives the same columns.
pebs-import -f perf $TD/perf/gen-transaction.perf.data -o $TMP/a.pebs &&
pebs-decode --fields tsx,rax,flags $TMP/a.pebs > $TMP/a.txt && cat $TMP/a.txt &&
pebs-decode -f perf $TMP/a.pebs -o $TMP/b.data &&
pebs-import -f perf $TMP/b.data -o $TMP/b.pebs &&
pebs-decode --info $TMP/b.pebs | grep -E '^      sample_type:' &&
pebs-decode --fields tsx,rax,flags $TMP/b.pebs | cmp - $TMP/a.txt &&
echo same
