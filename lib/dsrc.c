/*
 * dsrc.c - names derived from the perf_mem_data_src layout.
 */

#include "ascii.h"
#include "pebs_dsrc.h"

#include "dsrc_int.h"

uint64_t pebs_dsrc_make(unsigned op, unsigned lvl, unsigned snoop,
			unsigned lock, unsigned tlb, unsigned lvlnum,
			unsigned remote, unsigned snoopx)
{
	return (uint64_t)op << PEBS_DS_OP_SHIFT |
	       (uint64_t)lvl << PEBS_DS_LVL_SHIFT |
	       (uint64_t)snoop << PEBS_DS_SNOOP_SHIFT |
	       (uint64_t)lock << PEBS_DS_LOCK_SHIFT |
	       (uint64_t)tlb << PEBS_DS_TLB_SHIFT |
	       (uint64_t)lvlnum << PEBS_DS_LVLNUM_SHIFT |
	       (uint64_t)remote << PEBS_DS_REMOTE_SHIFT |
	       (uint64_t)snoopx << PEBS_DS_SNOOPX_SHIFT;
}

enum pebs_op pebs_dsrc_op(uint64_t d)
{
	unsigned op = PEBS_DS_OP(d);
	if (op & PEBS_DS_OP_LOAD)
		return PEBS_OP_LOAD;
	if (op & PEBS_DS_OP_STORE)
		return PEBS_OP_STORE;
	if (op & PEBS_DS_OP_PFETCH)
		return PEBS_OP_PFETCH;
	if (op & PEBS_DS_OP_EXEC)
		return PEBS_OP_EXEC;
	return PEBS_OP_NA;
}

int pebs_dsrc_hit(uint64_t d)
{
	return (PEBS_DS_LVL(d) & PEBS_DS_LVL_HIT) != 0;
}

/*
 * Newer kernels fill mem_lvl_num (and mem_remote); older ones only mem_lvl.
 * lvl_num wins when set, as in perf's own rendering.
 */
static enum pebs_mem mem_from_lvlnum(uint64_t d)
{
	unsigned remote = PEBS_DS_REMOTE(d);
	switch (PEBS_DS_LVLNUM(d)) {
	case PEBS_DS_LNUM_L1: return PEBS_MEM_L1;
	case PEBS_DS_LNUM_L2: return PEBS_MEM_L2;
	case PEBS_DS_LNUM_L3:
		/* The kernel marks another socket's cache as L3 + remote. */
		return remote ? PEBS_MEM_REMOTE_CACHE : PEBS_MEM_L3;
	case PEBS_DS_LNUM_L4: return PEBS_MEM_L4;
	case PEBS_DS_LNUM_CXL: return PEBS_MEM_CXL;
	case PEBS_DS_LNUM_IO: return PEBS_MEM_IO;
	case PEBS_DS_LNUM_LFB: return PEBS_MEM_LFB;
	case PEBS_DS_LNUM_PMEM: return PEBS_MEM_PMEM;
	case PEBS_DS_LNUM_ANY_CACHE:
		return remote ? PEBS_MEM_REMOTE_CACHE : PEBS_MEM_L3;
	case PEBS_DS_LNUM_RAM:
		return remote ? PEBS_MEM_REMOTE_RAM : PEBS_MEM_LOCAL_RAM;
	default: return PEBS_MEM_NA;
	}
}

enum pebs_mem pebs_dsrc_mem(uint64_t d)
{
	unsigned lvl = PEBS_DS_LVL(d);
	enum pebs_mem m = mem_from_lvlnum(d);
	/*
	 * The kernel's SNB+ row 0xB (remote DRAM, shared) says lvl_num L3
	 * + remote but mem_lvl REM_RAM1, where its row 0xD (remote DRAM,
	 * exclusive) says RAM: the SDM says DRAM for both, and perf c2c
	 * counts both as remote DRAM from mem_lvl.  A remote "cache" whose
	 * mem_lvl names remote RAM and no remote cache is remote RAM.
	 */
	if (m == PEBS_MEM_REMOTE_CACHE &&
	    PEBS_DS_LVLNUM(d) == PEBS_DS_LNUM_L3 &&
	    lvl & (PEBS_DS_LVL_REM_RAM1 | PEBS_DS_LVL_REM_RAM2) &&
	    !(lvl & (PEBS_DS_LVL_REM_CCE1 | PEBS_DS_LVL_REM_CCE2)))
		return PEBS_MEM_REMOTE_RAM;
	if (m != PEBS_MEM_NA && !(lvl & PEBS_DS_LVL_MISS))
		return m;
	if (lvl & PEBS_DS_LVL_MISS && !(lvl & PEBS_DS_LVL_HIT)) {
		/*
		 * A miss names the level that missed in mem_lvl (older
		 * kernels) or only in mem_lvl_num (the kernel's SNB+ row 0,
		 * "unknown L3 miss", since LEVEL() was added): perf prints
		 * both as "L3 miss", never as an L3 hit.
		 */
		if (lvl & PEBS_DS_LVL_L1 || m == PEBS_MEM_L1)
			return PEBS_MEM_L1_MISS;
		if (lvl & PEBS_DS_LVL_L2 || m == PEBS_MEM_L2)
			return PEBS_MEM_L2_MISS;
		if (lvl & PEBS_DS_LVL_L3 || (m == PEBS_MEM_L3 &&
		    PEBS_DS_LVLNUM(d) == PEBS_DS_LNUM_L3))
			return PEBS_MEM_L3_MISS;
	}
	if (lvl & PEBS_DS_LVL_L1)
		return PEBS_MEM_L1;
	if (lvl & PEBS_DS_LVL_LFB)
		return PEBS_MEM_LFB;
	if (lvl & PEBS_DS_LVL_L2)
		return PEBS_MEM_L2;
	if (lvl & PEBS_DS_LVL_L3)
		return PEBS_MEM_L3;
	if (lvl & PEBS_DS_LVL_LOC_RAM)
		return PEBS_MEM_LOCAL_RAM;
	if (lvl & (PEBS_DS_LVL_REM_RAM1 | PEBS_DS_LVL_REM_RAM2))
		return PEBS_MEM_REMOTE_RAM;
	if (lvl & (PEBS_DS_LVL_REM_CCE1 | PEBS_DS_LVL_REM_CCE2))
		return PEBS_MEM_REMOTE_CACHE;
	if (lvl & PEBS_DS_LVL_IO)
		return PEBS_MEM_IO;
	if (lvl & PEBS_DS_LVL_UNC)
		return PEBS_MEM_UNCACHED;
	return m;
}

enum pebs_snoop pebs_dsrc_snoop(uint64_t d)
{
	unsigned s = PEBS_DS_SNOOP(d);
	if (s & PEBS_DS_SNOOP_HITM)
		return PEBS_SNOOP_HITM;
	if (PEBS_DS_SNOOPX(d) & PEBS_DS_SNOOPX_FWD)
		return PEBS_SNOOP_FWD;
	if (s & PEBS_DS_SNOOP_HIT)
		return PEBS_SNOOP_HIT;
	if (s & PEBS_DS_SNOOP_MISS)
		return PEBS_SNOOP_MISS;
	if (s & PEBS_DS_SNOOP_NONE)
		return PEBS_SNOOP_NONE;
	return PEBS_SNOOP_NA;
}

static const char *const op_names[] = { "na", "load", "store", "pfetch",
					"exec" };
static const char *const mem_names[PEBS_MEM_COUNT] = {
	"NA", "L1", "LFB", "L2", "L3", "L4", "LOCAL_RAM", "REMOTE_RAM",
	"REMOTE_CACHE", "PMEM", "CXL", "IO", "UNCACHED", "L1_MISS", "L2_MISS",
	"L3_MISS",
};
static const char *const snoop_names[PEBS_SNOOP_COUNT] = {
	"na", "none", "hit", "miss", "hitm", "fwd",
};

const char *pebs_dsrc_op_name(enum pebs_op op)
{
	return (unsigned)op < 5 ? op_names[op] : "na";
}

const char *pebs_dsrc_mem_name(enum pebs_mem mem)
{
	return (unsigned)mem < PEBS_MEM_COUNT ? mem_names[mem] : "NA";
}

const char *pebs_dsrc_snoop_name(enum pebs_snoop s)
{
	return (unsigned)s < PEBS_SNOOP_COUNT ? snoop_names[s] : "na";
}

const char *const lib_dsrc_tlb_names[LIB_DSRC_TLB_COUNT] = {
	"hit", "miss", "na",
};
const char *const lib_dsrc_lock_names[LIB_DSRC_LOCK_COUNT] = {
	"locked", "na", "no",
};

enum lib_dsrc_tlb lib_dsrc_tlb(uint64_t d)
{
	unsigned t = PEBS_DS_TLB(d);
	if (t & PEBS_DS_TLB_MISS)
		return LIB_DSRC_TLB_MISS;
	if (t & PEBS_DS_TLB_HIT)
		return LIB_DSRC_TLB_HIT;
	return LIB_DSRC_TLB_NA;
}

enum lib_dsrc_lock lib_dsrc_lock(uint64_t d)
{
	unsigned l = PEBS_DS_LOCK(d);
	if (l & PEBS_DS_LOCK_LOCKED)
		return LIB_DSRC_LOCK_LOCKED;
	if (l & PEBS_DS_LOCK_NA)
		return LIB_DSRC_LOCK_NA;
	return LIB_DSRC_LOCK_NO;
}

const char *pebs_dsrc_tlb_name(uint64_t d)
{
	return lib_dsrc_tlb_names[lib_dsrc_tlb(d)];
}

const char *pebs_dsrc_lock_name(uint64_t d)
{
	return lib_dsrc_lock_names[lib_dsrc_lock(d)];
}

static int parse(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (lib_strcasecmp(names[i], s) == 0)
			return i;
	return -1;
}

int pebs_dsrc_mem_parse(const char *name)
{
	return parse(mem_names, PEBS_MEM_COUNT, name);
}

int pebs_dsrc_snoop_parse(const char *name)
{
	return parse(snoop_names, PEBS_SNOOP_COUNT, name);
}

int pebs_dsrc_op_parse(const char *name)
{
	return parse(op_names, 5, name);
}
