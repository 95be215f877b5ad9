/*
 * rawrec - fuzz target for raw PEBS record decoding (lib/raw.c) and the
 * data-source decoders (lib/uarch_dsrc.c).
 *
 * Input: byte 0 selects the profile (bits 0-6: index modulo the profile
 * count; bit 7: registers dropped, as a capture without --regs),
 * byte 1 the PEBS-enabled GP counters, byte 2 bits 0-3 the fixed counters,
 * bit 4 "DATA_CFG known", bits 5-7 the event kind of every counter; byte 3
 * is MSR_PEBS_DATA_CFG[7:0] (LBR entries from byte 2); the rest is the DS
 * buffer (its first 64 bytes are also fed to the --raw-event parser).
 * Invariants checked (abort on violation): progress on every call,
 * consumed bytes within the input, at most one sample per counter, parsed
 * events only on PEBS counters; the drain's fast decoder (pebs_ds_decode)
 * gives the same samples, counts and result as the plain one.
 */
#include <stdlib.h>
#include <string.h>

#include "pebs.h"
#include "pebs_ds.h"
#include "pebs_uarch.h"

/* Both decoders from @buf into fresh batches of @cap: abort unless the
 * results, bytes consumed, statistics and samples are the same. */
static void same_decoders(const struct pebs_raw_config *cfg,
			  const uint8_t *buf, size_t len, size_t cap)
{
	struct pebs_batch *a = pebs_batch_new(cap), *b = pebs_batch_new(cap);
	struct pebs_raw_stats sa, sb;
	size_t ua = 0, ub = 0;
	char ea[256], eb[256];

	if (!a || !b)
		goto out;
	/* Fresh columns are zero: @b can start clean, as the capture's
	 * batches do, which takes the decoder's copies without register
	 * stores (and the Skylake one). */
	b->dirty = 0;
	memset(&sa, 0, sizeof(sa));
	memset(&sb, 0, sizeof(sb));
	int ra = pebs_raw_decode(cfg, buf, len, a, &ua, &sa, ea, sizeof(ea));
	int rb = pebs_ds_decode(cfg, buf, len, b, &ub, &sb, eb, sizeof(eb));
	if (ra != rb || ua != ub || a->n != b->n ||
	    memcmp(&sa, &sb, sizeof(sa)))
		abort();
	for (size_t i = 0; i < a->n; i++)
		for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
			if (c == PEBS_COL_EVENT)
				continue;
			if (a->c64[c] ? a->c64[c][i] != b->c64[c][i] :
			    a->c32[c][i] != b->c32[c][i])
				abort();
		}
out:
	pebs_batch_free(a);
	pebs_batch_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pebs_raw_config cfg;
	struct pebs_raw_stats st;
	struct pebs_batch *b;
	const uint8_t *buf;
	size_t len, pos = 0;
	char err[256];

	if (size < 4)
		return 0;
	memset(&cfg, 0, sizeof(cfg));
	cfg.uarch = pebs_uarch_get((data[0] & 0x7f) % pebs_uarch_count());
	cfg.drop_regs = data[0] >> 7;
	cfg.pebs_enabled = data[1] | (uint64_t)(data[2] & 0xf) << 32;
	cfg.data_cfg_known = (data[2] >> 4) & 1;
	cfg.data_cfg = data[3] | (uint64_t)(data[2] >> 5) << 24;
	for (unsigned i = 0; i < 64; i++) {
		cfg.ev[i].name = (i & 1) ? "odd" : NULL;
		cfg.ev[i].kind = (uint8_t)(((data[2] >> 5) + i) %
					   PEBS_EVK_COUNT);
	}
	buf = data + 4;
	len = size - 4;

	/* One record at a time. */
	{
		struct pebs_sample out[64];
		unsigned n = 0;
		size_t rsz = 0;

		if (pebs_raw_decode_record(&cfg, buf, len, out, 64, &n, &rsz,
					   NULL, err, sizeof(err)) == 0 &&
		    (rsz > len || rsz == 0 || n > 64))
			abort();
	}

	/* The whole buffer through a small batch, restarting when full. */
	b = pebs_batch_new(5);
	if (!b)
		return 0;
	memset(&st, 0, sizeof(st));
	while (pos < len) {
		size_t used = 0;
		int rc;

		pebs_batch_reset(b);
		rc = pebs_raw_decode(&cfg, buf + pos, len - pos, b, &used, &st,
				     err, sizeof(err));
		if (used > len - pos || b->n > b->cap)
			abort();
		pos += used;
		if (rc < 0 || used == 0)
			break;	/* damaged, or a record too big for 5 */
	}
	if (st.offset != pos || st.samples > 64 * st.records)
		abort();
	pebs_batch_free(b);
	same_decoders(&cfg, buf, len, 64);
	same_decoders(&cfg, buf, len, 3);

	/* The first bytes as a --raw-event list (parser robustness). */
	{
		struct pebs_raw_config c2;
		char spec[65];
		size_t k = len < 64 ? len : 64;

		memcpy(spec, buf, k);
		spec[k] = '\0';
		if (pebs_raw_config_default(&c2, cfg.uarch, spec, err,
					    sizeof(err)) == 0 &&
		    (c2.pebs_enabled & ~cfg.uarch->pebs_counters))
			abort();
	}

	/* Every 8-byte word as a data-source field, every variant/kind. */
	for (size_t off = 0; off + 8 <= len && off < 512; off += 8) {
		uint64_t raw;

		memcpy(&raw, buf + off, 8);
		for (int v = 0; v <= PEBS_UDSRC_COUNT; v++)
			for (int k = 0; k <= PEBS_EVK_COUNT; k++)
				(void)pebs_udsrc_decode(
					(enum pebs_udsrc_variant)v,
					(enum pebs_uarch_kind)k, raw);
	}
	return 0;
}
