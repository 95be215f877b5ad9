# A file given to the wrong mode is named for what it is: a YAML result
# of pebs-c2c or pebs-hist read as .pebs (--merge forgotten) hints
# --merge, exit 1; a .pebs (or perf.data) file given to --merge is refused
# before the YAML parser sees its first byte, exit 2.  Reports (stdout)
# are not the point here.
cd $TMP || exit 9
pebs-gen -n 2000 -o g.pebs || exit 9
pebs-c2c -f yaml g.pebs >a.yaml && pebs-hist -f yaml g.pebs >h.yaml || exit 9
pebs-c2c a.yaml >/dev/null; echo "rc=$?"
pebs-hist h.yaml >/dev/null; echo "rc=$?"
pebs-decode a.yaml; echo "rc=$?"
pebs-decode <h.yaml; echo "rc=$?"
cat h.yaml | pebs-filter 'lat > 0' -c; echo "rc=$?"
pebs-c2c --merge g.pebs >/dev/null; echo "rc=$?"
pebs-hist --merge g.pebs >/dev/null; echo "rc=$?"
pebs-c2c --merge a.yaml - <g.pebs >/dev/null; echo "rc=$?"
pebs-hist --merge $OLDPWD/$TD/perf/skx-pipe.perf.data 2>&1 >/dev/null |
	sed 's|^pebs-hist: .*/|pebs-hist: |'; echo "rc=$?"
