# Register snapshots only with --regs: the plan asks adaptive PEBS for
# the GPR group (DATA_CFG 0x3 instead of 0x1), and a capture keeps the
# simulator's registers (RFLAGS 0x202, R8 = cpu, R9 = tid, R10 = pid)
# on a fixed format (skx) and an adaptive one (icl); without --regs the
# register fields are 0.
pebs-capture --plan --uarch icl -e load-latency --regs | grep -B1 -A2 'DATA_CFG'
for u in skx icl; do
	for r in "" --regs; do
		echo "== $u $r"
		pebs-capture -b sim --uarch $u --workload false-sharing \
			--seed 1 -e load-latency -c 997 -d 1 $r 2>/dev/null |
			pebs-decode -f csv --fields cpu,tid,pid,rflags,r8,r9,r10 |
			head -4
	done
done
# The perf backend has no registers to keep: refused, not ignored.
pebs-capture -b perf --regs -d 0.1 -o $TMP/x.pebs; echo "rc $?"
