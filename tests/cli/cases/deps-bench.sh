# scripts/deps.sh --bench asks for what make bench runs beyond the build:
# /usr/bin/time (package time) and python3.  A fake dpkg-query that has
# every package but those two, and a fake id that is not root, so that
# deps.sh lists what is missing instead of installing it.
mkdir -p $TMP/shim
cat >$TMP/shim/dpkg-query <<'X'
#!/bin/sh
for p; do :; done
case $p in time|python3) exit 1 ;; esac
printf 'install ok installed'
X
printf '#!/bin/sh\necho 1000\n' >$TMP/shim/id
chmod +x $TMP/shim/dpkg-query $TMP/shim/id
PATH=$TMP/shim:$PATH scripts/deps.sh; echo rc=$?
PATH=$TMP/shim:$PATH scripts/deps.sh --bench 2>&1; echo rc=$?
PATH=$TMP/shim:$PATH scripts/deps.sh --bogus 2>&1; echo rc=$?
# and make bench runs it so
MAKEFLAGS= make -n --no-print-directory bench | grep deps.sh
