# An input that is not a .pebs stream is named for what it is where that
# is plain, and the hint fits it: a memory-access trace is replayed by
# pebs-capture --trace; the SVG and HTML reports are read by no tool; only
# a CSV (a header of comma-separated names) is for pebs-import; other text
# is just text.  Exit 1 each time, from pebs-decode and the other readers.
cd $TMP || exit 9
cp $OLDPWD/$TD/good/trace-basic.txt trace.txt
pebs-gen -n 50 -o g.pebs 2>/dev/null || exit 9
pebs-hist -f svg g.pebs >h.svg || exit 9
pebs-c2c -f svg g.pebs >c.svg || exit 9
pebs-c2c -f html g.pebs >c.html || exit 9
printf '<html><body></body></html>\n' >bare.html
printf '<svg xmlns="http://www.w3.org/2000/svg"/>\n' >bare.svg
printf 'time,cpu,lat\n1,0,30\n' >s.csv
printf 'Some notes\nabout a run\n' >notes.txt
printf 'a b c\n1 2 3\n' >spaces.txt
for f in trace.txt h.svg c.svg c.html bare.html bare.svg s.csv notes.txt \
	spaces.txt; do
	pebs-decode $f >/dev/null; echo "pebs-decode rc=$?"
done
for t in hist c2c filter; do
	for f in trace.txt c.html notes.txt; do
		if [ $t = filter ]; then set -- "lat > 0"; else set --; fi
		pebs-$t "$@" $f >/dev/null; echo "pebs-$t rc=$?"
	done
done
