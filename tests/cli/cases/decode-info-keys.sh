# --info writes each metadata key so that a YAML reader reads it back as
# that string, and no two as one key.  a's own value goes under "_", and
# a's sub-key "_" was written "_" too: a literal duplicate key.  Plain
# keys 0x10 and 16, 1 and 01 are one number to YAML readers, and the
# later one replaced the other.  Now a sub-key of underscores only gets
# one more ("_" is "__"), and a key a reader would take for a number,
# boolean, null or date is quoted unless it is a decimal as the tools
# write one (no leading 0, at most 15 digits: comm.101 stays 101).
printf 'time,cpu,event\n1,0,x\n' >$TMP/one.csv &&
pebs-import $TMP/one.csv -o $TMP/m.pebs --meta a=1 --meta a._=2 \
	--meta a.__=3 --meta b._=4 --meta x.0x10=a --meta x.16=b \
	--meta y.1=p --meta y.01=r --meta z.true=t --meta z.yes=y \
	--meta z.~=tilde --meta z.2026-01-01=d \
	--meta z.123456789012345=15 --meta z.1234567890123456=16 \
	--meta z.-1=neg --meta z.1e3=e --meta z.null=n --meta z.0=zero &&
pebs-decode --info $TMP/m.pebs | sed -n '/^  a:/,/^summary:/p'
