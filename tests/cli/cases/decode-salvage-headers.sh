# Salvage does not trust a damaged length: every intact block after a
# damaged block header, a damaged segment magic or header is read, from a
# file and from a pipe; block numbers in messages count from 0.
cd $TMP || exit 9
pebs-gen -n 20000 --block 1000 --seed 3 -o m.pebs || exit 9
cat m.pebs m.pebs >mm.pebs
flip() { cp $1 $3; printf '\xff' | dd of=$3 bs=1 seek=$2 conv=notrunc \
	2>/dev/null; }
flip m.pebs 26990 len.pebs
flip mm.pebs 264641 magic.pebs
flip m.pebs 100 head.pebs
for f in len magic head; do
	pebs-decode --salvage $f.pebs | wc -l
	pebs-decode --salvage <$f.pebs | wc -l
	pebs-decode $f.pebs | wc -l
done
head -c 13935 m.pebs | pebs-decode | wc -l
head -c 951 m.pebs | pebs-decode | wc -l
head -c 263887 m.pebs | pebs-decode | wc -l
