# Raw events on the profiles that do PEBS on every counter (icl, icx, spr:
# PMU_FL_PEBS_ALL) take Linux core.c's main constraint table when ds.c's
# PEBS table does not list them.  icl: 0x03-0x0A, 0x1F-0x28, 0x32,
# 0x48-0x54, 0x60-0x8B, 0xA3 (but umasks 0x04, 0x10, 0x14), 0xA8-0xB0,
# 0xB7-0xBD, 0xD0-0xE6, 0xEF, 0xF0-0xF4 on PMC0-3 (0xB1 is free);
# spr: 0x01A3/0x02A3/0x08A3 and 0xD0-0xDF on PMC0-3, 0x04A4/0x08A4,
# 0x02CD and 0xCE on PMC0 (intel_icl/spr_event_constraints)
plan() { pebs-capture --plan "$@" | grep -E '^  (name|counter):' |
	sed -n '/name: r/{N;s/\n */ /;p}'; }
plan --uarch icl -C 0 -e r01a8 -e r01b1 -e r01d5 -e r01f1 -e r04a3 \
	-e r01e6 &&
plan --uarch icx -C 0 -e r0108 -e r0120 -e r14a3 -e r0148 -e r0ca3 &&
plan --uarch spr -C 0 -e r01a3 -e r10a3 -e r04a4 -e r01d5 -e r01df &&
# no assignment: the fifth of them finds PMC0-3 taken
{ pebs-capture --plan --uarch icl -e r01a8 -e r01b0 -e r01d5 \
	-e r01f1 -e r01e6 || echo "rc=$?"; } &&
{ pebs-capture --plan --uarch icx -e r0160 -e r018b -e r01ef \
	-e r01f4 -e r01b7 || echo "rc=$?"; } &&
{ pebs-capture --plan --uarch spr -e r01ce -e r08a4 || echo "rc=$?"; } &&
{ pebs-capture --plan --uarch spr -e r01d5 -e r01da -e r01df \
	-e r02a3 -e r08a3 || echo "rc=$?"; }
