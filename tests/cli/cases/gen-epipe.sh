# A closed pipe downstream ends the writer quietly with status 0.
pebs-gen -n 2M | head -c 100 > /dev/null; echo "rc ${PIPESTATUS[0]}"
