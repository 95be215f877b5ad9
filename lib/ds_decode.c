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
	const uint8_t *order;	/* order of @regs; NULL = legacy */
};

int pebs_ds_decode(const struct pebs_raw_config *cfg, const void *buf,
		   size_t len, struct pebs_batch *b, size_t *consumed,
		   struct pebs_raw_stats *st, char *err, size_t errlen)
{
	const struct pebs_uarch *u = cfg ? cfg->uarch : NULL;
	const uint8_t *p = buf;
	size_t pos = 0, rsz, expect_fs = 0;
	uint64_t enabled, fs_want = 0;
	int adaptive, ids[64];
	unsigned fmt;

	if (!u || !b || !consumed || !st || (!buf && len) ||
	    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || plain_forced())
		return pebs_raw_decode(cfg, buf, len, b, consumed, st, err,
				       errlen);
	fmt = u->pebs_fmt;
	adaptive = (u->features & PEBS_UF_ADAPTIVE) != 0;
	if (adaptive) {
		/* One buffer holds one record shape (the kernel drains
		 * before changing DATA_CFG): the fast path takes exactly
		 * the records whose format_size matches it. */
		if (!cfg->data_cfg_known)
			return pebs_raw_decode(cfg, buf, len, b, consumed, st,
					       err, errlen);
		rsz = pebs_ds_record_size(u, cfg->data_cfg);
		fs_want = (cfg->data_cfg & 0xf) | ((uint64_t)rsz << 48);
		if (cfg->data_cfg & PEBS_DATACFG_LBR)
			fs_want |= cfg->data_cfg & (0xffull << 24);
		expect_fs = 1;
	} else {
		rsz = u->rec_size;
	}
	enabled = cfg->pebs_enabled & u->pebs_counters;
	for (int i = 0; i < 64; i++)
		ids[i] = -1;
	*consumed = 0;
	while (len - pos >= rsz) {
		const uint8_t *r = p + pos;
		struct frec f = { 0 };
		uint64_t bits;
		unsigned nb;
		size_t n;

		if (expect_fs && (ld64(r, 0) & ~(0xffffull << 32)) !=
		    (fs_want & ~(0xffffull << 32)))
			break;	/* let the plain decoder judge it */
		if (adaptive) {
			size_t off = PEBS_ADAPT_BASIC_SIZE;
			uint64_t g = cfg->data_cfg;
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
			if (g & PEBS_DATACFG_GPR) {
				f.regs = r + off;
				f.order = gpr_order;
				f.flags |= PEBS_SF_REGS;
			}
		} else {
			f.regs = r;
			f.flags = PEBS_SF_REGS;
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
				if (!bits &&
				    __builtin_popcountll(enabled) == 1)
					bits = enabled;
				if (__builtin_popcountll(bits) > 1) {
					st->collisions++;
					st->lost += (uint64_t)
						__builtin_popcountll(bits);
					bits = 0;
					nb = 0;
					goto counted;
				}
			}
		}
		nb = (unsigned)__builtin_popcountll(bits);
		if (b->n + nb > b->cap) {
			if (b->n == 0)
				break;	/* the plain decoder's error */
			return 0;	/* caller flushes and calls again */
		}
		if (!nb)
			st->unattributed++;
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
				ids[bit] = pebs_batch_intern(b, nm);
				if (ids[bit] < 0)
					return ids[bit];
			}
			n = b->n++;
			b->c64[PEBS_COL_TIME][n] = f.time;
			b->c32[PEBS_COL_CPU][n] = cfg->cpu;
			b->c32[PEBS_COL_PID][n] = cfg->pid;
			b->c32[PEBS_COL_TID][n] = cfg->tid;
			b->c32[PEBS_COL_EVENT][n] = (uint32_t)ids[bit];
			b->c64[PEBS_COL_IP][n] = f.ip;
			b->c64[PEBS_COL_ADDR][n] = f.addr;
			b->c64[PEBS_COL_DSRC][n] = pebs_udsrc_decode(
				f.has_mem ? u->dsrc : PEBS_UDSRC_NONE, kind,
				f.dse);
			if (f.has_mem) {
				int llk = kind == PEBS_EVK_LOAD_LATENCY ||
					  kind == PEBS_EVK_STORE_LATENCY;
				if (u->features & PEBS_UF_INS_LAT) {
					ins = (uint32_t)(f.lat & 0xffff);
					if (llk)
						lat = (uint32_t)
						      ((f.lat >> 32) & 0xffff);
				} else if (llk) {
					lat = (uint32_t)f.lat;
				}
			}
			b->c32[PEBS_COL_LAT][n] = lat;
			b->c32[PEBS_COL_INS_LAT][n] = ins;
			b->c64[PEBS_COL_RAW_DSE][n] = f.dse;
			b->c32[PEBS_COL_FMT][n] = fmt;
			b->c64[PEBS_COL_APPLICABLE][n] = f.status;
			b->c64[PEBS_COL_TSX][n] = f.tsx;
			b->c64[PEBS_COL_PHYS_ADDR][n] = 0;
			b->c32[PEBS_COL_FLAGS][n] = f.flags;
			for (unsigned i = 0; i < PEBS_REG_COUNT; i++) {
				unsigned reg = f.order ? f.order[i] : i;
				b->c64[PEBS_COL_REG0 + reg][n] =
					f.regs ? ld64(f.regs, 8 * i) : 0;
			}
			/* As pebs_batch_push(): mark what may be non-zero. */
			b->dirty |= (uint64_t)!!f.time << PEBS_COL_TIME |
				    (uint64_t)!!cfg->cpu << PEBS_COL_CPU |
				    (uint64_t)!!cfg->pid << PEBS_COL_PID |
				    (uint64_t)!!cfg->tid << PEBS_COL_TID |
				    (uint64_t)!!ids[bit] << PEBS_COL_EVENT |
				    (uint64_t)!!f.ip << PEBS_COL_IP |
				    (uint64_t)!!f.addr << PEBS_COL_ADDR |
				    (uint64_t)!!lat << PEBS_COL_LAT |
				    (uint64_t)!!ins << PEBS_COL_INS_LAT |
				    1ull << PEBS_COL_DSRC |
				    (uint64_t)!!f.dse << PEBS_COL_RAW_DSE |
				    (uint64_t)!!fmt << PEBS_COL_FMT |
				    (uint64_t)!!f.status <<
				    PEBS_COL_APPLICABLE |
				    (uint64_t)!!f.tsx << PEBS_COL_TSX |
				    (uint64_t)!!f.flags << PEBS_COL_FLAGS |
				    (f.regs ? ((1ull << PEBS_REG_COUNT) - 1) <<
				     PEBS_COL_REG0 : 0);
		}
counted:
		st->records++;
		st->samples += nb;
		st->offset += rsz;
		pos += rsz;
		*consumed = pos;
	}
	if (pos < len) {
		size_t used = 0;
		int r = pebs_raw_decode(cfg, p + pos, len - pos, b, &used, st,
					err, errlen);
		*consumed = pos + used;
		return r;
	}
	return 0;
}
