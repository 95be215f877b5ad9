/*
 * ds_decode.c - the drain's fast record decoder (pebs_ds_decode): the
 * same result as pebs_raw_decode() (lib/raw.c, the plain reference, see
 * formats/raw-records.md), written straight into the batch's columns
 * without the per-record struct copies.  Anything unusual (a record that
 * does not frame, an adaptive record whose groups differ from
 * MSR_PEBS_DATA_CFG, a collision on fmt 1-2 is fine) goes to the plain
 * decoder, which gives the exact error.  tests/unit/ds_decode.c compares
 * the two on every profile; PEBS_DS_PLAIN=1 forces the plain one.
 */
#include <stdlib.h>
#include <string.h>

#include "pebs_ds.h"

static uint64_t ld64(const uint8_t *p, size_t off)
{
	uint64_t v;
	memcpy(&v, p + off, 8);
	return v;
}

static const uint8_t gpr_order[PEBS_REG_COUNT] = {
	PEBS_REG_RFLAGS, PEBS_REG_RIP, PEBS_REG_RAX, PEBS_REG_RCX,
	PEBS_REG_RDX, PEBS_REG_RBX, PEBS_REG_RSP, PEBS_REG_RBP,
	PEBS_REG_RSI, PEBS_REG_RDI, PEBS_REG_R8, PEBS_REG_R9, PEBS_REG_R10,
	PEBS_REG_R11, PEBS_REG_R12, PEBS_REG_R13, PEBS_REG_R14, PEBS_REG_R15,
};

static int plain_forced(void)
{
	static int v = -1;
	if (v < 0) {
		const char *e = getenv("PEBS_DS_PLAIN");
		v = e && *e && strcmp(e, "0") != 0;
	}
	return v;
}

/* The fields of one record that every sample of it shares. */
struct frec {
	uint64_t ip, addr, dse, lat, tsx, time, status;
	uint32_t flags;
	int has_mem;
	const uint8_t *regs;	/* NULL: none */
};

/* Set bits of @m: a loop, not __builtin_popcountll(), which without
 * -mpopcnt is a library call per record. */
static unsigned popc(uint64_t m)
{
	unsigned n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/*
 * The batch's column arrays, loaded once per call: a store through a
 * uint64_t pointer may alias b->n (a size_t) and the pointer array, so
 * writing through b->c64[...] made the compiler reload both for every
 * field of every sample.
 */
struct cols {
	uint64_t *time, *ip, *addr, *dsrc, *dse, *app, *tsx, *phys;
	uint32_t *cpu, *pid, *tid, *ev, *lat, *ins, *fmt, *flags;
	uint64_t *reg[PEBS_REG_COUNT];
};

#define REG_MASK (((1ull << PEBS_REG_COUNT) - 1) << PEBS_COL_REG0)

/* Whether the decoder stores register columns for @cfg into @b. */
static int stores_regs(const struct pebs_raw_config *cfg,
		       const struct pebs_batch *b)
{
	const struct pebs_uarch *u = cfg->uarch;
	int adaptive = (u->features & PEBS_UF_ADAPTIVE) != 0;
	/* Columns every record of this shape leaves zero need no stores
	 * when the batch knows they are zero (dirty bit clear). */
	return (!cfg->drop_regs &&
		(!adaptive || (cfg->data_cfg & PEBS_DATACFG_GPR))) ||
	       (b->dirty & REG_MASK);
}

/* Whether @u writes the 200-byte fixed records of skl and skx. */
static int is_skl(const struct pebs_uarch *u)
{
	return u->pebs_fmt == PEBS_FMT_SKL &&
	       !(u->features & (PEBS_UF_ADAPTIVE | PEBS_UF_INS_LAT));
}

/*
 * The decoder, inlined by pebs_ds_decode() with constant @write_regs and
 * @skl (1: is_skl(), the format every Skylake capture drains): the copy
 * for captures without registers (the default) carries none of their
 * loads, stores and accumulators (with them the loop's other values
 * spill to the stack), and the Skylake copy none of the other formats'
 * tests.
 */
static inline __attribute__((always_inline)) int
decode(const struct pebs_raw_config *cfg, const void *buf, size_t len,
       struct pebs_batch *b, size_t *consumed, struct pebs_raw_stats *st,
       char *err, size_t errlen, const int write_regs, const int skl)
{
	const struct pebs_uarch *u = cfg ? cfg->uarch : NULL;
	const uint8_t *p = buf;
	size_t pos = 0, rsz, expect_fs = 0, n, n0, cap;
	uint64_t enabled, fs_want = 0, fs_mask = ~(0xffffull << 32);
	uint64_t acc_time = 0, acc_ip = 0, acc_addr = 0, acc_dse = 0;
	uint64_t acc_app = 0, acc_tsx = 0, acc_reg[PEBS_REG_COUNT] = { 0 };
	uint32_t acc_lat = 0, acc_ins = 0, acc_ev = 0, acc_flags = 0;
	uint64_t last_dse = 0, last_dsrc = 0, g = 0;
	unsigned last_kind = ~0u, nsamp = 0;
	uint64_t nrec = 0;
	int full = 0;
	uint32_t lazy;
	int adaptive, ids[64], ins_lat, keep_regs, write_phys;
	const uint8_t *order = NULL;
	unsigned fmt;
	struct cols k;

	if (!u || !b || !consumed || !st || (!buf && len) ||
	    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || plain_forced())
		return pebs_raw_decode(cfg, buf, len, b, consumed, st, err,
				       errlen);
	fmt = skl ? PEBS_FMT_SKL : u->pebs_fmt;
	adaptive = skl ? 0 : (u->features & PEBS_UF_ADAPTIVE) != 0;
	if (adaptive) {
		/* One buffer holds one record shape (the kernel drains
		 * before changing DATA_CFG): the fast path takes exactly
		 * the records whose format_size matches it. */
		if (!cfg->data_cfg_known)
			return pebs_raw_decode(cfg, buf, len, b, consumed, st,
					       err, errlen);
		g = cfg->data_cfg;
		rsz = pebs_ds_record_size(u, g);
		fs_want = (g & 0xf) | ((uint64_t)rsz << 48);
		if (g & PEBS_DATACFG_LBR)
			fs_want |= g & (0xffull << 24);
		fs_want &= fs_mask;
		expect_fs = 1;
		if (g & PEBS_DATACFG_GPR)
			order = gpr_order;
	} else {
		rsz = u->rec_size;
	}
	ins_lat = skl ? 0 : (u->features & PEBS_UF_INS_LAT) != 0;
	/* write_regs == stores_regs(cfg, b): without it no record below
	 * gets f.regs. */
	keep_regs = write_regs && !cfg->drop_regs;
	write_phys = (b->dirty >> PEBS_COL_PHYS_ADDR) & 1;
	/* Register columns the batch knows are zero: stored only from
	 * their first non-zero value on (the rows above it zeroed then), as
	 * many registers of a workload stay 0 and every column stored
	 * costs memory traffic. */
	lazy = (~b->dirty >> PEBS_COL_REG0) & ((1u << PEBS_REG_COUNT) - 1);
	enabled = cfg->pebs_enabled & u->pebs_counters;
	for (int i = 0; i < 64; i++)
		ids[i] = -1;
	k.time = b->c64[PEBS_COL_TIME];
	k.ip = b->c64[PEBS_COL_IP];
	k.addr = b->c64[PEBS_COL_ADDR];
	k.dsrc = b->c64[PEBS_COL_DSRC];
	k.dse = b->c64[PEBS_COL_RAW_DSE];
	k.app = b->c64[PEBS_COL_APPLICABLE];
	k.tsx = b->c64[PEBS_COL_TSX];
	k.phys = b->c64[PEBS_COL_PHYS_ADDR];
	k.cpu = b->c32[PEBS_COL_CPU];
	k.pid = b->c32[PEBS_COL_PID];
	k.tid = b->c32[PEBS_COL_TID];
	k.ev = b->c32[PEBS_COL_EVENT];
	k.lat = b->c32[PEBS_COL_LAT];
	k.ins = b->c32[PEBS_COL_INS_LAT];
	k.fmt = b->c32[PEBS_COL_FMT];
	k.flags = b->c32[PEBS_COL_FLAGS];
	for (unsigned i = 0; i < PEBS_REG_COUNT; i++)
		k.reg[i] = b->c64[PEBS_COL_REG0 + i];
	n = n0 = b->n;
	cap = b->cap;
	*consumed = 0;
	while (len - pos >= rsz) {
		const uint8_t *r = p + pos;
		struct frec f = { 0 };
		uint64_t bits, rv[PEBS_REG_COUNT];
		unsigned nb;

		if (expect_fs && (ld64(r, 0) & fs_mask) != fs_want)
			break;	/* let the plain decoder judge it */
		if (adaptive) {
			size_t off = PEBS_ADAPT_BASIC_SIZE;
			f.ip = ld64(r, 0x08);
			f.status = ld64(r, 0x10);
			f.time = ld64(r, 0x18);
			f.flags = PEBS_SF_EVENTING_IP | PEBS_SF_TSC;
			if (g & PEBS_DATACFG_MEMINFO) {
				f.addr = ld64(r, off);
				f.dse = ld64(r, off + 8);
				f.lat = ld64(r, off + 0x10);
				f.tsx = ld64(r, off + 0x18);
				f.has_mem = 1;
				off += PEBS_ADAPT_MEMINFO_SIZE;
			}
			if ((g & PEBS_DATACFG_GPR) && keep_regs) {
				f.regs = r + off;
				f.flags |= PEBS_SF_REGS;
			}
		} else {
			if (keep_regs) {
				f.regs = r;
				f.flags = PEBS_SF_REGS;
			}
			f.ip = ld64(r, 8);
			if (fmt >= PEBS_FMT_NHM) {
				f.status = ld64(r, 0x90);
				f.addr = ld64(r, 0x98);
				f.dse = ld64(r, 0xa0);
				f.lat = ld64(r, 0xa8);
				f.has_mem = 1;
			}
			if (fmt >= PEBS_FMT_HSW) {
				f.ip = ld64(r, 0xb0);
				f.flags |= PEBS_SF_EVENTING_IP;
				f.tsx = ld64(r, 0xb8);
			}
			if (fmt >= PEBS_FMT_SKL) {
				f.time = ld64(r, 0xc0);
				f.flags |= PEBS_SF_TSC;
			}
		}
		/* Attribution: raw-records.md section 3. */
		if (fmt == PEBS_FMT_CORE2) {
			bits = enabled & 1;
		} else {
			bits = f.status & enabled;
			if (fmt < PEBS_FMT_SKL) {
				/* No bit, one PEBS counter: that one. */
				if (!bits && popc(enabled) == 1)
					bits = enabled;
				if (bits & (bits - 1)) {
					st->collisions++;
					st->lost += popc(bits);
					nb = 0;
					goto counted;
				}
			}
		}
		nb = popc(bits);
		if (n + nb > cap) {
			if (n == 0)
				break;	/* the plain decoder's error */
			full = 1;	/* caller flushes and calls again */
			goto out;
		}
		if (!nb) {
			st->unattributed++;
			st->unattributed_bits |= f.status;
			goto counted;
		}
		if (f.regs) {
			/* Unrolled: with a loop these three lines were half
			 * of the decoder's instructions. */
			if (order) {
#pragma GCC unroll 18
				for (unsigned i = 0; i < PEBS_REG_COUNT; i++)
					rv[order[i]] = ld64(f.regs, 8 * i);
			} else {
				memcpy(rv, f.regs, sizeof(rv));
			}
#pragma GCC unroll 18
			for (unsigned i = 0; i < PEBS_REG_COUNT; i++)
				acc_reg[i] |= rv[i];
		} else if (write_regs) {
			/* Only stored, and only then worth zeroing. */
			memset(rv, 0, sizeof(rv));
		}
		acc_time |= f.time;
		acc_ip |= f.ip;
		acc_addr |= f.addr;
		acc_dse |= f.dse;
		acc_app |= f.status;
		acc_tsx |= f.tsx;
		acc_flags |= f.flags;
		for (uint64_t m = bits; m; m &= m - 1) {
			unsigned bit = (unsigned)__builtin_ctzll(m);
			unsigned kind = cfg->ev[bit].kind;
			uint32_t lat = 0, ins = 0;
			if (ids[bit] < 0) {
				char cname[16];
				const char *nm = cfg->ev[bit].name;
				if (!nm)
					nm = pebs_uarch_counter_name(
						bit, cname, sizeof(cname));
				b->n = n;
				ids[bit] = pebs_batch_intern(b, nm);
				if (ids[bit] < 0)
					return ids[bit];
			}
			/* Records of one event mostly repeat a few data
			 * sources: decode each new one only. */
			if (f.dse != last_dse || kind != last_kind) {
				last_dse = f.dse;
				last_kind = kind;
				last_dsrc = pebs_udsrc_decode(f.has_mem ?
					u->dsrc : PEBS_UDSRC_NONE, kind, f.dse);
			}
			if (f.has_mem) {
				int llk = kind == PEBS_EVK_LOAD_LATENCY ||
					  kind == PEBS_EVK_STORE_LATENCY;
				if (ins_lat) {
					ins = (uint32_t)(f.lat & 0xffff);
					if (llk)
						lat = (uint32_t)
						      ((f.lat >> 32) & 0xffff);
				} else if (llk) {
					lat = (uint32_t)f.lat;
				}
			}
			acc_lat |= lat;
			acc_ins |= ins;
			acc_ev |= (uint32_t)ids[bit];
			k.time[n] = f.time;
			k.cpu[n] = cfg->cpu;
			k.pid[n] = cfg->pid;
			k.tid[n] = cfg->tid;
			k.ev[n] = (uint32_t)ids[bit];
			k.ip[n] = f.ip;
			k.addr[n] = f.addr;
			k.dsrc[n] = last_dsrc;
			k.lat[n] = lat;
			k.ins[n] = ins;
			k.dse[n] = f.dse;
			k.fmt[n] = fmt;
			k.app[n] = f.status;
			k.tsx[n] = f.tsx;
			if (write_phys)
				k.phys[n] = 0;
			k.flags[n] = f.flags;
			if (write_regs && !lazy) {
#pragma GCC unroll 18
				for (unsigned i = 0; i < PEBS_REG_COUNT; i++)
					k.reg[i][n] = rv[i];
			} else if (write_regs) {
#pragma GCC unroll 18
				for (unsigned i = 0; i < PEBS_REG_COUNT; i++) {
					if (!((lazy >> i) & 1)) {
						k.reg[i][n] = rv[i];
					} else if (rv[i]) {
						memset(k.reg[i], 0, n * 8);
						k.reg[i][n] = rv[i];
						lazy &= ~(1u << i);
					}
				}
			}
			n++;
		}
		nsamp += nb;
counted:
		nrec++;
		pos += rsz;
	}
out:
	/* Counted here, not per record: @st may alias anything. */
	st->records += nrec;
	st->samples += n - n0;
	st->offset += pos;
	*consumed = pos;
	b->n = n;
	/* As pebs_batch_push(): mark what may be non-zero, exactly. */
	if (nsamp) {
		uint64_t d = (uint64_t)!!acc_time << PEBS_COL_TIME |
			     (uint64_t)!!cfg->cpu << PEBS_COL_CPU |
			     (uint64_t)!!cfg->pid << PEBS_COL_PID |
			     (uint64_t)!!cfg->tid << PEBS_COL_TID |
			     (uint64_t)!!acc_ev << PEBS_COL_EVENT |
			     (uint64_t)!!acc_ip << PEBS_COL_IP |
			     (uint64_t)!!acc_addr << PEBS_COL_ADDR |
			     (uint64_t)!!acc_lat << PEBS_COL_LAT |
			     (uint64_t)!!acc_ins << PEBS_COL_INS_LAT |
			     1ull << PEBS_COL_DSRC |
			     (uint64_t)!!acc_dse << PEBS_COL_RAW_DSE |
			     (uint64_t)!!fmt << PEBS_COL_FMT |
			     (uint64_t)!!acc_app << PEBS_COL_APPLICABLE |
			     (uint64_t)!!acc_tsx << PEBS_COL_TSX |
			     (uint64_t)!!acc_flags << PEBS_COL_FLAGS;
		for (unsigned i = 0; i < PEBS_REG_COUNT; i++)
			d |= (uint64_t)!!acc_reg[i] << (PEBS_COL_REG0 + i);
		b->dirty |= d;
	}
	if (pos < len && !full) {
		size_t used = 0;
		/* The plain decoder stores every column of its samples and
		 * marks the non-zero ones dirty: columns skipped here while
		 * clean must hold real zeros below them first. */
		for (unsigned i = 0; i < PEBS_REG_COUNT; i++)
			if (!(b->dirty >> (PEBS_COL_REG0 + i) & 1))
				memset(k.reg[i], 0, n * 8);
		if (!write_phys)
			memset(k.phys, 0, n * 8);
		int r = pebs_raw_decode(cfg, p + pos, len - pos, b, &used, st,
					err, errlen);
		*consumed = pos + used;
		return r;
	}
	return 0;
}

int pebs_ds_decode(const struct pebs_raw_config *cfg, const void *buf,
		   size_t len, struct pebs_batch *b, size_t *consumed,
		   struct pebs_raw_stats *st, char *err, size_t errlen)
{
	if (!cfg || !cfg->uarch || !b)
		return decode(cfg, buf, len, b, consumed, st, err, errlen, 1,
			      0);
	if (stores_regs(cfg, b))
		return decode(cfg, buf, len, b, consumed, st, err, errlen, 1,
			      0);
	if (is_skl(cfg->uarch))
		return decode(cfg, buf, len, b, consumed, st, err, errlen, 0,
			      1);
	return decode(cfg, buf, len, b, consumed, st, err, errlen, 0, 0);
}
