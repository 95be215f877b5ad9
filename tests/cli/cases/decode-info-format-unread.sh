# --info says the format version only when a segment's header was read:
# not for a HEAD of another major version (refused), nor for a file whose
# header was zeroed and read with --salvage; a sound file says it.
pebs-decode --info $TD/bad/head-major2.pebs | grep -E '^  (segments|format):'
echo "rc=$?"
cd $TMP || exit 9
pebs-gen -n 20000 --block 1000 --seed 2 -o z.pebs || exit 9
cp z.pebs sound.pebs
dd if=/dev/zero of=z.pebs bs=4096 count=1 conv=notrunc 2>/dev/null
pebs-decode --salvage --info z.pebs 2>/dev/null |
	grep -E '^  (segments|format):'
pebs-decode --info sound.pebs | grep -E '^  (segments|format):'
