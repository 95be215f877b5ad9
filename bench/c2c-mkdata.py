#!/usr/bin/env python3
"""Builds pebs-c2c inputs as CSV (pebs-import -f csv turns them into .pebs).

  c2c-mkdata.py sharing   > testdata/good/c2c-sharing.csv   (golden tests)
  c2c-mkdata.py bench N   > /tmp/c2c-bench.csv              (N samples)

The sharing set has one cache line of each kind the verdict knows, with the
answer known by construction (see the comments per line below).
"""
import random
import sys

OP_LOAD, OP_STORE = 0x02, 0x04
LVL_NA, LVL_HIT, LVL_MISS, LVL_L1, LVL_LFB, LVL_L2, LVL_L3 = \
    0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40
LVL_LOC_RAM, LVL_REM_RAM1, LVL_REM_CCE1, LVL_UNC = 0x80, 0x100, 0x400, 0x2000
SNP_NA, SNP_NONE, SNP_HIT, SNP_MISS, SNP_HITM = 0x01, 0x02, 0x04, 0x08, 0x10


def dsrc(op, lvl, snoop, lvlnum=0, remote=0, lock=0):
    return (op | lvl << 5 | snoop << 19 | (lock << 24) | lvlnum << 33 |
            remote << 37)


L1_HIT = dsrc(OP_LOAD, LVL_HIT | LVL_L1, SNP_NONE, 1)
L2_HIT = dsrc(OP_LOAD, LVL_HIT | LVL_L2, SNP_NONE, 2)
LLC_HIT = dsrc(OP_LOAD, LVL_HIT | LVL_L3, SNP_NONE, 3)
LCL_HITM = dsrc(OP_LOAD, LVL_HIT | LVL_L3, SNP_HITM, 3)
# remote HITM as older kernels report it (REM_CCE1, no remote bit)
RMT_HITM = dsrc(OP_LOAD, LVL_HIT | LVL_REM_CCE1, SNP_HITM, 0xb)
# remote HITM with the remote bit and no hops: perf also counts it as
# remote DRAM (the documented deviation; --perf-compat)
RMT_HITM_R = dsrc(OP_LOAD, LVL_HIT | LVL_REM_CCE1, SNP_HITM, 0xb, 1)
LCL_DRAM = dsrc(OP_LOAD, LVL_HIT | LVL_LOC_RAM, SNP_MISS, 0xd)
RMT_DRAM = dsrc(OP_LOAD, LVL_HIT | LVL_REM_RAM1, SNP_MISS, 0xd, 1)
UNC_LOAD = dsrc(OP_LOAD, LVL_HIT | LVL_UNC, SNP_NA)
MISS_LOAD = dsrc(OP_LOAD, LVL_MISS | LVL_L3, SNP_NA, 3)
ST_L1HIT = dsrc(OP_STORE, LVL_HIT | LVL_L1, SNP_NA)
ST_L1MISS = dsrc(OP_STORE, LVL_MISS | LVL_L1, SNP_NA)
ST_NA = dsrc(OP_STORE, LVL_NA, SNP_NA)
ST_LOCKED = dsrc(OP_STORE, LVL_HIT | LVL_L1, SNP_NA, 0, 0, 2)

rows = []
t = [1000]


def s(cpu, pid, tid, ip, addr, lat, ds, n=1):
    for _ in range(n):
        t[0] += 7
        rows.append((t[0], cpu, pid, tid, ip, addr, lat, ds))


def sharing():
    # A 0x7f0000001000: FALSE sharing.  tid 1001 (cpu 0) owns the counter at
    # +0x00, tid 1002 (cpu 1) the one at +0x20: each writes and reads only
    # its own 8 bytes; the HITMs come from the other thread's stores.
    A = 0x7f0000001000
    for i in range(12):
        s(0, 100, 1001, 0x401000, A + 0x00, 0, ST_L1MISS if i % 3 == 0 else ST_L1HIT)
        s(1, 100, 1002, 0x401040, A + 0x20, 0, ST_L1MISS if i % 4 == 0 else ST_L1HIT)
    for i in range(10):
        s(0, 100, 1001, 0x401008, A + 0x00, 180 + 5 * i, LCL_HITM)
        s(1, 100, 1002, 0x401048, A + 0x20, 200 + 4 * i, LCL_HITM)
    s(0, 100, 1001, 0x401008, A + 0x00, 5, L1_HIT, 4)
    # B 0x7f0000002000: TRUE sharing.  A counter at +0x08 written and read
    # by three threads on two nodes (cpus 0-3 node 0, 4-7 node 1).
    B = 0x7f0000002000
    for tid, cpu in ((2001, 2), (2002, 5), (2003, 6)):
        for i in range(6):
            s(cpu, 200, tid, 0x402000, B + 0x08, 0, ST_LOCKED if i % 2 else ST_L1MISS)
        for i in range(8):
            ds = LCL_HITM if cpu < 4 else (RMT_HITM_R if i % 2 else RMT_HITM)
            s(cpu, 200, tid, 0x402010, B + 0x08, 300 + 10 * i + tid % 10, ds)
    # C 0x7f0000003000: MIXED.  A lock word at +0x00 taken by tids 3001 and
    # 3002 (true sharing), plus tid 3003's private counter at +0x30 in the
    # same line (false sharing with the lock).
    C = 0x7f0000003000
    for tid, cpu in ((3001, 0), (3002, 1)):
        for i in range(5):
            s(cpu, 300, tid, 0x403000, C + 0x00, 0, ST_L1HIT)
            s(cpu, 300, tid, 0x403008, C + 0x00, 150 + i, LCL_HITM)
    for i in range(10):
        s(3, 300, 3003, 0x403100, C + 0x30, 0, ST_L1HIT)
        s(3, 300, 3003, 0x403108, C + 0x30, 120 + i, LCL_HITM)
    # D 0x7f0000004000: UNKNOWN, too few samples (2 stores, 3 HITM loads).
    D = 0x7f0000004000
    s(4, 400, 4001, 0x404000, D + 0x10, 0, ST_L1HIT, 2)
    s(5, 400, 4002, 0x404008, D + 0x18, 220, LCL_HITM, 3)
    # E 0x7f0000005000: UNKNOWN, HITM loads by two threads, no store sampled.
    E = 0x7f0000005000
    s(6, 500, 5001, 0x405000, E + 0x00, 250, LCL_HITM, 6)
    s(7, 500, 5002, 0x405000, E + 0x08, 260, LCL_HITM, 6)
    # F 0x7f0000006000: no HITM at all (listed only with --show-all).
    F = 0x7f0000006000
    s(0, 100, 1001, 0x406000, F + 0x00, 4, L1_HIT, 5)
    s(0, 100, 1001, 0x406004, F + 0x08, 14, L2_HIT, 3)
    s(1, 100, 1002, 0x406008, F + 0x10, 40, LLC_HIT, 2)
    s(1, 100, 1002, 0x40600c, F + 0x18, 90, LCL_DRAM, 2)
    s(5, 100, 1002, 0x406010, F + 0x20, 300, RMT_DRAM, 1)
    s(1, 100, 1002, 0x406014, F + 0x28, 0, ST_NA, 1)
    # Samples outside lines: no address, uncached, missed, neither op.
    s(0, 100, 1001, 0x407000, 0, 50, LCL_HITM, 2)
    s(0, 100, 1001, 0x407004, 0, 0, ST_L1HIT, 1)
    s(2, 100, 1001, 0x407008, 0x7f0000007000, 500, UNC_LOAD, 1)
    s(2, 100, 1001, 0x40700c, 0x7f0000007040, 80, MISS_LOAD, 1)
    s(2, 100, 1001, 0x407010, 0x7f0000007080, 0, 0x1, 1)


def bench(n):
    rnd = random.Random(1)
    kinds = [L1_HIT, L1_HIT, L1_HIT, L2_HIT, LLC_HIT, LCL_HITM, RMT_HITM,
             LCL_DRAM, RMT_DRAM, ST_L1HIT, ST_L1HIT, ST_L1MISS]
    for i in range(n):
        ds = rnd.choice(kinds)
        line = 0x7f0000000000 + rnd.randrange(4096) * 64
        tid = 1000 + rnd.randrange(32)
        lat = 0 if ds in (ST_L1HIT, ST_L1MISS) else rnd.randrange(4, 600)
        rows.append((i * 10, tid % 16, 100, tid,
                     0x400000 + rnd.randrange(256) * 4,
                     line + rnd.randrange(8) * 8, lat, ds))


if sys.argv[1] == "sharing":
    sharing()
else:
    bench(int(sys.argv[2]))
w = sys.stdout.write
w("time,cpu,pid,tid,event,ip,addr,lat,dsrc\n")
for r in rows:
    w("%d,%d,%d,%d,%s,0x%x,0x%x,%d,0x%x\n" %
      (r[0], r[1], r[2], r[3], "load-latency" if r[7] & 2 else
       "precise-store", r[4], r[5], r[6], r[7]))
