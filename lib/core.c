/*
 * core.c - error strings, the column table and column batches.
 */
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "pebs.h"
#include "strhash.h"

const char *pebs_strerror(int err)
{
	static const char *const msg[] = {
		[PEBS_OK] = "success",
		[PEBS_E_NOMEM] = "out of memory",
		[PEBS_E_IO] = "I/O error",
		[PEBS_E_FORMAT] = "not a valid .pebs stream",
		[PEBS_E_VERSION] = "unsupported format feature",
		[PEBS_E_CHECKSUM] = "checksum mismatch",
		[PEBS_E_TRUNCATED] = "truncated",
		[PEBS_E_CORRUPT] = "corrupt data",
		[PEBS_E_INVAL] = "invalid argument",
		[PEBS_E_RANGE] = "value out of range",
		[PEBS_E_PARSE] = "parse error",
		[PEBS_E_UNSUPPORTED] = "not supported",
		[PEBS_E_RULE] = "forbidden by a hardware rule",
		[PEBS_E_AGAIN] = "try again",
	};
	/* unsigned: -INT_MIN overflows (and stayed negative: an index
	 * before the table) */
	unsigned e = err < 0 ? 0u - (unsigned)err : (unsigned)err;
	if (e >= sizeof(msg) / sizeof(msg[0]) || !msg[e])
		return "unknown error";
	return msg[e];
}

#define REG(n, nm) { PEBS_COL_REG0 + (n), PEBS_T_U64, 1, nm, "" }
static const struct pebs_col_info cols[PEBS_COL_COUNT] = {
	{ PEBS_COL_TIME, PEBS_T_U64, 0, "time", "ticks" },
	{ PEBS_COL_CPU, PEBS_T_U32, 0, "cpu", "" },
	{ PEBS_COL_PID, PEBS_T_U32, 0, "pid", "" },
	{ PEBS_COL_TID, PEBS_T_U32, 0, "tid", "" },
	{ PEBS_COL_EVENT, PEBS_T_STR, 0, "event", "" },
	{ PEBS_COL_IP, PEBS_T_U64, 1, "ip", "" },
	{ PEBS_COL_ADDR, PEBS_T_U64, 1, "addr", "" },
	{ PEBS_COL_LAT, PEBS_T_U32, 0, "lat", "cycles" },
	{ PEBS_COL_INS_LAT, PEBS_T_U32, 0, "ins_lat", "cycles" },
	{ PEBS_COL_DSRC, PEBS_T_U64, 1, "dsrc", "perf_mem_data_src" },
	{ PEBS_COL_RAW_DSE, PEBS_T_U64, 1, "raw_dse", "" },
	{ PEBS_COL_FMT, PEBS_T_U32, 0, "fmt", "" },
	{ PEBS_COL_APPLICABLE, PEBS_T_U64, 1, "applicable", "" },
	{ PEBS_COL_TSX, PEBS_T_U64, 1, "tsx", "" },
	{ PEBS_COL_PHYS_ADDR, PEBS_T_U64, 1, "phys_addr", "" },
	{ PEBS_COL_FLAGS, PEBS_T_U32, 1, "flags", "" },
	REG(PEBS_REG_RFLAGS, "rflags"), REG(PEBS_REG_RIP, "rip"),
	REG(PEBS_REG_RAX, "rax"), REG(PEBS_REG_RBX, "rbx"),
	REG(PEBS_REG_RCX, "rcx"), REG(PEBS_REG_RDX, "rdx"),
	REG(PEBS_REG_RSI, "rsi"), REG(PEBS_REG_RDI, "rdi"),
	REG(PEBS_REG_RBP, "rbp"), REG(PEBS_REG_RSP, "rsp"),
	REG(PEBS_REG_R8, "r8"), REG(PEBS_REG_R9, "r9"),
	REG(PEBS_REG_R10, "r10"), REG(PEBS_REG_R11, "r11"),
	REG(PEBS_REG_R12, "r12"), REG(PEBS_REG_R13, "r13"),
	REG(PEBS_REG_R14, "r14"), REG(PEBS_REG_R15, "r15"),
};

const struct pebs_col_info *pebs_col_info(unsigned id)
{
	return id < PEBS_COL_COUNT ? &cols[id] : NULL;
}

int pebs_col_lookup(const char *name)
{
	for (unsigned i = 0; i < PEBS_COL_COUNT; i++)
		if (strcmp(cols[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* ---------------------------------------------------------------- batch */

/*
 * Gives @b (capacity b->cap) column arrays, those of @first first; the
 * old ones, if any, are freed.  0 or -PEBS_E_NOMEM (@b unchanged).
 */
static int batch_columns(struct pebs_batch *b, uint64_t first)
{
	/*
	 * One allocation for every column (b->mem), each column on its own
	 * cache lines: a full batch is megabytes, and one mapping instead
	 * of one per column spares 2 x 33 mmap/munmap calls, which cost
	 * several microseconds each on virtual machines.  Columns never
	 * written are never touched.  A full batch is on huge pages
	 * (lib_big_realloc): on small ones the first use of the columns a
	 * tool decodes was a thousand page faults (pebs-filter to a file on
	 * 1M samples: 62 -> 36 ms).  Columns @first come first, together:
	 * in id order with the others, the few in use spread over more of
	 * the 2 MiB pages, each resident whole (pebs-hist and pebs-decode
	 * --fields lat,addr,cpu on 1M: 40 -> 32 MB peak RSS).
	 */
	size_t size[PEBS_COL_COUNT], total = 0;
	for (unsigned i = 0; i < PEBS_COL_COUNT; i++) {
		size[i] = b->cap * (cols[i].type == PEBS_T_U64 ?
				    sizeof(uint64_t) : sizeof(uint32_t));
		size[i] = (size[i] + 63) & ~(size_t)63;
		total += size[i];
	}
	uint8_t *m = lib_big_realloc(NULL, total);
	if (!m)
		return -PEBS_E_NOMEM;
	lib_big_free(b->mem);
	b->mem = m;
	for (int pass = 1; pass >= 0; pass--)
		for (unsigned i = 0; i < PEBS_COL_COUNT; i++) {
			int in = i < 64 && (first >> i & 1);
			if (in != pass)
				continue;
			if (cols[i].type == PEBS_T_U64)
				b->c64[i] = (uint64_t *)(void *)m;
			else
				b->c32[i] = (uint32_t *)(void *)m;
			m += size[i];
		}
	return 0;
}

struct pebs_batch *pebs_batch_new_cols(size_t cap, uint64_t first)
{
	/* More is refused, not cut: a caller that pushes @cap samples
	 * would find the batch full early. */
	if (cap > PEBS_BATCH_MAX)
		return NULL;
	if (cap == 0)
		cap = PEBS_BATCH_MAX;
	struct pebs_batch *b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->cap = cap;
	b->dirty = ~0ull;
	if (batch_columns(b, first)) {
		free(b);
		return NULL;
	}
	return b;
}

int pebs_batch_relayout(struct pebs_batch *b, uint64_t first)
{
	if (b->n)
		return -PEBS_E_INVAL;
	int r = batch_columns(b, first);
	if (!r)
		b->dirty = 0;	/* fresh arrays are zero */
	return r;
}

struct pebs_batch *pebs_batch_new(size_t cap)
{
	return pebs_batch_new_cols(cap, 0);
}

int pebs_batch_fit(struct pebs_batch **b, size_t n, uint64_t first)
{
	if (n > PEBS_BATCH_MAX)
		return -PEBS_E_RANGE;
	if (*b && (*b)->cap >= n)
		return 0;
	struct pebs_batch *nb = pebs_batch_new_cols(lib_big_pow2(n, 1024),
						    first);
	if (!nb)
		return -PEBS_E_NOMEM;
	/*
	 * Fresh arrays are zero: marked clean, they spare decoders and
	 * pebs_expr_select() zeroing (and faulting in) every column they
	 * do not fill.
	 */
	nb->dirty = 0;
	pebs_batch_free(*b);
	*b = nb;
	return 0;
}

static void names_clear(struct pebs_batch *b)
{
	for (uint32_t i = 0; i < b->nnames; i++)
		free(b->names[i]);
	b->nnames = 0;
	if (b->name_indexed)
		memset(b->name_slot, 0, b->name_slots * sizeof(*b->name_slot));
	b->name_indexed = 0;
}

void pebs_batch_free(struct pebs_batch *b)
{
	if (!b)
		return;
	lib_big_free(b->mem);
	names_clear(b);
	free(b->names);
	free(b->name_slot);
	free(b);
}

void pebs_batch_reset(struct pebs_batch *b)
{
	b->n = 0;
	b->present = 0;
	names_clear(b);
}

/*
 * The event dictionary's index.  Interning compared the name with every
 * name of the batch: importing a CSV of 65,535 distinct event names took
 * some 20 s, nearly all in strcmp().
 */

/* The slot holding @name's id + 1, or the empty slot where it would go. */
static uint32_t *name_probe(const struct pebs_batch *b, const char *name)
{
	uint32_t mask = b->name_slots - 1, i = (uint32_t)lib_str_hash(name) & mask;
	for (;; i = (i + 1) & mask) {
		uint32_t v = b->name_slot[i];
		if (!v || strcmp(b->names[v - 1], name) == 0)
			return &b->name_slot[i];
	}
}

/*
 * Indexes the names appended since the last call (by pebs_batch_intern(),
 * or directly, as the block decoder does), the table kept at most half
 * full.  0, or -PEBS_E_NOMEM with the index still right for the names it
 * holds.
 */
static int name_sync(struct pebs_batch *b)
{
	if (b->name_indexed == b->nnames)
		return 0;
	if ((uint64_t)b->nnames * 2 >= b->name_slots) {
		if (b->nnames >= 1u << 30)
			return -PEBS_E_NOMEM;
		uint32_t n = b->name_slots ? b->name_slots : 16;
		while ((uint64_t)b->nnames * 2 >= n)
			n *= 2;
		uint32_t *ns = calloc(n, sizeof(*ns));
		if (!ns)
			return -PEBS_E_NOMEM;
		free(b->name_slot);
		b->name_slot = ns;
		b->name_slots = n;
		b->name_indexed = 0;
	}
	for (; b->name_indexed < b->nnames; b->name_indexed++) {
		uint32_t *p = name_probe(b, b->names[b->name_indexed]);
		if (!*p)	/* a name held twice keeps the first id */
			*p = b->name_indexed + 1;
	}
	return 0;
}

int pebs_batch_find(struct pebs_batch *b, const char *name)
{
	/* A capture's few names: comparing them costs less than hashing
	 * (raw.c interns per record); the index serves large sets. */
	if (b->nnames <= 8) {
		for (uint32_t i = 0; i < b->nnames; i++)
			if (strcmp(b->names[i], name) == 0)
				return (int)i;
		return -1;
	}
	if (name_sync(b) == 0) {
		if (!b->name_slots)
			return -1;
		uint32_t v = *name_probe(b, name);
		return v ? (int)(v - 1) : -1;
	}
	for (uint32_t i = 0; i < b->nnames; i++)
		if (strcmp(b->names[i], name) == 0)
			return (int)i;
	return -1;
}

int pebs_batch_intern(struct pebs_batch *b, const char *name)
{
	int k = pebs_batch_find(b, name);
	if (k >= 0)
		return k;
	/* indexed by the next pebs_batch_find() */
	if (b->nnames == b->names_cap) {
		uint32_t nc = b->names_cap ? b->names_cap * 2 : 8;
		char **nn = realloc(b->names, nc * sizeof(*nn));
		if (!nn)
			return -PEBS_E_NOMEM;
		b->names = nn;
		b->names_cap = nc;
	}
	char *s = strdup(name);
	if (!s)
		return -PEBS_E_NOMEM;
	b->names[b->nnames] = s;
	return (int)b->nnames++;
}

int pebs_batch_push(struct pebs_batch *b, const struct pebs_sample *s)
{
	if (b->n >= b->cap)
		return -PEBS_E_RANGE;
	size_t i = b->n++;
	uint64_t regs = 0;
	for (unsigned r = 0; r < PEBS_REG_COUNT; r++)
		regs |= s->regs[r];
	/*
	 * Mark only what this sample makes non-zero (see dirty).  Those
	 * columns are present too: a batch built in memory has no source
	 * block to say so, and pebs_expr_select() copies only present
	 * columns.  The event column is present with a dictionary, where
	 * event 0 names something, as in pebs_batch_update_present().
	 */
	uint64_t nz = (uint64_t)!!s->time << PEBS_COL_TIME |
		      (uint64_t)!!s->cpu << PEBS_COL_CPU |
		      (uint64_t)!!s->pid << PEBS_COL_PID |
		      (uint64_t)!!s->tid << PEBS_COL_TID |
		      (uint64_t)!!s->event << PEBS_COL_EVENT |
		      (uint64_t)!!s->ip << PEBS_COL_IP |
		      (uint64_t)!!s->addr << PEBS_COL_ADDR |
		      (uint64_t)!!s->lat << PEBS_COL_LAT |
		      (uint64_t)!!s->ins_lat << PEBS_COL_INS_LAT |
		      (uint64_t)!!s->dsrc << PEBS_COL_DSRC |
		      (uint64_t)!!s->raw_dse << PEBS_COL_RAW_DSE |
		      (uint64_t)!!s->fmt << PEBS_COL_FMT |
		      (uint64_t)!!s->applicable << PEBS_COL_APPLICABLE |
		      (uint64_t)!!s->tsx << PEBS_COL_TSX |
		      (uint64_t)!!s->phys_addr << PEBS_COL_PHYS_ADDR |
		      (uint64_t)!!s->flags << PEBS_COL_FLAGS |
		      (regs ? ((1ull << PEBS_REG_COUNT) - 1) << PEBS_COL_REG0 :
		       0);
	b->dirty |= nz;
	b->present |= nz | (uint64_t)!!b->nnames << PEBS_COL_EVENT;
	b->c64[PEBS_COL_TIME][i] = s->time;
	b->c32[PEBS_COL_CPU][i] = s->cpu;
	b->c32[PEBS_COL_PID][i] = s->pid;
	b->c32[PEBS_COL_TID][i] = s->tid;
	b->c32[PEBS_COL_EVENT][i] = s->event;
	b->c64[PEBS_COL_IP][i] = s->ip;
	b->c64[PEBS_COL_ADDR][i] = s->addr;
	b->c32[PEBS_COL_LAT][i] = s->lat;
	b->c32[PEBS_COL_INS_LAT][i] = s->ins_lat;
	b->c64[PEBS_COL_DSRC][i] = s->dsrc;
	b->c64[PEBS_COL_RAW_DSE][i] = s->raw_dse;
	b->c32[PEBS_COL_FMT][i] = s->fmt;
	b->c64[PEBS_COL_APPLICABLE][i] = s->applicable;
	b->c64[PEBS_COL_TSX][i] = s->tsx;
	b->c64[PEBS_COL_PHYS_ADDR][i] = s->phys_addr;
	b->c32[PEBS_COL_FLAGS][i] = s->flags;
	for (unsigned r = 0; r < PEBS_REG_COUNT; r++)
		b->c64[PEBS_COL_REG0 + r][i] = s->regs[r];
	return 0;
}

void pebs_batch_get(const struct pebs_batch *b, size_t i,
		    struct pebs_sample *s)
{
	s->time = b->c64[PEBS_COL_TIME][i];
	s->cpu = b->c32[PEBS_COL_CPU][i];
	s->pid = b->c32[PEBS_COL_PID][i];
	s->tid = b->c32[PEBS_COL_TID][i];
	s->event = b->c32[PEBS_COL_EVENT][i];
	s->ip = b->c64[PEBS_COL_IP][i];
	s->addr = b->c64[PEBS_COL_ADDR][i];
	s->lat = b->c32[PEBS_COL_LAT][i];
	s->ins_lat = b->c32[PEBS_COL_INS_LAT][i];
	s->dsrc = b->c64[PEBS_COL_DSRC][i];
	s->raw_dse = b->c64[PEBS_COL_RAW_DSE][i];
	s->fmt = b->c32[PEBS_COL_FMT][i];
	s->applicable = b->c64[PEBS_COL_APPLICABLE][i];
	s->tsx = b->c64[PEBS_COL_TSX][i];
	s->phys_addr = b->c64[PEBS_COL_PHYS_ADDR][i];
	s->flags = b->c32[PEBS_COL_FLAGS][i];
	for (unsigned r = 0; r < PEBS_REG_COUNT; r++)
		s->regs[r] = b->c64[PEBS_COL_REG0 + r][i];
}

const char *pebs_batch_event(const struct pebs_batch *b, size_t i)
{
	uint32_t e = b->c32[PEBS_COL_EVENT][i];
	return e < b->nnames ? b->names[e] : "";
}

int pebs_batch_append(struct pebs_batch *dst, const struct pebs_batch *src,
		      size_t i)
{
	struct pebs_sample s;
	if (dst->n >= dst->cap)
		return -PEBS_E_RANGE;
	pebs_batch_get(src, i, &s);
	int e = pebs_batch_intern(dst, pebs_batch_event(src, i));
	if (e < 0)
		return e;
	s.event = (uint32_t)e;
	return pebs_batch_push(dst, &s);
}

void pebs_batch_update_present(struct pebs_batch *b)
{
	uint64_t p = 0;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		uint64_t acc = 0;
		if (b->c64[c])
			for (size_t i = 0; i < b->n; i++)
				acc |= b->c64[c][i];
		else
			for (size_t i = 0; i < b->n; i++)
				acc |= b->c32[c][i];
		if (acc || (c == PEBS_COL_EVENT && b->nnames))
			p |= 1ull << c;
	}
	b->present = p;
}
