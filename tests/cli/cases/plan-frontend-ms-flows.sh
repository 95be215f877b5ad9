# FRONTEND_RETIRED.MS_FLOWS (MSR_PEBS_FRONTEND 0x8, perf's sapphirerapids
# frontend.json): sub=ms_flows on spr, where the kernel's MSR mask is
# 0x7fff1f; refused elsewhere (mask 0x7fff17), also as perf's frontend=0x8
pebs-capture --plan --uarch spr -e frontend:sub=ms_flows |
	grep -E -A2 '^  name: (FRONTEND_RETIRED|MSR_PEBS_FRONTEND)$' &&
pebs-capture --plan --uarch spr -e cpu/event=0xc6,umask=0x1,frontend=0x8/P |
	grep -E '^- spec:|^  frontend:' &&
{ pebs-capture --plan --uarch skl -e frontend:sub=ms_flows || echo "rc=$?"; } &&
{ pebs-capture --plan --uarch icx -e cpu/event=0xc6,umask=0x1,frontend=0x8/P ||
	echo "rc=$?"; } &&
{ pebs-capture --plan --uarch spr -e frontend:sub=ms_flow || echo "rc=$?"; }
