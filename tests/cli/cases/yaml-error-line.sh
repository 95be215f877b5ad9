# A YAML input that is not UTF-8 or has a control character: --merge names
# the line of the bad byte (libyaml gives only its offset), in pebs-c2c
# and in pebs-hist
cd $TMP
printf 'pebs_c2c: 2\ntopology: {}\nmaps:\n  - pid: "1"\n    path: "caf\351"\n' >c.yaml
pebs-c2c --merge c.yaml >/dev/null
echo "rc $?"
printf 'pebs_c2c: 2\ntopology: {}\n\n\n# \001\n' >c2.yaml
pebs-c2c --merge c2.yaml >/dev/null
echo "rc $?"
printf 'pebs_hist: 1\r\nfield: lat\r\nby: event\r\ngroups:\r\n- group: "a\001"\r\n' >h.yaml
pebs-hist --merge h.yaml
echo "rc $?"
printf 'pebs_hist: 1\nfield: lat\nby: event\ngroups:\n- group: "a"\n  count: 1\n  values:\n  - [5, 1] # \377\n' >h2.yaml
pebs-hist --merge h2.yaml
echo "rc $?"
# a map path as !!binary (what pebs-c2c writes for bytes that are not
# UTF-8) must be base64 of bytes without NUL
for v in 'L2Fi$' 'L2E' 'L2FiYw=x' 'L2EAYg=='; do
	printf 'pebs_c2c: 2\ntopology: {}\nmaps:\n  - pid: "1"\n    start: "0x1"\n    end: "0x2"\n    path: !!binary "%s"\n' "$v" >b.yaml
	pebs-c2c --merge -f yaml b.yaml | grep -a path:
	echo "rc $?"
done
printf 'pebs_c2c: 2\ntopology: {}\nmaps:\n  - pid: "1"\n    start: "0x1"\n    end: "0x2"\n    path: !!binary |\n      L29wdC9jYWbpL2J/\n      aW4vcHJvZw==\n' >b.yaml
pebs-c2c --merge -f yaml b.yaml | grep -a path:
