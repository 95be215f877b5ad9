# --level on every tool that writes .pebs: zstd's fast levels (-1 to -7)
# give larger files with the same samples; a level out of range, or on
# output that is not .pebs, is a usage error (exit 2).
cd $TMP || exit 9
pebs-gen -n 20000 --seed 2 -o d.pebs || exit 9
pebs-gen -n 20000 --seed 2 --level -1 -o f.pebs || exit 9
pebs-decode -f csv --fields all d.pebs > d.csv
pebs-decode -f csv --fields all f.pebs | cmp - d.csv && echo "gen -1: same samples"
[ $(stat -c %s f.pebs) -gt $(stat -c %s d.pebs) ] && echo "gen -1: larger"
pebs-decode -f pebs --level -7 d.pebs > f7.pebs
pebs-decode -f csv --fields all f7.pebs | cmp - d.csv && echo "decode -f pebs --level -7: same samples"
pebs-decode -f pebs --level 19 f.pebs > s.pebs
pebs-decode -f csv --fields all s.pebs | cmp - d.csv && echo "decode -f pebs --level 19: same samples"
[ $(stat -c %s s.pebs) -lt $(stat -c %s f.pebs) ] && echo "level 19: smaller than -1"
pebs-filter 'lat > 300' d.pebs | pebs-decode -f csv --fields all > m.csv
pebs-filter --level -2 'lat > 300' d.pebs | pebs-decode -f csv --fields all | cmp - m.csv && echo "filter --level -2: same samples"
# every block matches: copied as is without --level, encoded at -1 with it
pebs-filter 'lat >= 0' d.pebs -o all.pebs
pebs-filter --level -1 'lat >= 0' d.pebs -o allf.pebs
cmp -s all.pebs allf.pebs || echo "filter --level -1: blocks encoded anew"
pebs-decode -f csv --fields all allf.pebs | cmp - d.csv && echo "filter --level -1: all samples"
pebs-decode -f csv d.pebs | pebs-import --level -4 -o i.pebs && pebs-decode -f csv i.pebs | cmp - <(pebs-decode -f csv d.pebs) && echo "import --level -4: same samples"
pebs-gen -n 1 --level -8 -o x.pebs; echo "rc $?"
pebs-gen -n 1 --level 23 -o x.pebs; echo "rc $?"
pebs-gen -n 1 --level 0 -o x.pebs; echo "rc $?"
pebs-import --level +3 d.csv -o x.pebs; echo "rc $?"
pebs-decode --level 3 d.pebs; echo "rc $?"
pebs-filter -c --level 3 'lat > 1' d.pebs; echo "rc $?"
pebs-filter -f csv --level 3 'lat > 1' d.pebs; echo "rc $?"
pebs-capture --probe --level 3; echo "rc $?"
# a capture at a fast level: the same samples as at the default
PEBS_PROGRESS=0 pebs-capture --workload false-sharing -e load-latency -o c1.pebs 2>/dev/null || exit 9
PEBS_PROGRESS=0 pebs-capture --workload false-sharing -e load-latency --level -3 -o c3.pebs 2>/dev/null || exit 9
pebs-decode -f csv --fields all c3.pebs | cmp - <(pebs-decode -f csv --fields all c1.pebs) && echo "capture --level -3: same samples"
[ $(stat -c %s c3.pebs) -gt $(stat -c %s c1.pebs) ] && echo "capture --level -3: larger"
