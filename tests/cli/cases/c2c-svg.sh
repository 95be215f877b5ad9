# svg: the heat maps of the listed lines as one image, each under its
# line's address, verdict, HITM counts and fix; every element closed
pebs-import -f csv $TD/good/c2c-sharing.csv | pebs-c2c -f svg > $TMP/r.svg &&
cat $TMP/r.svg &&
echo "svg open $(grep -c '<svg' $TMP/r.svg) closed $(grep -c '</svg>' $TMP/r.svg)" &&
echo "text open $(grep -o '<text' $TMP/r.svg | wc -l) closed $(grep -o '</text>' $TMP/r.svg | wc -l)"
