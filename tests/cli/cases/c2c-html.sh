# A self-contained HTML report: heat maps as inline SVG, nothing fetched.
pebs-import -f csv $TD/good/c2c-sharing.csv | pebs-c2c -f html > $TMP/r.html &&
grep -c '<svg' $TMP/r.html &&
grep -cE '(src|href)="http' $TMP/r.html
grep -o 'class="fix"><b>Fix:</b> [^<]*' $TMP/r.html
