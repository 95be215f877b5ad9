# cmdline and gen.* record every option that changes the samples or the
# file: running the recorded command again writes the same bytes
cd $TMP || exit 9
pebs-gen -n 100 --threads 4 --block 30 --level 3 -o a.pebs &&
pebs-decode --info a.pebs | grep -E '^  (cmdline|gen)|^    (seed|threads)' &&
cmd=$(pebs-decode --info a.pebs | sed -n 's/^  cmdline: //p') &&
$cmd >b.pebs && cmp a.pebs b.pebs && echo same
pebs-gen -n 100 | pebs-decode --info | grep -E '^  cmdline|^    threads'
# --threads is the simulated workload's; -j (decode threads elsewhere)
# is refused with a pointer to it
pebs-gen -j 4 -n 1 -o /dev/null; echo "rc=$?"
pebs-gen --help | grep -A1 -e --threads
