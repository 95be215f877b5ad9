# --fields all: stored columns in id order, then the derived ones.
pebs-import $TD/good/decode-basic.csv | pebs-decode --fields all | head -3
