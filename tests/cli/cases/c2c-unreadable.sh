# Inputs of the wrong type (a CSV, a YAML result without --merge, a CSV
# with --merge): the error, exit 1, and no report when no input could be
# read at all (an empty one read like a run without contention), nor is
# -o's file created; with a readable input beside them, the report of
# what was read, still exit 1.
cd $TMP || exit 9
pebs-import -f csv $OLDPWD/$TD/good/c2c-sharing.csv -o s.pebs || exit 9
pebs-c2c -f yaml s.pebs >r.yaml || exit 9
cp $OLDPWD/$TD/good/c2c-sharing.csv in.csv
for args in "in.csv" "r.yaml" "-f yaml in.csv r.yaml" "--merge in.csv"; do
	echo "== pebs-c2c $args"
	pebs-c2c $args | wc -l; echo "rc ${PIPESTATUS[0]}"
done
pebs-c2c -o out.txt in.csv; echo "rc $?, out.txt $([ -e out.txt ] ||
	echo not) created"
echo "== with a readable input"
pebs-c2c -f csv in.csv s.pebs | head -n 1 | cut -c1-40; echo "rc ${PIPESTATUS[0]}"
pebs-c2c --merge -f csv in.csv r.yaml | head -n 1 | cut -c1-40
echo "rc ${PIPESTATUS[0]}"
echo "== a result cut after its first cell: that cell is reported"
printf 'pebs_c2c: 2\ntopology: {}\ndsrc: [0x10668800842]\nthreads: [[100, 1]]\nips: [0x401000]\nother: []\ncells:\n  - "7f0000001000,0,0,0,1,10,5"\n  - [1, 2]\n' >cut.yaml
pebs-c2c --merge -f csv cut.yaml | cut -d, -f1-6; echo "rc ${PIPESTATUS[0]}"
