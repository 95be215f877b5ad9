/*
 * The drain's fast decoder (pebs_ds_decode) against its plain twin
 * (pebs_raw_decode): random records of every profile (random status
 * bits give collisions, zero status, several applicable counters),
 * adaptive records of every group combination, a cut last record, an
 * adaptive record whose groups differ from DATA_CFG, a batch that fills
 * up: same samples, same statistics, same errors; and into a reused
 * batch (stale values, no column dirty, as the capture hands them out):
 * every dirty column equal, every clean column truly zero.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_ds.h"
#include "pebs_uarch.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A batch as the capture reuses one: stale values everywhere, no column
 * dirty (lib/capture_enc.c). */
static void stale(struct pebs_batch *z)
{
	pebs_batch_reset(z);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		for (size_t i = 0; i < z->cap; i++) {
			if (z->c64[c])
				z->c64[c][i] = 0xa5a5a5a5a5a5a5a5ull;
			else
				z->c32[c][i] = 0xa5a5a5a5u;
		}
	z->dirty = 0;
}

/* The clean batch @z against the plain decoder's @a: every column is
 * either dirty and equal, or clean and zero in @a (the decoder's dirty
 * marks are exact enough for encoders to skip clean columns unread). */
static void same_clean(const struct pebs_batch *a,
		       const struct pebs_batch *z)
{
	cr_assert_eq(a->n, z->n);
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		int dirty = (z->dirty >> c) & 1;
		if (c == PEBS_COL_EVENT)
			continue;
		for (size_t i = 0; i < a->n; i++) {
			uint64_t va = a->c64[c] ? a->c64[c][i] : a->c32[c][i];
			uint64_t vz = z->c64[c] ? z->c64[c][i] : z->c32[c][i];
			if (dirty)
				cr_assert_eq(va, vz, "col %u sample %zu", c, i);
			else
				cr_assert_eq(va, 0, "clean col %u sample %zu "
					     "is 0x%llx", c, i,
					     (unsigned long long)va);
		}
	}
}

/* Both decoders on @buf; every column, name and count must agree. */
static void same(const struct pebs_raw_config *cfg, const uint8_t *buf,
		 size_t len, size_t cap)
{
	struct pebs_batch *a = pebs_batch_new(cap), *b = pebs_batch_new(cap);
	struct pebs_batch *z = pebs_batch_new(cap);
	struct pebs_raw_stats sa, sb, sz;
	size_t ca = 0, cb = 0, cz = 0, pa = 0, pb = 0, pz = 0;
	char ea[256] = "", eb[256] = "", ez[256] = "";
	int ra = 0, rb = 0, rz;

	memset(&sz, 0, sizeof(sz));
	stale(z);

	memset(&sa, 0, sizeof(sa));
	memset(&sb, 0, sizeof(sb));
	/* Same restart loop as the capture: flush when the batch is full. */
	for (int round = 0; round < 1000; round++) {
		ra = pebs_raw_decode(cfg, buf + pa, len - pa, a, &ca, &sa, ea,
				     sizeof(ea));
		rb = pebs_ds_decode(cfg, buf + pb, len - pb, b, &cb, &sb, eb,
				    sizeof(eb));
		cr_assert_eq(ra, rb, "%s / %s", ea, eb);
		cr_assert_eq(ca, cb, "consumed %zu vs %zu at %zu", ca, cb, pa);
		cr_assert_eq(a->n, b->n);
		for (size_t i = 0; i < a->n; i++) {
			cr_assert_str_eq(pebs_batch_event(a, i),
					 pebs_batch_event(b, i));
			for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
				if (c == PEBS_COL_EVENT)
					continue;
				if (a->c64[c])
					cr_assert_eq(a->c64[c][i], b->c64[c][i],
						     "col %u sample %zu", c, i);
				else
					cr_assert_eq(a->c32[c][i], b->c32[c][i],
						     "col %u sample %zu", c, i);
			}
		}
		/* Dropped registers: none stored, flagged or dirty. */
		for (size_t i = 0; cfg->drop_regs && i < a->n; i++) {
			cr_assert_eq(a->c32[PEBS_COL_FLAGS][i] & PEBS_SF_REGS,
				     0, "sample %zu flags regs", i);
			for (unsigned r = 0; r < PEBS_REG_COUNT; r++)
				cr_assert_eq(a->c64[PEBS_COL_REG0 + r][i], 0);
		}
		rz = pebs_ds_decode(cfg, buf + pz, len - pz, z, &cz, &sz, ez,
				    sizeof(ez));
		if (cfg->drop_regs)
			cr_assert_eq(z->dirty & (((1ull << PEBS_REG_COUNT) -
						  1) << PEBS_COL_REG0), 0,
				     "register columns marked dirty");
		cr_assert_eq(rz, ra, "%s", ez);
		cr_assert_eq(cz, ca);
		same_clean(a, z);
		pa += ca;
		pb += cb;
		pz += cz;
		if (ra < 0 || pa >= len)
			break;
		pebs_batch_reset(a);
		pebs_batch_reset(b);
		stale(z);
	}
	cr_assert_str_eq(ea, eb);
	cr_assert_eq(memcmp(&sa, &sb, sizeof(sa)), 0);
	cr_assert_eq(memcmp(&sa, &sz, sizeof(sa)), 0);
	pebs_batch_free(a);
	pebs_batch_free(b);
	pebs_batch_free(z);
}

static void cfg_for(struct pebs_raw_config *cfg, const struct pebs_uarch *u,
		    uint64_t enabled, uint64_t data_cfg)
{
	static const char *const names[] = { "A", "B", "C", "D" };
	memset(cfg, 0, sizeof(*cfg));
	cfg->uarch = u;
	cfg->pebs_enabled = enabled;
	cfg->cpu = 3;
	cfg->pid = 4;
	cfg->tid = 5;
	cfg->data_cfg = data_cfg;
	cfg->data_cfg_known = (u->features & PEBS_UF_ADAPTIVE) != 0;
	for (unsigned i = 0; i < 4; i++) {
		cfg->ev[i].name = i == 2 ? NULL : names[i];	/* PMC2 */
		cfg->ev[i].kind = (uint8_t)(i == 0 ? PEBS_EVK_LOAD_LATENCY :
					    i == 1 ? PEBS_EVK_DATALA_STORE :
					    i == 3 ? PEBS_EVK_STORE_LATENCY :
					    PEBS_EVK_OTHER);
	}
}

Test(ds_decode, fixed_formats_random)
{
	static uint8_t buf[40 * 200];
	for (unsigned p = 0; p < pebs_uarch_count(); p++) {
		const struct pebs_uarch *u = pebs_uarch_get(p);
		struct pebs_raw_config cfg;
		if (u->features & PEBS_UF_ADAPTIVE)
			continue;
		for (int trial = 0; trial < 20; trial++) {
			size_t n = 1 + rnd() % 40, len = n * u->rec_size;
			for (size_t i = 0; i < len; i += 8) {
				uint64_t v = rnd();
				memcpy(buf + i, &v, 8);
			}
			/* Status bits mostly among the 4 counters. */
			for (size_t r = 0; r < n && u->pebs_fmt; r++) {
				uint64_t st = rnd() % 16;
				memcpy(buf + r * u->rec_size + 0x90, &st, 8);
			}
			/* Registers that stay 0, or become non-zero half
			 * way: the decoder's zero-column handling. */
			uint64_t zm = trial % 4 ? rnd() : 0, z = 0;
			for (size_t r = 0; r < (trial % 2 ? n : n / 2); r++)
				for (unsigned i = 0; i < PEBS_REG_COUNT; i++)
					if ((zm >> i) & 1)
						memcpy(buf + r * u->rec_size +
						       8 * i, &z, 8);
			cfg_for(&cfg, u, trial % 3 ? 0xf : 0x1, 0);
			/* A capture without --regs. */
			cfg.drop_regs = trial % 5 == 4;
			same(&cfg, buf, len, 1 + rnd() % 64);
			/* The last record cut short. */
			same(&cfg, buf, len - 1 - rnd() % 100, 64);
		}
	}
}

Test(ds_decode, adaptive_groups)
{
	static uint8_t buf[20 * 1024];
	static const uint64_t cfgs[] = { 0x0, 0x1, 0x2, 0x3, 0x5, 0x7,
					 0x9 | (3ull << 24), 0xf };
	static const char *const names[] = { "icl", "icx", "spr" };
	for (int k = 0; k < 3; k++) {
		const struct pebs_uarch *u = pebs_uarch_by_name(names[k]);
		for (size_t c = 0; c < sizeof(cfgs) / sizeof(cfgs[0]); c++) {
			size_t rs = pebs_ds_record_size(u, cfgs[c]);
			size_t n = sizeof(buf) / rs, len = n * rs;
			struct pebs_raw_config cfg;
			uint64_t fs = (cfgs[c] & 0xff00000full) |
				      ((uint64_t)rs << 48);
			for (size_t i = 0; i < len; i += 8) {
				uint64_t v = rnd();
				memcpy(buf + i, &v, 8);
			}
			for (size_t r = 0; r < n; r++) {
				uint64_t st = rnd() % 16 |
					      (rnd() % 2 ? 1ull << 32 : 0);
				uint64_t f = fs | (rnd() & 0xffff00000000ull);
				memcpy(buf + r * rs, &f, 8);
				memcpy(buf + r * rs + 0x10, &st, 8);
			}
			cfg_for(&cfg, u, 0xf | (1ull << 32), cfgs[c]);
			same(&cfg, buf, len, 100);
			cfg.drop_regs = 1;
			same(&cfg, buf, len, 100);
			cfg.drop_regs = 0;
			/* A record with other groups: the plain decoder's
			 * error, after the same samples. */
			if (n > 3) {
				uint64_t bad = fs ^ 0x2;
				memcpy(buf + 2 * rs, &bad, 8);
				same(&cfg, buf, len, 100);
			}
		}
	}
}
