# Not the record format: message, exit 1.
pebs-decode --fields time $TD/good/decode-basic.csv
echo "rc=$?"
pebs-decode --fields time </dev/null
echo "rc=$?"
