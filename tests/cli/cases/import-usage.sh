# Usage errors exit 2: unknown format, bad level, unknown option.
pebs-import -f xml </dev/null; echo "rc=$?"
pebs-import --level 0 </dev/null; echo "rc=$?"
pebs-import --level 99 </dev/null; echo "rc=$?"
pebs-import --bogus 2>&1 | head -1; echo "rc=$?"
