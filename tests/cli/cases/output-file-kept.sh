# -o FILE is replaced only by a run with output.  One that read nothing (a
# missing, empty or not-.pebs input, a CSV that cannot be read, an
# expression refused at the first segment) exits with its error and leaves
# an existing FILE as it was, bytes and mode, and creates none; a damaged
# input's readable part is written (exit 1); a FILE that is not a regular
# file (/dev/stdout) is written as a stream; a write error keeps FILE, as
# does a failed run on a FILE with a name near NAME_MAX; no temporary is
# left behind.
cd $TMP || exit 9
pebs-gen -n 3000 --block 1000 -o good.pebs || exit 9
printf 'time,lat\n1000,5\n' | pebs-import -f csv -o tsc.pebs || exit 9
: >empty.pebs
echo 'not a capture' >text.pebs
off=$(grep -obUa BLCK good.pebs | sed -n 3p | cut -d: -f1)
head -c $((off + 50)) good.pebs >cut.pebs
printf 'old\n' >res && chmod 640 res && cp -p res keep || exit 9
kept() {
	"$@" -o res 2>/dev/null
	echo "rc=$? $*: $(cmp -s res keep && stat -c %a res || echo REPLACED)"
	cp -p keep res
}
for f in missing.pebs empty.pebs text.pebs; do
	kept pebs-decode -f csv $f
	kept pebs-decode -f pebs $f
	kept pebs-decode -f perf $f
	kept pebs-filter 'lat > 100' $f
	kept pebs-filter -f csv 'lat > 100' $f
done
kept pebs-filter 'lat > 1 and t >= 1s' tsc.pebs
kept pebs-import -f csv missing.csv
kept pebs-import text.pebs
pebs-decode missing.pebs -o new.csv 2>/dev/null
pebs-filter 'lat > 1' missing.pebs -o new.pebs 2>/dev/null
ls new.csv new.pebs 2>&1 | sed 's/^ls: //'
# what was readable replaces FILE
pebs-decode -f csv --fields time cut.pebs -o res 2>/dev/null
echo "rc=$? decode cut: $(wc -l <res) lines"
cp -p keep res
pebs-filter 'lat >= 0' cut.pebs -o res 2>/dev/null
echo "rc=$? filter cut: $(pebs-decode -f csv --no-header res | wc -l) samples, mode $(stat -c %a res)"
printf 'time,lat\n1,2\n3,4\nx,5\n' >bad.csv
pebs-import bad.csv -o res 2>/dev/null
echo "rc=$? import bad row: $(pebs-decode -f csv --no-header res | wc -l) samples"
# an empty result replaces FILE after a success only
pebs-gen -n 0 -o none.pebs && pebs-decode --no-header none.pebs -o res
echo "rc=$? no samples: $(wc -c <res) bytes"
cp -p keep res
# a write error (here past a file size limit: SIGXFSZ is not left to
# kill the tool, which said nothing and left its temporary) keeps FILE
(ulimit -f 8; pebs-decode -f csv good.pebs -o res) 2>&1
echo "rc=$? write error: $(cmp -s res keep && stat -c %a res || echo REPLACED)"
# a name of 250 bytes: the temporary's name is cut to fit NAME_MAX (it was
# too long, and FILE was written in place, so truncated by a failed run)
long=$(printf 'x%.0s' $(seq 250))
cp -p keep $long
pebs-decode -f csv missing.pebs -o $long 2>/dev/null
echo "rc=$? long name: $(cmp -s $long keep && echo kept || echo REPLACED)"
pebs-decode -f csv --fields time good.pebs -o $long
echo "rc=$? long name: $(wc -l <$long) lines"
rm -f $long
# streams
pebs-filter -f csv --fields lat 'lat > 0' good.pebs -o /dev/stdout | wc -l
pebs-decode -f pebs good.pebs -o /dev/stdout | pebs-decode --fields lat | wc -l
pebs-decode missing.pebs -o /dev/null; echo "rc=$? /dev/null"
echo "temporaries: $(ls -A | grep '^\.' | grep -vc '^\.\(out\|err\)$')"
