/*
 * c2c_int.h - internals shared by the c2c_*.c files of libpebs (not public).
 */
#ifndef PEBS_C2C_INT_H
#define PEBS_C2C_INT_H

#include <stdarg.h>
#include "pebs_c2c.h"

#define C2C_MAX_LINE 256u	/* verdict byte masks are sized for this */
#define C2C_MASK_WORDS (C2C_MAX_LINE / 64u)

/* One exact aggregate: every sample with this key, counted. */
struct c2c_cell {
	uint64_t addr, ip, dsrc;
	uint32_t pid, tid, cpu, lat;
	uint64_t count;
};

struct c2c_topo {
	int *node;		/* node of cpu i, -1 unknown */
	size_t ncpu;
	char **cpulist;		/* per node, as read (for YAML) */
	size_t nnodes;
};

/* Internal line record: the public part plus where its cells are. */
struct c2c_line_int {
	struct pebs_c2c_line pub;
	size_t first, n;	/* range in c->order (cells sorted by addr) */
	char *why, *evidence, *fix;
	int listed;
};

struct pebs_c2c {
	struct pebs_c2c_opts o;
	struct c2c_cell *cells;
	size_t ncells, capcells;
	uint32_t *hash;		/* open addressing: cell index + 1, 0 empty */
	size_t hashcap;		/* power of two */
	struct c2c_topo topo;
	/* finish() results */
	int finished;
	uint32_t *order;	/* line cells sorted by (addr, ...) */
	size_t norder;
	struct c2c_line_int *lines;
	size_t nlines;
	uint32_t *rank;		/* report order: indices into lines */
	struct pebs_c2c_stats totals;
	char err[256];
};

/* Formats an error message into c->err and returns -@code. */
int c2c_fail(struct pebs_c2c *c, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Adds @count samples with key @k (k->count ignored).  0 or -NOMEM. */
int c2c_add_cell(struct pebs_c2c *c, const struct c2c_cell *k,
		 uint64_t count);

/* Frees the results of finish(). */
void c2c_free_results(struct pebs_c2c *c);

/* Records node @node's cpu list (first definition wins).  0 or <0. */
int c2c_topo_add(struct pebs_c2c *c, unsigned node, const char *list);

/* Node of @cpu, or -1. */
int c2c_node_of(const struct pebs_c2c *c, uint32_t cpu);

/* Parses a perf cpu list "0-3,8"; calls back per cpu.  0 or -1. */
int c2c_parse_cpulist(const char *s, int (*cb)(void *, unsigned), void *ctx);

/* Class bits of one cell under the analysis options. */
unsigned c2c_cell_class(const struct pebs_c2c *c, const struct c2c_cell *k);

/* Writers (c2c_out.c, c2c_yaml.c, c2c_html.c). */
int c2c_write_text(struct pebs_c2c *c, FILE *fp);
int c2c_write_csv(struct pebs_c2c *c, FILE *fp);
int c2c_write_stats(struct pebs_c2c *c, FILE *fp, int csv);
int c2c_write_yaml(struct pebs_c2c *c, FILE *fp);
int c2c_write_html(struct pebs_c2c *c, FILE *fp);

/* Per-offset rows of a line, coalesced by c->o.coalesce. */
struct c2c_row {
	uint32_t offset;
	uint32_t pid, tid, cpu;	/* keys when coalesced by them */
	uint64_t ip;		/* key when coalesced by iaddr, else top ip */
	uint64_t loads, stores, lcl_hitm, rmt_hitm;
	uint64_t lat_sum, lat_n;	/* over loads */
	uint32_t nthreads, ncpus, nips;
	uint64_t ips[3];	/* most sampled instructions */
};

/* Builds the rows of line @l (malloc'd array in *@rows).  Count or <0. */
long c2c_line_rows(const struct pebs_c2c *c, const struct c2c_line_int *l,
		   struct c2c_row **rows);

/* Heat map cells: per (thread, 8-byte word) loads and stores. */
struct c2c_heat {
	uint32_t nthreads, nwords;
	uint64_t *thread;	/* pid << 32 | tid, sorted */
	uint64_t *loads, *stores;	/* [thread * nwords + word] */
};
int c2c_line_heat(const struct pebs_c2c *c, const struct c2c_line_int *l,
		  struct c2c_heat *h);
void c2c_heat_free(struct c2c_heat *h);

/* "mean 1.5 p50 1 p99 3" of @n latencies, or "n/a" when @n is 0. */
const char *c2c_fmt_lat(char *buf, size_t len, double mean, uint32_t p50,
			uint32_t p99, uint64_t n);

/* Formats a double with @prec decimals, or "n/a" when @n is 0. */
const char *c2c_fmt_mean(char *buf, size_t len, double v, uint64_t n,
			 int prec);

#endif
