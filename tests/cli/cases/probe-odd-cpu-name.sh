# The CPU's model name is the machine's text (a hypervisor sets what it
# likes): bytes of no valid UTF-8 sequence read U+FFFD, where libyaml
# refused the name (exit 3, "YAML output: expected SCALAR, ...", the
# document cut), and a name that would read as another type is quoted
for n in 'QEMU Xeon\351 \377' 'a\300\257b' yes Null 0x10 1e3 2001-12-14 \
	12:30 .inf '12th Gen Intel(R) Core(TM)'; do
	rm -rf "$TMP/r"
	cp -r "$TD/probe/skx-root" "$TMP/r"
	sed "s/^model name.*/model name\t: $(printf "$n")/" \
		"$TD/probe/skx-root/proc/cpuinfo" > "$TMP/r/proc/cpuinfo"
	PEBS_PROBE_ROOT=$TMP/r pebs-capture --probe > "$TMP/out"
	echo "exit $?: $(grep -a -m1 '^  name:' "$TMP/out")"
done
