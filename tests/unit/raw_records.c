/*
 * Raw PEBS record decoding: records built byte by byte from the SDM
 * offsets (pebs-facts.md section 3) for formats 0-3 and the adaptive
 * groups of formats 4/5; attribution to counters (collisions, zero status,
 * multiple applicable counters); bad sizes and truncation with record
 * index and offset; batch-full restarts.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "pebs.h"
#include "pebs_dsrc.h"
#include "pebs_uarch.h"

/* Writes @v little-endian at @p + @off, one byte at a time. */
static void put64(unsigned char *p, size_t off, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[off + (size_t)i] = (unsigned char)(v >> (8 * i));
}

/* A distinct value per 8-byte slot, so a misplaced field shows. */
static uint64_t slot(size_t off)
{
	return 0x1000000000000000ull + 0x0101010101ull * (off / 8 + 1);
}

static const struct pebs_uarch *U(const char *name)
{
	const struct pebs_uarch *u = pebs_uarch_by_name(name);

	cr_assert_not_null(u);
	return u;
}

/* Config with event @name of kind @kind on counter @bit only. */
static void cfg1(struct pebs_raw_config *c, const char *uarch, unsigned bit,
		 const char *name, unsigned kind)
{
	memset(c, 0, sizeof(*c));
	c->uarch = U(uarch);
	c->pebs_enabled = 1ull << bit;
	c->ev[bit].name = name;
	c->ev[bit].kind = (uint8_t)kind;
	c->cpu = 7;
	c->pid = 100;
	c->tid = 101;
}

/* Legacy record of @size bytes: every slot distinct, then the fields. */
static void legacy(unsigned char *p, size_t size)
{
	for (size_t off = 0; off < size; off += 8)
		put64(p, off, slot(off));
}

static void check_regs_legacy(const struct pebs_sample *s)
{
	/* SDM: 0x00 RFLAGS, 0x08 RIP, 0x10 RAX, RBX, RCX, RDX, RSI, RDI,
	 * RBP, RSP, 0x50 R8 ... 0x88 R15 */
	static const int order[18] = {
		PEBS_REG_RFLAGS, PEBS_REG_RIP, PEBS_REG_RAX, PEBS_REG_RBX,
		PEBS_REG_RCX, PEBS_REG_RDX, PEBS_REG_RSI, PEBS_REG_RDI,
		PEBS_REG_RBP, PEBS_REG_RSP, PEBS_REG_R8, PEBS_REG_R9,
		PEBS_REG_R10, PEBS_REG_R11, PEBS_REG_R12, PEBS_REG_R13,
		PEBS_REG_R14, PEBS_REG_R15,
	};
	for (int i = 0; i < 18; i++)
		cr_assert_eq(s->regs[order[i]], slot(8 * (size_t)i),
			     "reg slot %d", i);
	cr_assert(s->flags & PEBS_SF_REGS);
}

static unsigned dec1(const struct pebs_raw_config *c, const void *buf,
		     size_t len, struct pebs_sample *out, size_t *size)
{
	unsigned n = 99;
	char err[200] = "";
	int rc = pebs_raw_decode_record(c, buf, len, out, 64, &n, size, NULL,
					err, sizeof(err));

	cr_assert_eq(rc, 0, "%s", err);
	return n;
}

Test(raw, fmt0_core2)
{
	unsigned char r[144];
	struct pebs_raw_config c;
	struct pebs_sample s[64];
	size_t size;

	legacy(r, sizeof(r));
	cfg1(&c, "core2", 0, "MEM_LOAD_RETIRED.L2_MISS", PEBS_EVK_LOAD);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 1u);
	cr_assert_eq(size, 144u);
	check_regs_legacy(&s[0]);
	cr_assert_eq(s[0].ip, slot(0x08), "trap-like RIP");
	cr_assert_eq(s[0].flags, PEBS_SF_REGS);
	cr_assert_eq(s[0].fmt, 0u);
	cr_assert_eq(s[0].addr, 0ull);
	cr_assert_eq(s[0].time, 0ull);
	cr_assert_eq(s[0].applicable, 0ull);
	cr_assert_eq(s[0].cpu, 7u);
	cr_assert_eq(s[0].pid, 100u);
	cr_assert_eq(s[0].tid, 101u);
	cr_assert_eq(s[0].event, 0u, "counter bit of PMC0");
	cr_assert_str_eq(pebs_dsrc_op_name(pebs_dsrc_op(s[0].dsrc)), "load");
	/* any other counter: nothing (drain_pebs_core uses PMC0 only) */
	cfg1(&c, "core2", 1, "X", PEBS_EVK_LOAD);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 0u);
}

Test(raw, fmt1_nhm_fields)
{
	unsigned char r[176];
	struct pebs_raw_config c;
	struct pebs_sample s[64];
	size_t size;

	legacy(r, sizeof(r));
	put64(r, 0x90, 0x1);		/* GLOBAL_STATUS: PMC0 */
	put64(r, 0xa0, 0x25);	/* L3 hit clean, lock (NA on NHM) */
	put64(r, 0xa8, 0x1234);
	cfg1(&c, "nhm", 0, "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD",
	     PEBS_EVK_LOAD_LATENCY);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 1u);
	cr_assert_eq(size, 176u);
	check_regs_legacy(&s[0]);
	cr_assert_eq(s[0].ip, slot(0x08));
	cr_assert_eq(s[0].flags, PEBS_SF_REGS);
	cr_assert_eq(s[0].applicable, 1ull);
	cr_assert_eq(s[0].addr, slot(0x98));
	cr_assert_eq(s[0].raw_dse, 0x25ull);
	cr_assert_eq(s[0].lat, 0x1234u);
	cr_assert_eq(s[0].fmt, 1u);
	cr_assert_eq(s[0].dsrc, pebs_udsrc_decode(PEBS_UDSRC_NHM,
		PEBS_EVK_LOAD_LATENCY, 0x25));
	cr_assert_str_eq(pebs_dsrc_lock_name(s[0].dsrc), "na");
	cr_assert_eq(s[0].tsx, 0ull);
	cr_assert_eq(s[0].time, 0ull);
}

Test(raw, fmt1_snb_precise_store_has_no_latency)
{
	unsigned char r[176];
	struct pebs_raw_config c;
	struct pebs_sample s[64];
	size_t size;

	legacy(r, sizeof(r));
	put64(r, 0x90, 0x8);		/* PMC3 */
	put64(r, 0xa0, 0x01);		/* L1D hit */
	put64(r, 0xa8, 0x77);		/* not meaningful for stores */
	cfg1(&c, "snb", 3, "MEM_TRANS_RETIRED.PRECISE_STORE",
	     PEBS_EVK_PRECISE_STORE);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 1u);
	cr_assert_eq(s[0].event, 3u);
	cr_assert_eq(s[0].lat, 0u, "lat only for load-latency events");
	cr_assert_str_eq(pebs_dsrc_op_name(pebs_dsrc_op(s[0].dsrc)), "store");
	cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(s[0].dsrc)), "L1");
}

Test(raw, fmt2_hsw_eventing_ip_tsx)
{
	unsigned char r[192];
	struct pebs_raw_config c;
	struct pebs_sample s[64];
	size_t size;

	legacy(r, sizeof(r));
	put64(r, 0x90, 0x2);
	put64(r, 0xa0, 0x1);
	put64(r, 0xa8, 40);
	cfg1(&c, "hsw", 1, "MEM_TRANS_RETIRED.LOAD_LATENCY",
	     PEBS_EVK_LOAD_LATENCY);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 1u);
	cr_assert_eq(size, 192u);
	check_regs_legacy(&s[0]);
	cr_assert_eq(s[0].ip, slot(0xb0), "EventingIP");
	cr_assert_eq(s[0].regs[PEBS_REG_RIP], slot(0x08));
	cr_assert_eq(s[0].flags, PEBS_SF_REGS | PEBS_SF_EVENTING_IP);
	cr_assert_eq(s[0].tsx, slot(0xb8));
	cr_assert_eq(s[0].lat, 40u);
	cr_assert_eq(s[0].time, 0ull);
	cr_assert_eq(s[0].fmt, 2u);
	cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(s[0].dsrc)), "L1");
}

Test(raw, fmt3_skl_tsc_and_datala_store)
{
	unsigned char r[200];
	struct pebs_raw_config c;
	struct pebs_sample s[64];
	size_t size;

	legacy(r, sizeof(r));
	put64(r, 0x90, 0x4);
	put64(r, 0xa0, 0x0);		/* store missed L1 */
	put64(r, 0xa8, 0x0);
	cfg1(&c, "skl", 2, "MEM_INST_RETIRED.ALL_STORES",
	     PEBS_EVK_DATALA_STORE);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 1u);
	cr_assert_eq(size, 200u);
	check_regs_legacy(&s[0]);
	cr_assert_eq(s[0].ip, slot(0xb0));
	cr_assert_eq(s[0].time, slot(0xc0));
	cr_assert_eq(s[0].flags, PEBS_SF_REGS | PEBS_SF_EVENTING_IP |
		     PEBS_SF_TSC);
	cr_assert_eq(s[0].applicable, 0x4ull);
	cr_assert_eq(s[0].fmt, 3u);
	cr_assert_str_eq(pebs_dsrc_mem_name(pebs_dsrc_mem(s[0].dsrc)),
			 "L1_MISS");
	cr_assert_str_eq(pebs_dsrc_op_name(pebs_dsrc_op(s[0].dsrc)), "store");
}

Test(raw, fmt3_glm_no_data_source)
{
	unsigned char r[200];
	struct pebs_raw_config c;
	struct pebs_sample s[64];
	size_t size;

	legacy(r, sizeof(r));
	put64(r, 0x90, 0x1);
	cfg1(&c, "glm", 0, "MEM_UOPS_RETIRED.ALL_LOADS", PEBS_EVK_LOAD);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 1u);
	cr_assert_eq(s[0].addr, slot(0x98));
	cr_assert_eq(s[0].raw_dse, slot(0xa0), "kept raw");
	cr_assert_eq(s[0].lat, 0u);
	cr_assert_eq(s[0].dsrc, (PEBS_UDSRC_NA & ~0x1full) |
		     PEBS_DS_OP_LOAD);
}

/* ------------------------------------------------------- attribution */

static void status_rec(unsigned char *r, size_t size, uint64_t status)
{
	memset(r, 0, size);
	put64(r, 0x08, 0x401000);
	put64(r, 0x90, status);
}

Test(raw, fmt1_attribution_rules)
{
	unsigned char r[176];
	struct pebs_raw_config c;
	struct pebs_sample s[64];
	struct pebs_raw_stats st;
	unsigned n;
	size_t size;
	char err[100];

	/* one PEBS counter, status 0: the record is that counter's */
	cfg1(&c, "nhm", 2, "E2", PEBS_EVK_OTHER);
	status_rec(r, sizeof(r), 0);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 1u);
	cr_assert_eq(s[0].event, 2u);
	/* a non-PEBS overflow bit beside it does not matter */
	status_rec(r, sizeof(r), 0x4 | 0x2 | (1ull << 62));
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 1u);
	cr_assert_eq(s[0].event, 2u);
	cr_assert_eq(s[0].applicable, 0x4 | 0x2 | (1ull << 62),
		     "raw status kept");

	/* two PEBS counters */
	c.pebs_enabled |= 0x1;
	c.ev[0].name = "E0";
	status_rec(r, sizeof(r), 0x1);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 1u);
	cr_assert_eq(s[0].event, 0u);
	status_rec(r, sizeof(r), 0x4);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 1u);
	cr_assert_eq(s[0].event, 2u);

	memset(&st, 0, sizeof(st));
	/* no PEBS bit with two PEBS counters: dropped, unattributed, its
	 * status bits kept for the message */
	status_rec(r, sizeof(r), 1ull << 62);
	cr_assert_eq(pebs_raw_decode_record(&c, r, sizeof(r), s, 64, &n,
					    &size, &st, err, sizeof(err)), 0);
	cr_assert_eq(n, 0u);
	cr_assert_eq(st.unattributed, 1ull);
	cr_assert_eq(st.unattributed_bits, 1ull << 62);
	/* both PEBS bits: collision, dropped and counted */
	status_rec(r, sizeof(r), 0x5);
	cr_assert_eq(pebs_raw_decode_record(&c, r, sizeof(r), s, 64, &n,
					    &size, &st, err, sizeof(err)), 0);
	cr_assert_eq(n, 0u);
	cr_assert_eq(st.collisions, 1ull);
	cr_assert_eq(st.records, 2ull);
	cr_assert_eq(st.offset, 352ull);
	/* a counter that cannot do PEBS is ignored (NHM: PMC0-3) */
	c.pebs_enabled |= 1ull << 32;
	status_rec(r, sizeof(r), 0x1 | (1ull << 32));
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 1u);
	cr_assert_eq(s[0].event, 0u);
}

/*
 * The documented deviation from drain_pebs_nhm (raw-records.md section 3):
 * a zero-status record with a lone load-latency (or SNB precise-store)
 * event is attributed to it, although the kernel, whose pebs_enabled
 * also holds the LL_EN / PS_EN bit, drops it.
 */
Test(raw, fmt1_zero_status_lone_ldlat_or_pstore)
{
	unsigned char r[176];
	struct pebs_raw_config c;
	struct pebs_sample s[64];
	size_t size;

	cfg1(&c, "nhm", 0, "MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD",
	     PEBS_EVK_LOAD_LATENCY);
	status_rec(r, sizeof(r), 0);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 1u);
	cr_assert_eq(s[0].event, 0u);
	cfg1(&c, "snb", 3, "MEM_TRANS_RETIRED.PRECISE_STORE",
	     PEBS_EVK_PRECISE_STORE);
	status_rec(r, sizeof(r), 0);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 1u);
	cr_assert_eq(s[0].event, 3u);
}

Test(raw, fmt3_every_applicable_counter_gets_a_sample)
{
	unsigned char r[200];
	struct pebs_raw_config c;
	struct pebs_sample s[64];
	size_t size;

	cfg1(&c, "skl", 0, "LL", PEBS_EVK_LOAD_LATENCY);
	c.pebs_enabled |= 0x2 | 0x8;
	c.ev[1].name = "ST";
	c.ev[1].kind = PEBS_EVK_DATALA_STORE;
	c.ev[3].name = "O";
	status_rec(r, sizeof(r), 0xb);
	put64(r, 0xa0, 0x1);
	put64(r, 0xa8, 55);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 3u);
	cr_assert_eq(s[0].event, 0u);
	cr_assert_eq(s[1].event, 1u);
	cr_assert_eq(s[2].event, 3u);
	cr_assert_eq(s[0].lat, 55u);
	cr_assert_eq(s[1].lat, 0u);
	cr_assert_str_eq(pebs_dsrc_op_name(pebs_dsrc_op(s[0].dsrc)), "load");
	cr_assert_str_eq(pebs_dsrc_op_name(pebs_dsrc_op(s[1].dsrc)), "store");
	cr_assert_eq(s[2].dsrc, PEBS_UDSRC_NA);
	/* fmt 3 has no zero-status rule: nothing */
	c.pebs_enabled = 1;
	status_rec(r, sizeof(r), 0);
	cr_assert_eq(dec1(&c, r, sizeof(r), s, &size), 0u);
}

/* ---------------------------------------------------------- adaptive */

/* Builds an adaptive record with groups @g (+ @nlbr entries) at @p. */
static size_t adaptive(unsigned char *p, unsigned g, unsigned nlbr,
		       uint64_t applicable)
{
	size_t sz = 32 + (g & 1 ? 32 : 0) + (g & 2 ? 144 : 0) +
		    (g & 4 ? 256 : 0) + (g & 8 ? 24 * nlbr : 0);
	uint64_t fs = (uint64_t)sz << 48 | g;

	if (g & 8)
		fs |= (uint64_t)(nlbr - 1) << 24;
	for (size_t off = 0; off < sz; off += 8)
		put64(p, off, slot(off));
	put64(p, 0, fs);
	put64(p, 0x10, applicable);
	return sz;
}

Test(raw, adaptive_group_combinations)
{
	static unsigned char r[32 + 32 + 144 + 256 + 24 * 32];
	struct pebs_raw_config c;
	struct pebs_sample s[64];
	size_t size;

	for (unsigned g = 0; g < 16; g++) {
		for (unsigned nlbr = 1; nlbr <= 32; nlbr += 31) {
			size_t sz = adaptive(r, g, nlbr, 0x1);
			size_t off = 32;

			cfg1(&c, "icl", 0, "LL", PEBS_EVK_LOAD_LATENCY);
			cr_assert_eq(dec1(&c, r, sz, s, &size), 1u);
			cr_assert_eq(size, sz, "groups %x", g);
			cr_assert_eq(s[0].fmt, 4u);
			cr_assert_eq(s[0].ip, slot(0x08));
			cr_assert_eq(s[0].time, slot(0x18));
			cr_assert_eq(s[0].applicable, 0x1ull);
			cr_assert(s[0].flags & PEBS_SF_EVENTING_IP);
			cr_assert(s[0].flags & PEBS_SF_TSC);
			if (g & 1) {
				cr_assert_eq(s[0].addr, slot(off));
				cr_assert_eq(s[0].raw_dse, slot(off + 8));
				cr_assert_eq(s[0].lat,
					     (uint32_t)slot(off + 16));
				cr_assert_eq(s[0].tsx, slot(off + 24));
				off += 32;
			} else {
				cr_assert_eq(s[0].addr, 0ull);
				cr_assert_eq(s[0].lat, 0u);
				/* no MemInfo: only "a load" is known */
				cr_assert_eq(s[0].dsrc,
					     (PEBS_UDSRC_NA & ~0x1full) |
					     PEBS_DS_OP_LOAD);
			}
			if (g & 2) {
				/* RFLAGS, RIP, RAX, RCX, RDX, RBX, RSP,
				 * RBP, RSI, RDI, R8..R15 */
				cr_assert(s[0].flags & PEBS_SF_REGS);
				cr_assert_eq(s[0].regs[PEBS_REG_RFLAGS],
					     slot(off));
				cr_assert_eq(s[0].regs[PEBS_REG_RIP],
					     slot(off + 8));
				cr_assert_eq(s[0].regs[PEBS_REG_RAX],
					     slot(off + 16));
				cr_assert_eq(s[0].regs[PEBS_REG_RCX],
					     slot(off + 24));
				cr_assert_eq(s[0].regs[PEBS_REG_RDX],
					     slot(off + 32));
				cr_assert_eq(s[0].regs[PEBS_REG_RBX],
					     slot(off + 40));
				cr_assert_eq(s[0].regs[PEBS_REG_RSP],
					     slot(off + 48));
				cr_assert_eq(s[0].regs[PEBS_REG_RBP],
					     slot(off + 56));
				cr_assert_eq(s[0].regs[PEBS_REG_RSI],
					     slot(off + 64));
				cr_assert_eq(s[0].regs[PEBS_REG_RDI],
					     slot(off + 72));
				for (int i = 0; i < 8; i++)
					cr_assert_eq(s[0].regs[PEBS_REG_R8 + i],
						slot(off + 80 + 8 * (size_t)i));
				cr_assert_eq(s[0].ip, slot(0x08),
					     "ip stays EventingIP");
			} else {
				cr_assert_eq(s[0].flags & PEBS_SF_REGS, 0u);
			}
		}
	}
}

Test(raw, adaptive_spr_latency_split)
{
	unsigned char r[64];
	struct pebs_raw_config c;
	struct pebs_sample s[64];
	size_t size;

	adaptive(r, 1, 1, 0x2);
	put64(r, 32 + 16, (77ull << 32) | 12);
	cfg1(&c, "spr", 1, "LL", PEBS_EVK_LOAD_LATENCY);
	cr_assert_eq(dec1(&c, r, 64, s, &size), 1u);
	cr_assert_eq(s[0].lat, 77u, "cache latency 47:32");
	cr_assert_eq(s[0].ins_lat, 12u, "instruction latency 15:0");
	cr_assert_eq(s[0].fmt, 4u);
	/* fixed counter applicable bit (PEBS_ALL) */
	adaptive(r, 1, 1, PEBS_UARCH_FIXED(0));
	put64(r, 32 + 16, (77ull << 32) | 12);
	cfg1(&c, "spr", 32, "INST_RETIRED.PREC_DIST", PEBS_EVK_OTHER);
	cr_assert_eq(dec1(&c, r, 64, s, &size), 1u);
	cr_assert_eq(s[0].event, 32u);
	cr_assert_eq(s[0].lat, 0u);
	cr_assert_eq(s[0].ins_lat, 12u);
}

static int bad(const struct pebs_raw_config *c, const void *r, size_t len,
	       char *err, size_t errlen)
{
	struct pebs_sample s[64];
	unsigned n;
	size_t size;

	return pebs_raw_decode_record(c, r, len, s, 64, &n, &size, NULL, err,
				      errlen);
}

Test(raw, adaptive_bad_sizes)
{
	unsigned char r[512];
	struct pebs_raw_config c;
	char err[200];
	size_t sz;

	cfg1(&c, "icl", 0, "LL", PEBS_EVK_LOAD_LATENCY);
	sz = adaptive(r, 3, 1, 1);
	/* size field disagrees with the groups */
	put64(r, 0, (uint64_t)(sz + 8) << 48 | 3);
	cr_assert_eq(bad(&c, r, sizeof(r), err, sizeof(err)),
		     -PEBS_E_CORRUPT);
	cr_assert_str_eq(err, "record size field 216 but groups 0x3 imply "
			 "208 bytes");
	/* size 0 (would loop forever if trusted) */
	put64(r, 0, 3);
	cr_assert_eq(bad(&c, r, sizeof(r), err, sizeof(err)),
		     -PEBS_E_CORRUPT);
	/* undefined group bits */
	put64(r, 0, (uint64_t)sz << 48 | 3 | 0x10);
	cr_assert_eq(bad(&c, r, sizeof(r), err, sizeof(err)),
		     -PEBS_E_CORRUPT);
	cr_assert(strstr(err, "undefined group bits 0x10"), "%s", err);
	/* consistent, but more than the buffer holds */
	sz = adaptive(r, 3, 1, 1);
	cr_assert_eq(bad(&c, r, sz - 1, err, sizeof(err)),
		     -PEBS_E_TRUNCATED);
	cr_assert_str_eq(err, "truncated: 207 of 208 bytes");
	cr_assert_eq(bad(&c, r, 31, err, sizeof(err)), -PEBS_E_TRUNCATED);
	/* DATA_CFG known and different */
	c.data_cfg_known = 1;
	c.data_cfg = PEBS_DATACFG_MEMINFO;
	cr_assert_eq(bad(&c, r, sz, err, sizeof(err)), -PEBS_E_CORRUPT);
	cr_assert(strstr(err, "PEBS_DATA_CFG 0x1"), "%s", err);
	c.data_cfg = PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GPR;
	cr_assert_eq(bad(&c, r, sz, err, sizeof(err)), 0);
	/* LBR count must match DATA_CFG[31:24] too */
	sz = adaptive(r, 8, 4, 1);
	c.data_cfg = PEBS_DATACFG_LBR | (7ull << 24);
	cr_assert_eq(bad(&c, r, sz, err, sizeof(err)), -PEBS_E_CORRUPT);
	c.data_cfg = PEBS_DATACFG_LBR | (3ull << 24);
	cr_assert_eq(bad(&c, r, sz, err, sizeof(err)), 0);
}

/* ---------------------------------------------------- buffer decoding */

Test(raw, buffer_truncation_reports_index_and_offset)
{
	unsigned char buf[3 * 192 + 40];
	struct pebs_raw_config c;
	struct pebs_raw_stats st;
	struct pebs_batch *b = pebs_batch_new(1024);
	size_t used;
	char err[200];

	cfg1(&c, "hsw", 0, "MEM_TRANS_RETIRED.LOAD_LATENCY",
	     PEBS_EVK_LOAD_LATENCY);
	for (int i = 0; i < 3; i++) {
		status_rec(buf + 192 * i, 192, 1);
		put64(buf + 192 * i, 0xb0, 0x1000 + (uint64_t)i);
	}
	memset(&st, 0, sizeof(st));
	cr_assert_eq(pebs_raw_decode(&c, buf, sizeof(buf), b, &used, &st,
				     err, sizeof(err)), -PEBS_E_TRUNCATED);
	cr_assert_str_eq(err, "record 3 at offset 0x240: truncated: 40 of "
			 "192 bytes (format 2)");
	cr_assert_eq(used, 576u);
	cr_assert_eq(b->n, 3u, "everything before is decoded");
	cr_assert_eq(st.records, 3ull);
	cr_assert_eq(st.samples, 3ull);
	cr_assert_eq(b->c64[PEBS_COL_IP][2], 0x1002ull);
	cr_assert_str_eq(pebs_batch_event(b, 0),
			 "MEM_TRANS_RETIRED.LOAD_LATENCY");
	pebs_batch_free(b);
}

Test(raw, buffer_restarts_when_batch_full)
{
	unsigned char buf[5 * 200];
	struct pebs_raw_config c;
	struct pebs_raw_stats st;
	struct pebs_batch *b = pebs_batch_new(4);
	size_t used, pos = 0, total = 0;
	char err[200];
	int rounds = 0;

	cfg1(&c, "skl", 0, NULL, PEBS_EVK_OTHER);
	c.pebs_enabled = 0x3;
	for (int i = 0; i < 5; i++)
		status_rec(buf + 200 * i, 200, 0x3);	/* 2 samples each */
	memset(&st, 0, sizeof(st));
	while (pos < sizeof(buf)) {
		pebs_batch_reset(b);
		cr_assert_eq(pebs_raw_decode(&c, buf + pos, sizeof(buf) - pos,
					     b, &used, &st, err, sizeof(err)),
			     0, "%s", err);
		cr_assert_eq(b->n % 2, 0u, "records are never split");
		total += b->n;
		pos += used;
		cr_assert_lt(++rounds, 10);
	}
	cr_assert_eq(total, 10u);
	cr_assert_eq(st.offset, sizeof(buf));
	cr_assert_str_eq(pebs_batch_event(b, 0), "PMC0", "unnamed counter");
	pebs_batch_free(b);
}

Test(raw, config_default)
{
	struct pebs_raw_config c;
	char err[200];

	cr_assert_eq(pebs_raw_config_default(&c, U("snb"), NULL, err,
					     sizeof(err)), 0);
	cr_assert_eq(c.pebs_enabled, 0x8ull, "load latency on PMC3");
	cr_assert_str_eq(c.ev[3].name, "MEM_TRANS_RETIRED.LOAD_LATENCY");
	cr_assert_eq(c.ev[3].kind, PEBS_EVK_LOAD_LATENCY);
	cr_assert_eq(pebs_raw_config_default(&c, U("spr"),
					     "load-latency:ldlat=30", err,
					     sizeof(err)), 0);
	cr_assert_eq(c.pebs_enabled, 0x2ull, "SPR: PMC1-7");
	cr_assert_eq(pebs_raw_config_default(&c, U("hsw"), "precise-store",
					     err, sizeof(err)), 0);
	cr_assert_str_eq(c.ev[0].name, "MEM_UOPS_RETIRED.ALL_STORES");
	cr_assert_eq(pebs_raw_config_default(&c, U("icl"),
					     "INST_RETIRED.PREC_DIST", err,
					     sizeof(err)), 0);
	cr_assert_eq(c.pebs_enabled, PEBS_UARCH_FIXED(0));
	cr_assert_eq(pebs_raw_config_default(&c, U("glm"), NULL, err,
					     sizeof(err)), 0);
	cr_assert_eq(c.pebs_enabled, 0x1ull);
	cr_assert_str_eq(c.ev[0].name, "MEM_UOPS_RETIRED.ALL_LOADS");
	cr_assert_eq(pebs_raw_config_default(&c, U("core2"), "frontend", err,
					     sizeof(err)), -PEBS_E_INVAL);
	cr_assert_str_eq(err, "core2 has no event \"frontend\"");
}

Test(raw, bad_arguments)
{
	struct pebs_raw_config c;
	struct pebs_raw_stats st;
	size_t used, size;
	char err[100];

	memset(&c, 0, sizeof(c));
	memset(&st, 0, sizeof(st));
	cr_assert_eq(pebs_raw_decode(&c, "", 0, NULL, &used, &st, err,
				     sizeof(err)), -PEBS_E_INVAL);
	cr_assert_eq(pebs_raw_record_size(&c, "", 0, &size, err,
					  sizeof(err)), -PEBS_E_INVAL);
	cr_assert_eq(pebs_raw_record_size(NULL, "", 0, &size, NULL, 0),
		     -PEBS_E_INVAL);
}
