#!/usr/bin/env python3
"""Writes the seed corpus of fuzz/sym.c into fuzz/corpus/sym/ (run from the
repository root; needs cc, objcopy, strip).  Each input is metadata lines,
?PID:ADDR lookups and "@@@ NAME" files (see fuzz/sym.c); the ELF files are
small programs built here with cc, so the committed inputs are what this
wrote once: rerunning it with another compiler gives other bytes."""
import os
import struct
import subprocess
import sys
import tempfile

PROG = r"""
int counter[4] = {1, 2, 3, 4};
static int hidden = 7;
__attribute__((noinline)) int work(int i) { return counter[i & 3] + hidden; }
int main(int argc, char **argv) { (void)argv; return work(argc); }
"""


def sh(*a):
    subprocess.run(a, check=True)


def elf_info(data):
    """(e_type, [(vaddr, offset, filesz, memsz)], {symbol: value}, build-id)"""
    (e_type,) = struct.unpack_from("<H", data, 16)
    phoff, shoff = struct.unpack_from("<QQ", data, 32)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data, 54)
    loads, bid = [], ""
    for i in range(phnum):
        o = phoff + i * phentsize
        p_type, _, off, vaddr, _, filesz, memsz = struct.unpack_from(
            "<IIQQQQQ", data, o)
        if p_type == 1:
            loads.append((vaddr, off, filesz, memsz))
        if p_type == 4:  # PT_NOTE: NT_GNU_BUILD_ID
            at = off
            while at < off + filesz:
                nsz, dsz, nt = struct.unpack_from("<III", data, at)
                nm = at + 12
                desc = nm + ((nsz + 3) & ~3)
                if nt == 3 and data[nm:nm + 3] == b"GNU":
                    bid = data[desc:desc + dsz].hex()
                at = desc + ((dsz + 3) & ~3)
    syms = {}
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
            for i in range(shnum)] if shoff else []
    for s in secs:
        if s[1] in (2, 11):  # SHT_SYMTAB, SHT_DYNSYM
            strs = secs[s[6]]
            for j in range(s[5] // 24):
                name, _, _, _, value, _ = struct.unpack_from(
                    "<IBBHQQ", data, s[4] + j * 24)
                end = data.index(b"\0", strs[4] + name)
                n = data[strs[4] + name:end].decode()
                if n and value:
                    syms.setdefault(n, value)
    return e_type, loads, syms, bid


def maps(n, pid, path, data, bias, bid=True, pgoff_add=0):
    """maps.N.* lines of ELF @data loaded at @bias, as /proc/PID/maps has
    them (one per PT_LOAD, pages)."""
    _, loads, _, b = elf_info(data)
    out = []
    for vaddr, off, _, memsz in loads:
        start = bias + (vaddr & ~0xfff)
        end = (bias + vaddr + memsz + 0xfff) & ~0xfff
        out += [f"maps.{n}.pid={pid}", f"maps.{n}.start={start:#x}",
                f"maps.{n}.end={end:#x}",
                f"maps.{n}.pgoff={(off & ~0xfff) + pgoff_add:#x}",
                f"maps.{n}.path={path}"]
        if bid and b:
            out.append(f"maps.{n}.build_id={b}")
        n += 1
    return out


def lookups(pid, data, bias, names):
    syms = elf_info(data)[2]
    return [f"?{pid}:{bias + syms[s] + d:#x}" for s in names if s in syms
            for d in (0, 4)]


def write(name, lines, files):
    body = ("\n".join(lines) + "\n").encode()
    for fname, fdata in files:
        body += b"@@@ " + fname.encode() + b"\n" + fdata + b"\n"
    with open(os.path.join("fuzz/corpus/sym", name), "wb") as f:
        f.write(body)
    print(f"{name}: {len(body)} bytes")


def main():
    os.makedirs("fuzz/corpus/sym", exist_ok=True)
    t = tempfile.mkdtemp()
    src = os.path.join(t, "p.c")
    with open(src, "w") as f:
        f.write(PROG)

    def cc(out, *flags):
        p = os.path.join(t, out)
        sh("cc", "-Os", *flags, src, "-o", p)
        return p

    def rd(p):
        with open(p, "rb") as f:
            return f.read()

    pie = rd(cc("pie", "-fPIE", "-pie", "-Wl,-z,relro,-z,now"))
    nopie = rd(cc("nopie", "-g", "-no-pie", "-Wl,-z,noseparate-code"))
    stripped = rd(cc("strip", "-s", "-Wl,-z,noseparate-code"))
    lib = rd(cc("lib.so", "-shared", "-fPIC", "-Wl,-z,noseparate-code"))
    dl = cc("dl", "-g", "-Wl,-z,noseparate-code")
    sh("objcopy", "--only-keep-debug", dl, dl + ".debug")
    sh("strip", "--strip-debug", "--strip-unneeded", dl)
    sh("objcopy", "--add-gnu-debuglink=" + dl + ".debug", dl)
    dlbin, dldebug = rd(dl), rd(dl + ".debug")
    bi = cc("bi", "-g", "-Wl,-z,noseparate-code")
    sh("objcopy", "--only-keep-debug", bi, bi + ".debug")
    sh("strip", "-s", bi)
    bibin, bidebug = rd(bi), rd(bi + ".debug")
    bid = elf_info(bibin)[3]

    B = 0x555555554000
    L = 0x7f1234560000
    fn = ["main", "work", "counter", "hidden"]
    comm = ["comm.100=app", "comm.100.101=worker\x1b[31m", "comm.200="]

    write("pie-relro", maps(0, 100, "/bin/app", pie, B) + comm +
          lookups(100, pie, B, fn) + lookups(0, pie, B, fn),
          [("bin/app", pie)])
    write("pie-two-biases", maps(0, 100, "/bin/app", pie, B) +
          maps(4, 100, "/bin/app", pie, L) + lookups(100, pie, L, fn),
          [("bin/app", pie)])
    write("overlap-two-objects", maps(0, 100, "/bin/strip", stripped, B) +
          maps(4, 100, "/lib/libp.so", lib, B + 0x1000) +
          maps(8, 200, "/lib/libp.so", lib, L) +
          lookups(100, lib, B + 0x1000, fn) + lookups(200, lib, L, fn) +
          [f"?100:{B + 0x1100:#x}"],
          [("bin/strip", stripped), ("lib/libp.so", lib)])
    gaps = maps(0, 100, "/bin/app", pie, B)
    gaps = [x for x in gaps if not x.startswith("maps.1.")]
    write("gaps-pgoff-wrap", gaps + [
        "maps.7.pid=100", "maps.7.start=0x7f0000000000",
        "maps.7.end=0x7f0000002000", "maps.7.pgoff=0x100000",
        "maps.7.path=/bin/app",
        "maps.8.pid=100", "maps.8.start=0xfffffffffffff000",
        "maps.8.end=0xffffffffffffffff", "maps.8.pgoff=0x0",
        "maps.8.path=/bin/app",
        "maps.9.pid=100", "maps.9.start=0x2000", "maps.9.end=0x1000",
        "maps.9.pgoff=0xffffffffffffffff", "maps.9.path=/bin/app",
        "maps.10.pid=100", "maps.10.start=0xffffffffffffe000",
        "maps.10.end=0xfffffffffffff000",
        "maps.10.pgoff=0xfffffffffffff000", "maps.10.path=/bin/app",
        "?100:0xfffffffffffff800", "?100:0x7f0000000100"] +
        lookups(100, pie, B, fn), [("bin/app", pie)])
    write("nopie-debug-special", maps(0, 300, "/usr/bin/nopie", nopie, 0) + [
        "maps.5.pid=-1", "maps.5.start=0xffffffff81000000",
        "maps.5.end=0xffffffff82000000", "maps.5.pgoff=0x0",
        "maps.5.path=[kernel.kallsyms]_text",
        "maps.6.pid=300", "maps.6.start=0x7ffff7fc1000",
        "maps.6.end=0x7ffff7fc3000", "maps.6.path=[vdso]",
        "maps.07.pid=300", "maps.07.start=0x7ffff0000000",
        "maps.07.end=0x7ffff0001000", "maps.07.path=//anon",
        "maps.8.pid=300", "maps.8.start=0x7ffff1000000",
        "maps.8.end=0x7ffff1001000", "maps.8.path=relative/lib.so",
        "maps.9.pid=300", "maps.9.start=0x7ffff2000000",
        "maps.9.end=0x7ffff2001000", "maps.9.path=/dev/zero",
        "?300:0xffffffff81001000", "?300:0x7ffff7fc1010"] +
        lookups(300, nopie, 0, fn), [("usr/bin/nopie", nopie)])
    write("stripped-bid-differs", maps(0, 100, "/bin/strip", stripped, B) +
          maps(5, 100, "/bin/strip2", stripped, L, bid=False) +
          ["maps.0.build_id=" + "ab" * 16 + "0" * 8,
           "maps.5.build_id=" + "0" * 40] +
          [f"?100:{B + 0x1100:#x}", f"?100:{L + 0x1100:#x}"],
          [("bin/strip", stripped), ("bin/strip2", stripped)])
    write("debuglink", maps(0, 100, "/bin/dl", dlbin, B) +
          lookups(100, dldebug, B, fn),
          [("bin/dl", dlbin), ("bin/dl.debug", dldebug)])
    write("buildid-debug-file", maps(0, 100, "/bin/bi", bibin, B) +
          lookups(100, bidebug, B, fn),
          [("bin/bi", bibin),
           (f"usr/lib/debug/.build-id/{bid[:2]}/{bid[2:]}.debug",
            bidebug)])
    write("lib-data", maps(0, 400, "/lib/libp.so", lib, L) +
          lookups(400, lib, L, fn) + ["?0:0x0"], [("lib/libp.so", lib)])
    write("workload-ips", [
        "workload.ips.0.ip=0x401000",
        "workload.ips.0.name=fs_worker: load shared.count[id]",
        "workload.ips.1.ip=0x401000", "workload.ips.1.name=dup: first wins",
        "workload.ips.02.ip=4198420", "workload.ips.02.name=: no function",
        "workload.ips.3.ip=0x401020", "workload.ips.3.name=fn:   ",
        "workload.ips.4.ip=junk", "workload.ips.4.name=bad ip",
        "workload.ips.5.ip=0x401030", "workload.ips.5.name=",
        "workload.ips.99999999999999999999.ip=0x1",
        "workload.ips.99999999999999999999.name=f: big n",
        "workload.ips.6.ip=0x401040",
        "workload.ips.6.name=f\x7f\x01\xc3: ctl", "comm.0=sim",
        "?0:0x401000", "?0:0x401014", "?0:0x401020", "?0:0x1"], [])
    write("not-elf-files", [
        "maps.0.pid=1", "maps.0.start=0x1000", "maps.0.end=0x2000",
        "maps.0.path=/text", "maps.1.pid=1", "maps.1.start=0x2000",
        "maps.1.end=0x3000", "maps.1.path=/dir",
        "maps.2.pid=1", "maps.2.start=0x3000", "maps.2.end=0x4000",
        "maps.2.path=/missing\x1b", "maps.3.pid=1", "maps.3.start=0x4000",
        "maps.3.end=0x9000", "maps.3.path=/trunc",
        "?1:0x1800", "?1:0x2800", "?1:0x3800", "?1:0x4800"],
        [("text", b"not an ELF\n"), ("dir/x", b"x"),
         ("trunc", pie[:3000])])


if __name__ == "__main__":
    sys.exit(main())
