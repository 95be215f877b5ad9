# --level changes the compression, not the samples.
pebs-import --level 19 $TD/good/decode-basic.csv | pebs-decode | cmp - $TD/good/decode-basic.csv &&
pebs-import --level 1 $TD/good/decode-basic.csv | pebs-decode | cmp - $TD/good/decode-basic.csv &&
echo same
