/*
 * dsrc_names.c - the names pebs_dsrc_*() derive from one perf_mem_data_src
 * value, for each mem_lvl bit on its own (as older kernels write it, with
 * no mem_lvl_num), each mem_lvl_num value, and the tlb and lock bits.
 * Values are written out as numbers here, from the layout in Linux's
 * include/uapi/linux/perf_event.h, not built with the library's macros.
 */
#include <criterion/criterion.h>

#include "pebs_dsrc.h"

static const char *mem_of(uint64_t d)
{
	return pebs_dsrc_mem_name(pebs_dsrc_mem(d));
}

/* op LOAD (bit 1) and mem_lvl (bits 5-18) HIT (0x2) | @lvl, or MISS
 * (0x4) | @lvl */
#define HIT(lvl)	(0x2ull | (0x2ull | (lvl)) << 5)
#define MISS(lvl)	(0x2ull | (0x4ull | (lvl)) << 5)

Test(dsrc_names, mem_of_each_level_bit)
{
	static const struct { uint64_t d; const char *mem; } t[] = {
		{ HIT(0), "NA" },
		{ 0x2ull | 0x1ull << 5, "NA" },		/* lvl NA */
		{ HIT(0x8), "L1" },
		{ HIT(0x10), "LFB" },
		{ HIT(0x20), "L2" },
		{ HIT(0x40), "L3" },
		{ HIT(0x80), "LOCAL_RAM" },
		{ HIT(0x100), "REMOTE_RAM" },		/* REM_RAM1 */
		{ HIT(0x200), "REMOTE_RAM" },		/* REM_RAM2 */
		{ HIT(0x400), "REMOTE_CACHE" },		/* REM_CCE1 */
		{ HIT(0x800), "REMOTE_CACHE" },		/* REM_CCE2 */
		{ HIT(0x1000), "IO" },
		{ HIT(0x2000), "UNCACHED" },
		{ MISS(0x8), "L1_MISS" },
		{ MISS(0x20), "L2_MISS" },
		{ MISS(0x40), "L3_MISS" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		cr_assert_str_eq(mem_of(t[i].d), t[i].mem, "0x%llx",
				 (unsigned long long)t[i].d);
	/* the values of the brief and of pebs-filter(1)'s remote class */
	cr_assert_str_eq(mem_of(0x4042), "REMOTE_RAM");
	cr_assert_str_eq(mem_of(0x10042), "REMOTE_CACHE");
}

Test(dsrc_names, mem_of_each_level_number)
{
	/* mem_lvl HIT, mem_lvl_num (bits 33-36) @n, mem_remote (37) @r */
#define NUM(n, r)	(0x2ull | 0x2ull << 5 | (uint64_t)(n) << 33 | \
			 (uint64_t)(r) << 37)
	static const struct { uint64_t d; const char *mem; } t[] = {
		{ NUM(0x1, 0), "L1" }, { NUM(0x2, 0), "L2" },
		{ NUM(0x3, 0), "L3" }, { NUM(0x3, 1), "REMOTE_CACHE" },
		{ NUM(0x4, 0), "L4" }, { NUM(0x9, 0), "CXL" },
		{ NUM(0xa, 0), "IO" }, { NUM(0xb, 0), "L3" },
		{ NUM(0xb, 1), "REMOTE_CACHE" }, { NUM(0xc, 0), "LFB" },
		{ NUM(0xd, 0), "LOCAL_RAM" }, { NUM(0xd, 1), "REMOTE_RAM" },
		{ NUM(0xe, 0), "PMEM" }, { NUM(0xf, 0), "NA" },
		/* L3 + remote with mem_lvl REM_RAM1 or REM_RAM2 and no
		 * remote cache bit: remote DRAM (data-source.md, SNB B) */
		{ NUM(0x3, 1) | 0x100ull << 5, "REMOTE_RAM" },
		{ NUM(0x3, 1) | 0x200ull << 5, "REMOTE_RAM" },
		{ NUM(0x3, 1) | 0x300ull << 5 | 0x800ull << 5,
		  "REMOTE_CACHE" },
	};
#undef NUM
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		cr_assert_str_eq(mem_of(t[i].d), t[i].mem, "0x%llx",
				 (unsigned long long)t[i].d);
}

Test(dsrc_names, tlb_and_lock)
{
	/* mem_dtlb (bits 26-32): MISS 0x4 wins over HIT 0x2; else na */
	static const struct { unsigned tlb; const char *name; } t[] = {
		{ 0, "na" }, { 0x1, "na" }, { 0x2, "hit" }, { 0x4, "miss" },
		{ 0x6, "miss" }, { 0x2 | 0x8, "hit" }, { 0x4 | 0x10, "miss" },
		{ 0x20 | 0x40, "na" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		cr_assert_str_eq(pebs_dsrc_tlb_name((uint64_t)t[i].tlb << 26),
				 t[i].name, "tlb 0x%x", t[i].tlb);
	/* mem_lock (bits 24-25): LOCKED 0x2 wins over NA 0x1; else no */
	static const char *const lock[] = { "no", "na", "locked", "locked" };
	for (unsigned l = 0; l < 4; l++)
		cr_assert_str_eq(pebs_dsrc_lock_name((uint64_t)l << 24),
				 lock[l], "lock 0x%x", l);
}
