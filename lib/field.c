/*
 * field.c - the named-field registry: stored columns and derived values.
 */
#include <string.h>

#include "ascii.h"
#include "pebs_dsrc.h"
#include "pebs_field.h"

#define COL(c) (1ull << (c))
#define DSRC COL(PEBS_COL_DSRC)
#define ADDR COL(PEBS_COL_ADDR)

static struct pebs_field fields[PEBS_COL_COUNT + (PEBS_F_END - PEBS_F_OP)];
static const struct pebs_field derived[] = {
	{ PEBS_F_OP, PEBS_FK_STR, "op", DSRC },
	{ PEBS_F_MEM, PEBS_FK_STR, "mem", DSRC },
	{ PEBS_F_SNOOP, PEBS_FK_STR, "snoop", DSRC },
	{ PEBS_F_TLB, PEBS_FK_STR, "tlb", DSRC },
	{ PEBS_F_LOCK, PEBS_FK_STR, "lock", DSRC },
	{ PEBS_F_LINE, PEBS_FK_HEX, "line", ADDR },
	{ PEBS_F_PAGE, PEBS_FK_HEX, "page", ADDR },
};
static const size_t nfields = sizeof(fields) / sizeof(fields[0]);
#define PID COL(PEBS_COL_PID)
#define IP COL(PEBS_COL_IP)
#define TID COL(PEBS_COL_TID)
static const struct pebs_field symfields[] = {
	{ PEBS_F_SYM, PEBS_FK_STR, "sym", PID | IP },
	{ PEBS_F_DSO, PEBS_FK_STR, "dso", PID | IP },
	{ PEBS_F_SRCLINE, PEBS_FK_STR, "srcline", PID | IP },
	{ PEBS_F_DATA_SYM, PEBS_FK_STR, "data_sym", PID | ADDR },
	{ PEBS_F_COMM, PEBS_FK_STR, "comm", PID | TID },
};
#define NSYMFIELDS (sizeof(symfields) / sizeof(symfields[0]))

const char *const pebs_field_default_list =
	"time,cpu,pid,tid,event,ip,addr,lat,ins_lat,dsrc,op,mem,snoop";

/*
 * Built on first use from the column table, so that table stays the single
 * place columns are named.  Racing initialisations write identical values.
 */
static void init(void)
{
	static int done;
	if (__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		return;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		const struct pebs_col_info *ci = pebs_col_info(c);
		fields[c].id = (int)c;
		fields[c].kind = ci->type == PEBS_T_STR ? PEBS_FK_STR :
				 ci->hex ? PEBS_FK_HEX : PEBS_FK_NUM;
		fields[c].name = ci->name;
		fields[c].deps = COL(c);
	}
	memcpy(&fields[PEBS_COL_COUNT], derived, sizeof(derived));
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
}

const struct pebs_field *pebs_field_at(size_t i)
{
	init();
	return i < nfields ? &fields[i] : NULL;
}

const struct pebs_field *pebs_field_lookup(const char *name)
{
	init();
	for (size_t i = 0; i < nfields; i++)
		if (strcmp(fields[i].name, name) == 0)
			return &fields[i];
	return NULL;
}

const struct pebs_field *pebs_field_find(const char *name)
{
	const struct pebs_field *f = pebs_field_lookup(name);
	for (size_t i = 0; !f && i < NSYMFIELDS; i++)
		if (strcmp(symfields[i].name, name) == 0)
			f = &symfields[i];
	return f;
}

const struct pebs_field *pebs_field_by_id(int id)
{
	init();
	if (id >= 0 && id < PEBS_COL_COUNT)
		return &fields[id];
	if (id >= PEBS_F_OP && id < PEBS_F_END)
		return &fields[PEBS_COL_COUNT + (id - PEBS_F_OP)];
	if (pebs_field_is_sym(id))
		return &symfields[id - PEBS_F_SYM];
	return NULL;
}

int pebs_field_parse_list(const char *list, int *ids, size_t cap,
			  const char **bad)
{
	size_t n = 0;
	const char *p = list, *unused;
	if (!bad)
		bad = &unused;
	for (;;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char name[64];
		*bad = p;
		if (len == 0 || len >= sizeof(name))
			return -PEBS_E_PARSE;
		memcpy(name, p, len);
		name[len] = 0;
		const struct pebs_field *f = pebs_field_find(name);
		if (!f)
			return -PEBS_E_PARSE;
		if (n == cap)
			return -PEBS_E_RANGE;
		ids[n++] = f->id;
		if (!e)
			break;
		p = e + 1;
	}
	return (int)n;
}

uint64_t pebs_field_num(const struct pebs_batch *b, size_t i, int id)
{
	if (id >= 0 && id < PEBS_COL_COUNT)
		return b->c64[id] ? b->c64[id][i] : b->c32[id][i];
	if (id == PEBS_F_LINE)
		return b->c64[PEBS_COL_ADDR][i] & ~(uint64_t)63;
	if (id == PEBS_F_PAGE)
		return b->c64[PEBS_COL_ADDR][i] & ~(uint64_t)4095;
	return 0;
}

const char *pebs_field_str(const struct pebs_batch *b, size_t i, int id)
{
	uint64_t d = b->c64[PEBS_COL_DSRC][i];
	switch (id) {
	case PEBS_COL_EVENT: return pebs_batch_event(b, i);
	case PEBS_F_OP: return pebs_dsrc_op_name(pebs_dsrc_op(d));
	case PEBS_F_MEM: return pebs_dsrc_mem_name(pebs_dsrc_mem(d));
	case PEBS_F_SNOOP: return pebs_dsrc_snoop_name(pebs_dsrc_snoop(d));
	case PEBS_F_TLB: return pebs_dsrc_tlb_name(d);
	case PEBS_F_LOCK: return pebs_dsrc_lock_name(d);
	default: return "";
	}
}

/*
 * perf's names (perf script -F fields; perf report, mem and c2c sort keys)
 * for what a field here holds under another name.  Only a hint in the
 * unknown-field message: the field names are a contract, and an alias
 * would be a second name every tool and output must then keep.  Names
 * perf shares with a field (sym, dso, mem, snoop, tlb, ...) need none.
 */
static const struct { const char *perf, *hint; } perf_names[] = {
	{ "weight", "perf's weight is \"lat\"" },
	{ "local_weight", "perf's local_weight is \"lat\"" },
	{ "local_ins_lat", "perf's local_ins_lat is \"ins_lat\"" },
	{ "symbol", "perf's symbol is \"sym\"" },
	{ "symoff", "perf's symoff is \"sym\", which has the offset" },
	{ "symbol_iaddr", "perf's symbol_iaddr is \"sym\"" },
	{ "iaddr", "perf's iaddr is \"ip\"" },
	{ "daddr", "perf's daddr is \"addr\"" },
	{ "symbol_daddr", "perf's symbol_daddr is \"data_sym\"" },
	{ "dso_daddr", "perf's dso_daddr has no field here; \"data_sym\" "
		       "names the variable" },
	{ "dcacheline", "perf's dcacheline is \"line\"" },
	{ "phys_daddr", "perf's phys_daddr is \"phys_addr\"" },
	{ "data_src", "perf's data_src is \"dsrc\"" },
	{ "locked", "perf's locked is \"lock\"" },
};

const char *pebs_field_perf_hint(const char *name)
{
	for (size_t i = 0; i < sizeof(perf_names) / sizeof(perf_names[0]);
	     i++)
		if (pebs_name_distance(name, perf_names[i].perf) == 0)
			return perf_names[i].hint;
	return NULL;
}

/*
 * Optimal string alignment distance, ignoring case: a swap of two
 * neighbours ("mme" for "mem") is one edit, and "LAT" is "lat".
 */
int pebs_name_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int d[33][33];
	if (la > 32 || lb > 32)
		return 99;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int ca = lib_tolower((unsigned char)a[i - 1]);
		for (size_t j = 1; j <= lb; j++) {
			int cb = lib_tolower((unsigned char)b[j - 1]);
			int best = d[i - 1][j - 1] + (ca != cb);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca ==
			    lib_tolower((unsigned char)b[j - 2]) &&
			    lib_tolower((unsigned char)a[i - 2]) == cb &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

const char *pebs_field_suggest(const char *name)
{
	const char *best = NULL;
	int bd = 3;
	init();
	for (size_t i = 0; i < nfields + NSYMFIELDS; i++) {
		const char *n = i < nfields ? fields[i].name :
			symfields[i - nfields].name;
		int d = pebs_name_distance(name, n);
		/* as many edits as letters is a different word ("l1", "ip") */
		if (d < bd && (size_t)d < strlen(name)) {
			bd = d;
			best = n;
		}
	}
	return best;
}
