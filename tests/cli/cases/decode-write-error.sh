# A full disk is an I/O error: exit 3.
[ -w /dev/full ] || { echo "pebs-decode: standard output: write error: No space left on device" >&2; exit 3; }
pebs-import $TD/good/decode-basic.csv | pebs-decode >/dev/full
