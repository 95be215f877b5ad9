# -o "" names no file: every tool refuses it before writing anything, as
# a missing directory (exit 3).  stat("") said ENOENT as of a missing
# FILE, so the output went to a temporary "..XXXXXX" here that was never
# renamed ("cannot replace it with the output, left in ..XXXXXX").
cd $TMP || exit 9
pebs-gen -n 10 --seed 1 >in.pebs || exit 9
pebs-decode -f csv in.pebs >in.csv || exit 9
mkdir w && cd w || exit 9
pebs-gen -n 10 -o ""; echo "gen rc=$?"
pebs-decode -o "" ../in.pebs; echo "decode rc=$?"
pebs-hist -o "" ../in.pebs; echo "hist rc=$?"
pebs-c2c -o "" ../in.pebs; echo "c2c rc=$?"
pebs-filter -o "" 'lat > 0' ../in.pebs; echo "filter rc=$?"
pebs-import -o "" ../in.csv; echo "import rc=$?"
pebs-capture --probe -o ""; echo "probe rc=$?"
pebs-capture --plan --uarch skl -e load-latency -o ""; echo "plan rc=$?"
pebs-capture --workload streaming -o ""; echo "capture rc=$?"
ls -A; echo "(nothing left behind)"
