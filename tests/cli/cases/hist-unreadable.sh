# No readable input: no histogram at all (an empty one would read as
# inputs without samples, and its YAML would merge as such), -o's file
# not created; exit 1 or 3 as before.  A readable input beside a bad one
# still gets its histogram; a .pebs without samples is read.
hdr=$(cd $TD/good && pwd)/import-header-only.csv
cd $TMP || exit 9
printf 'time,lat\n1,5\n' > s.csv
pebs-hist s.csv; echo "rc=$? lines above: 0"
pebs-hist -f yaml -o h.yaml nonexistent.pebs; echo "rc=$?"
[ -e h.yaml ] && echo "h.yaml created" || echo "no h.yaml"
pebs-import s.csv > s.pebs
pebs-hist -f csv s.csv s.pebs; echo "rc=$?"
pebs-import "$hdr" | pebs-hist -f csv; echo "rc=$?"
pebs-hist -f yaml s.pebs > r.yaml
pebs-hist --merge -f csv s.csv; echo "rc=$?"
pebs-hist --merge -f csv r.yaml nonexistent.yaml; echo "rc=$?"
