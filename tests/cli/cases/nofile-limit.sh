# The tools raise their soft limit of open files toward the hard one (the
# symbolizer holds a descriptor per module with a separate debug file), and
# give a command they run the limit they inherited.
(ulimit -Sn 32 &&
	pebs-capture -d 0.001 -o /dev/null -- sh -c 'echo "command: $(ulimit -Sn)"
		awk "/open files/ { print (\$4 > 32 ? \"tool: raised\" : \"tool: not raised\") }" /proc/$PPID/limits')
echo "rc=$?"
