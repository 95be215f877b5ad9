# Usage errors exit 2 with the option named; a bad directory exits 3.
pebs-gen -n abc; echo "rc $?"
pebs-gen --threads 0 -n 1; echo "rc $?"
# a number past 64 bits is one, out of range; the bad value is quoted
pebs-gen -n 99999999999999999999; echo "rc $?"
pebs-gen --seed 18446744073709551616 -n 1; echo "rc $?"
pebs-gen --threads 99999999999999999999 -n 1; echo "rc $?"
pebs-gen --block 70000 -n 1; echo "rc $?"
pebs-gen --level 99 -n 1; echo "rc $?"
pebs-gen extra; echo "rc $?"
pebs-gen -n 10 -o /nonexistent/dir/x.pebs; echo "rc $?"
pebs-gen --version
# 0 is no level nor block size (the defaults are what leaving them out gives)
pebs-gen -n 10 --level 0 -o /dev/null; echo "rc=$?"
pebs-gen -n 10 --block 0 -o /dev/null; echo "rc=$?"
