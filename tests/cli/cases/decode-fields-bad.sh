# Unknown fields are usage errors with a suggestion where one is close.
pebs-decode --fields time,latt </dev/null; echo "rc=$?"
pebs-decode --fields zzzzzz </dev/null; echo "rc=$?"
pebs-decode --fields lat,,cpu </dev/null; echo "rc=$?"
pebs-decode --fields '' </dev/null; echo "rc=$?"
pebs-decode -f pebs --fields lat </dev/null; echo "rc=$?"
# perf's names for fields named otherwise here name the field
pebs-decode --fields time,weight </dev/null; echo "rc=$?"
pebs-decode --fields symbol </dev/null; echo "rc=$?"
