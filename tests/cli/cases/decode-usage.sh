pebs-decode -f xml </dev/null; echo "rc=$?"
pebs-decode -j x </dev/null; echo "rc=$?"
pebs-decode --bogus 2>&1 | head -1; echo "rc=$?"
