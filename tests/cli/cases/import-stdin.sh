# No file and "-" both read standard input; -o writes a file.
pebs-import <$TD/good/decode-basic.csv | pebs-decode --fields time,event &&
pebs-import -o $TMP/b.pebs - <$TD/good/decode-basic.csv &&
pebs-decode --fields lat $TMP/b.pebs
