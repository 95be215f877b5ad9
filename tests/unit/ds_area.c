/*
 * DS save area logic against hand-made buffers: layout and sizing rule,
 * reset slots per format, draining (whole records, adaptive lengths,
 * full buffer, an index outside the buffer), lost estimate.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "pebs_ds.h"
#include "pebs_uarch.h"

static uint64_t area[PEBS_DS_AREA_SIZE / 8];
static uint8_t buf[65536];

static void mk(struct pebs_ds *ds, const char *u, size_t size, size_t rec)
{
	struct pebs_ds_mem m = { .area = area, .area_addr = 0xffff1000,
				 .buf = buf, .buf_addr = 0xffff8000,
				 .buf_size = size };
	memset(area, 0xa5, sizeof(area));
	cr_assert_eq(pebs_ds_init(ds, &m, pebs_uarch_by_name(u), rec), 0);
}

Test(ds_area, layout_rule)
{
	struct pebs_ds_layout l;

	/* 64 KiB of 200-byte records: 327 records, 32 in reserve (10 %). */
	cr_assert_eq(pebs_ds_layout(0x10000, 65536, 200, &l), 0);
	cr_assert_eq(l.nrec, 327);
	cr_assert_eq(l.max, 0x10000 + 327 * 200);
	cr_assert_eq(l.thresh, 0x10000 + (327 - 32) * 200);
	/* Small buffers keep PEBS_DS_MIN_RESERVE, but at least one record
	 * above the base. */
	cr_assert_eq(pebs_ds_layout(0x10000, 10 * 176, 176, &l), 0);
	cr_assert_eq(l.thresh, 0x10000 + 6 * 176);
	cr_assert_eq(pebs_ds_layout(0x10000, 3 * 176 + 100, 176, &l), 0);
	cr_assert_eq(l.max, 0x10000 + 3 * 176);
	cr_assert_eq(l.thresh, 0x10000 + 176);
	cr_assert_eq(pebs_ds_layout(0x10000, 300, 176, &l), -PEBS_E_RANGE);
	cr_assert_eq(pebs_ds_layout(0x10004, 4096, 176, &l), -PEBS_E_INVAL);
	cr_assert_eq(pebs_ds_layout(0x10000, 4096, 0, &l), -PEBS_E_INVAL);
}

Test(ds_area, init_fields_and_reset_slots)
{
	struct pebs_ds ds;

	mk(&ds, "skx", 4096, 200);
	cr_assert_eq(area[0], 0);	/* BTS unused */
	cr_assert_eq(area[3], 0);
	cr_assert_eq(area[4], 0xffff8000);	/* 0x20 base */
	cr_assert_eq(area[5], 0xffff8000);	/* 0x28 index */
	cr_assert_eq(area[6], 0xffff8000 + 20 * 200);	/* 0x30 max */
	cr_assert_eq(area[7], 0xffff8000 + 16 * 200);	/* 0x38 thresh */
	cr_assert_eq(pebs_ds_set_reset(&ds, 3, 0xfffffffe795dull), 0);
	cr_assert_eq(area[0x58 / 8], 0xfffffffe795dull);
	/* Fixed counter 1: 0x88 before format 5, 0x148 from format 5. */
	cr_assert_eq(pebs_ds_set_reset(&ds, 33, 7), 0);
	cr_assert_eq(area[0x88 / 8], 7);
	/* SPR reports format 4: the slots of format 4 */
	mk(&ds, "spr", 4096, 64);
	cr_assert_eq(pebs_ds_set_reset(&ds, 33, 9), 0);
	cr_assert_eq(area[0x88 / 8], 9);
	cr_assert_eq(area[0x148 / 8], 0);
	cr_assert_eq(PEBS_DS_FIXED_RESET(5, 1), 0x148);
	cr_assert_eq(PEBS_DS_FIXED_RESET(4, 1), 0x88);
	cr_assert_eq(pebs_ds_set_reset(&ds, 64, 1), -PEBS_E_RANGE);
	cr_assert_eq(pebs_ds_record_size(pebs_uarch_by_name("spr"),
					 0x1 | 0x8 | (31ull << 24)),
		     32 + 32 + 32 * 24);
	cr_assert_eq(pebs_ds_record_size(pebs_uarch_by_name("hsw"), 0xf),
		     192);
}

Test(ds_area, drain_whole_records_and_full)
{
	struct pebs_ds ds;
	const uint8_t *r;
	size_t len;
	int full;

	mk(&ds, "hsw", 10 * 192, 192);
	cr_assert_eq(pebs_ds_pending(&ds, &r, &len, &full), 0);
	cr_assert_eq(len, 0);
	cr_assert_eq(full, 0);
	/* The processor wrote 3 records and part of nothing else: an
	 * index inside a record is cut to whole records. */
	pebs_ds_set(&ds, PEBS_DS_PEBS_INDEX, 0xffff8000 + 3 * 192 + 8);
	cr_assert_eq(pebs_ds_pending(&ds, &r, &len, &full), 0);
	cr_assert_eq(r, buf);
	cr_assert_eq(len, 3 * 192);
	pebs_ds_reset_index(&ds, 3);
	cr_assert_eq(pebs_ds_get(&ds, PEBS_DS_PEBS_INDEX), 0xffff8000);
	cr_assert_eq(ds.drained, 3);
	/* At the maximum: full. */
	pebs_ds_set(&ds, PEBS_DS_PEBS_INDEX, 0xffff8000 + 10 * 192);
	cr_assert_eq(pebs_ds_pending(&ds, &r, &len, &full), 0);
	cr_assert_eq(len, 10 * 192);
	cr_assert_eq(full, 1);
	cr_assert_eq(ds.full, 1);
	/* An index outside the buffer is not trusted. */
	pebs_ds_set(&ds, PEBS_DS_PEBS_INDEX, 0xffff8000 + 11 * 192);
	cr_assert_eq(pebs_ds_pending(&ds, &r, &len, &full), -PEBS_E_CORRUPT);
	cr_assert_eq(len, 0);
	pebs_ds_set(&ds, PEBS_DS_PEBS_INDEX, 0xffff7000);
	cr_assert_eq(pebs_ds_pending(&ds, &r, &len, &full), -PEBS_E_CORRUPT);
	/* A base that moved is not trusted either. */
	pebs_ds_set(&ds, PEBS_DS_PEBS_INDEX, 0xffff8000);
	pebs_ds_set(&ds, PEBS_DS_PEBS_BASE, 0);
	cr_assert_eq(pebs_ds_pending(&ds, &r, &len, &full), -PEBS_E_CORRUPT);
}

Test(ds_area, drain_adaptive_gives_all_bytes)
{
	struct pebs_ds ds;
	const uint8_t *r;
	size_t len;
	int full;

	/* Adaptive records frame themselves: bytes up to the index. */
	mk(&ds, "icl", 64 * 10, 64);
	pebs_ds_set(&ds, PEBS_DS_PEBS_INDEX, 0xffff8000 + 64 + 32);
	cr_assert_eq(pebs_ds_pending(&ds, &r, &len, &full), 0);
	cr_assert_eq(len, 96);
}

Test(ds_area, lost_estimate)
{
	cr_assert_eq(pebs_ds_estimate_lost(1000000, 1000, 900), 100);
	cr_assert_eq(pebs_ds_estimate_lost(1000000, 1000, 1000), 0);
	cr_assert_eq(pebs_ds_estimate_lost(1000000, 1000, 2000), 0);
	cr_assert_eq(pebs_ds_estimate_lost(5, 0, 0), 0);
}
