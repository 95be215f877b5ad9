# A file name is shown in messages as a name from an input is: a line end
# in it becomes '?' like any control, so that a name found by find(1) or a
# glob ("x\npebs-hist: ...") cannot start a line that passes for another
# message; each message is one line.  Names with spaces, a leading dash
# (after -- or as ./-x) and - for standard input work as any.  stderr
# through cat -v: a raw control would read ^[ here.
f=$PWD/$TD/good/filter-hist-2k.pebs
cd $TMP
printf 'not pebs\n' >"bad
pebs-hist: fake.pebs"
cp "$f" "a b.pebs"
cp "$f" ./-x.pebs
{
pebs-decode -f csv "no
such: fake"; echo "rc=$?"
pebs-hist -f csv "bad
pebs-hist: fake.pebs"; echo "rc=$?"
pebs-filter -c true "bad
pebs-hist: fake.pebs"; echo "rc=$?"
pebs-c2c -f csv "$(printf 'no\033[2Jsuch')"; echo "rc=$?"
pebs-import -o o.pebs "$(printf 'no\nsuch\t.csv')"; echo "rc=$?"
pebs-hist --merge "no
such.yaml"; echo "rc=$?"
pebs-decode -f csv -o "nodir
/x.csv" "a b.pebs"; echo "rc=$?"
pebs-gen -n 10 -o "nodir
/x.pebs"; echo "rc=$?"
} 2>&1 | cat -v
# spaces, a leading dash, standard input
pebs-filter -c true "a b.pebs" -- -x.pebs ./-x.pebs - <"$f"
pebs-hist -f csv -- -x.pebs | head -2
pebs-decode -f csv --no-header - <./-x.pebs | wc -l
