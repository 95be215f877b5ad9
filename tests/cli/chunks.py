#!/usr/bin/env python3
# The chunks of the .pebs stream on standard input, in order, for golden
# cases: MAGIC, HEAD, BLCK, LOST(cpu,time,count), END(samples,blocks,lost);
# INDX and TAIL, whose offsets say nothing of the order, are left out.
import struct
import sys

d = sys.stdin.buffer.read()
p = 0
out = []
while p < len(d):
    if d[p:p + 8] == b"\x89PEBS\r\n\x1a":
        out.append("MAGIC")
        p += 8
        continue
    t = d[p:p + 4].decode("latin1").strip()
    n = struct.unpack("<Q", d[p + 8:p + 16])[0]
    c = d[p + 16:p + 16 + n]
    if t == "LOST":
        t += "(%d,%d,%d)" % (struct.unpack("<I", c[:4]) +
                             struct.unpack("<QQ", c[8:24]))
    elif t == "END":
        t += "(%d,%d,%d)" % struct.unpack("<QQQ", c[:24])
    if t not in ("INDX", "TAIL"):
        out.append(t)
    p += 16 + n + 8
print(" ".join(out))
