# A captured front-end event keeps its MSR_PEBS_FRONTEND value: the
# metadata has events.N.frontend (hex, as pebs-import -f perf writes it
# from config1), and pebs-decode -f perf puts it into attr.config1 of
# FRONTEND_RETIRED (it wrote 0, so perf saw no selector), read here from
# the file itself and through the import; exported again it stays.
cd $TMP || exit 9
pebs-capture -b sim --uarch skl --workload frontend --seed 2 -c 499 \
	-e frontend:sub=idq_bubbles,latency=2,width=1 -o a.pebs 2>/dev/null ||
	exit 9
events() { pebs-decode --info "$1" | awk '/^  events:/{p=1; print; next} p && /^  [a-z]/{exit} p'; }
echo "== capture"
events a.pebs
pebs-decode -f perf -o a.data a.pebs || exit 9
# perf.data header: attrs section offset at 24; attr.config1 at 56
off=$(od -An -tu8 -j24 -N8 a.data | tr -d ' ')
echo "== a.data attr.config1: 0x$(od -An -tx8 -j$((off + 56)) -N8 a.data | tr -d ' ')"
pebs-import -f perf -o b.pebs a.data 2>/dev/null || exit 9
echo "== imported"
events b.pebs | grep -E 'name|config|frontend'
pebs-decode -f perf -o b.data b.pebs || exit 9
pebs-import -f perf -o c.pebs b.data 2>/dev/null || exit 9
echo "== exported again"
events c.pebs | grep -E 'config|frontend'
