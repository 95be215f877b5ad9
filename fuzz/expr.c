/*
 * fuzz/expr.c - the pebs-filter expression parser and evaluator on
 * arbitrary text: parse; when it parses, fix a clock, evaluate on a small
 * fixed batch, run the block analysis and check it agrees, dump.  Symbol
 * leaves (sym, dso, srcline, data_sym) run through a symbolizer whose maps
 * name binaries that do not exist, or through none.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_dsrc.h"
#include "pebs_expr.h"
#include "pebs_sym.h"

static struct pebs_batch *batch(void)
{
	static struct pebs_batch *b;
	if (b)
		return b;
	b = pebs_batch_new(64);
	pebs_batch_intern(b, "load-latency");
	pebs_batch_intern(b, "precise-store");
	for (unsigned i = 0; i < 64; i++) {
		struct pebs_sample s;
		memset(&s, 0, sizeof(s));
		s.time = 1000 + i * 997;
		s.cpu = i % 5;
		s.pid = 7;
		s.tid = 7 + i % 3;
		s.event = i % 3;
		s.ip = 0x400000 + i * 16;
		s.addr = i % 4 ? 0x7f0000000000ull + i * 40 : 0;
		s.lat = (i * 37) % 700;
		s.ins_lat = i % 2 ? i : 0;
		s.dsrc = pebs_dsrc_make(i % 3 ? PEBS_DS_OP_LOAD :
					PEBS_DS_OP_STORE, PEBS_DS_LVL_HIT |
					(1u << (3 + i % 8)), 1u << (i % 5),
					i % 7 == 0 ? PEBS_DS_LOCK_LOCKED : 0,
					i % 2 ? PEBS_DS_TLB_MISS : 0, i % 16,
					i % 9 == 0, 0);
		pebs_batch_push(b, &s);
	}
	return b;
}

/* Kept for the whole run: its caches and notes are part of what is tested. */
static struct pebs_sym *symbolizer(void)
{
	static struct pebs_sym *s;
	if (s)
		return s;
	struct pebs_meta *m = pebs_meta_new();
	if (!m)
		return NULL;
	pebs_meta_set(m, "maps.0.pid", "7");
	pebs_meta_set(m, "maps.0.start", "0x400000");
	pebs_meta_set(m, "maps.0.end", "0x400200");
	pebs_meta_set(m, "maps.0.pgoff", "0");
	pebs_meta_set(m, "maps.0.path", "/nonexistent/app");
	pebs_meta_set(m, "maps.1.pid", "7");
	pebs_meta_set(m, "maps.1.start", "0x7f0000000000");
	pebs_meta_set(m, "maps.1.end", "0x7f0000001000");
	pebs_meta_set(m, "maps.1.pgoff", "0");
	pebs_meta_set(m, "maps.1.path", "[heap]");
	if (pebs_sym_open(&s, m, NULL) < 0) {
		pebs_sym_close(s);
		s = NULL;
	}
	pebs_meta_free(m);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	struct pebs_expr *e;
	struct pebs_expr_error err;
	if (pebs_expr_parse(text, &e, &err) == 0) {
		struct pebs_batch *b = batch();
		uint32_t sel[64];
		pebs_expr_set_clock(e, 1000, size % 2 ? 2.5e9 : 0, &err);
		pebs_expr_set_sym(e, size % 3 ? symbolizer() : NULL);
		size_t n = pebs_expr_eval(e, b, sel);
		struct pebs_block_info bi;
		memset(&bi, 0, sizeof(bi));
		bi.nsamples = b->n;
		for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
			bi.min[c] = UINT64_MAX;
			for (size_t i = 0; i < b->n; i++) {
				uint64_t v = b->c64[c] ? b->c64[c][i] :
					     b->c32[c][i];
				bi.min[c] = v < bi.min[c] ? v : bi.min[c];
				bi.max[c] = v > bi.max[c] ? v : bi.max[c];
			}
		}
		enum pebs_expr_match m = pebs_expr_block(e, &bi);
		if ((m == PEBS_MATCH_NONE && n) ||
		    (m == PEBS_MATCH_ALL && n != b->n))
			abort();	/* the analysis lied */
		char buf[256];
		pebs_expr_dump(e, buf, sizeof(buf));
		pebs_expr_free(e);
	} else if (err.col > size + 1 || !err.msg[0]) {
		abort();	/* an error must say where and what */
	}
	free(text);
	return 0;
}
