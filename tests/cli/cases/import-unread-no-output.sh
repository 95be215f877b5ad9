# CSV inputs none of which could be read (missing, a .pebs or perf.data
# file, a header with an unknown column) give no .pebs of zero samples:
# only their messages (exit 3 or 1), as pebs-decode.  An empty input, a
# header alone, a header followed by a bad row, and one readable input
# among unreadable ones still give a valid file.
cp $TD/perf/skx-pipe.perf.data $TMP/p.data && cd $TMP || exit 9
pebs-gen -n 0 -o empty.pebs || exit 9
printf 'foo,lat\n1,2\n' >unknown.csv
: >empty.csv
printf 'time,lat\n' >header.csv
printf 'time,lat\nx,2\n' >badrow.csv
n() { pebs-import -f csv "$@" | pebs-decode -f csv --fields time | wc -l; }
pebs-import -f csv nope.csv | wc -c; echo "missing rc=$?"
pebs-import nope.csv | wc -c; echo "missing (no -f) rc=$?"
pebs-import -f csv empty.pebs | wc -c; echo "pebs rc=$?"
pebs-import -f csv p.data | wc -c; echo "perf.data rc=$?"
pebs-import -f csv unknown.csv | wc -c; echo "unknown column rc=$?"
pebs-import -f csv nope.csv unknown.csv | wc -c; echo "both rc=$?"
n empty.csv; echo "empty rc=$?"
n header.csv; echo "header rc=$?"
n badrow.csv; echo "bad row rc=$?"
n nope.csv empty.csv; echo "missing and empty rc=$?"
pebs-import -f perf nope.data | wc -c; echo "perf missing rc=$?"
