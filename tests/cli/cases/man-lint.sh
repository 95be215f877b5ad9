# The man pages render whole: a text line that begins with '.' or "'" is
# read by roff as a request (man/pebs-filter.1 once lost "...)." that way,
# and the words after it), so every such line must be a request the pages
# use; and groff, where installed (groff-base, scripts/deps.sh --test),
# warns of nothing.  Prints each offending line; nothing when clean.
known=' TH SH SS PP LP P IP TP B I BR BI IB IR RB RI SB SM EX EE RS RE TS TE nf fi br sp in ad na ne UR UE MT ME '
for f in man/*.[1-9]; do
	awk -v known="$known" -v f="$f" '
		/^[.'\'']/ {
			line = $0
			sub(/^[.'\''][ \t]*/, "", line)
			if (line == "" || line ~ /^\\"/) next
			split(line, w, /[ \t]/)
			if (index(known, " " w[1] " ") == 0)
				printf "%s:%d: not a request: %s\n", f, NR, $0
		}' "$f"
done
if command -v groff >/dev/null 2>&1; then
	for f in man/*.[1-9]; do
		groff -man -ww -z "$f" 2>&1
	done
fi
echo "man pages checked"
