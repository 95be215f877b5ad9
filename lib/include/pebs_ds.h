/*
 * pebs_ds.h - the Debug Store (DS) save area and its PEBS buffer: layout,
 * sizing, counter-reset values, and draining of the records the processor
 * (or the simulated PMU) wrote between the PEBS buffer base and index.
 *
 * One piece of code for every backend (sim, msr): the backend gives two
 * memory regions, each with the pointer this process uses and the linear
 * address the processor uses (they differ when a kernel module maps a
 * kernel buffer into user space), and this module keeps the DS fields.
 *
 * 64-bit DS save area (SDM Vol. 3B fig. 17-8; Linux intel_ds.h):
 *   0x00 BTS base     0x08 BTS index     0x10 BTS max    0x18 BTS threshold
 *   0x20 PEBS base    0x28 PEBS index    0x30 PEBS max   0x38 PEBS threshold
 *   0x40 + 8i         counter-reset value of general-purpose counter i
 *   0x80 + 8j         fixed counter j reset, PEBS record format < 5
 *   0x140 + 8j        fixed counter j reset, PEBS record format >= 5
 *
 * Sizing (documented choice, formats/capture.md): absolute maximum = base
 * + the whole number of records that fit; interrupt threshold = the
 * maximum minus a reserve of max(n/10, PEBS_DS_MIN_RESERVE) records (about
 * 90 %, as simple-pebs), never less than one record above the base.  The
 * reserve keeps records that arrive between the threshold PMI and the
 * drain.  BTS is never used: its four fields are 0.
 */
#ifndef PEBS_DS_H
#define PEBS_DS_H

#include <stddef.h>
#include <stdint.h>

#include "pebs.h"
#include "pebs_uarch.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PEBS_DS_BTS_BASE	0x00u
#define PEBS_DS_BTS_INDEX	0x08u
#define PEBS_DS_BTS_MAX		0x10u
#define PEBS_DS_BTS_THRESH	0x18u
#define PEBS_DS_PEBS_BASE	0x20u
#define PEBS_DS_PEBS_INDEX	0x28u
#define PEBS_DS_PEBS_MAX	0x30u
#define PEBS_DS_PEBS_THRESH	0x38u
/* Counter-reset slot of general-purpose counter @i. */
#define PEBS_DS_GP_RESET(i)	(0x40u + 8u * (i))
/* Counter-reset slot of fixed counter @j for record format @fmt. */
#define PEBS_DS_FIXED_RESET(fmt, j) \
	((fmt) >= 5 ? 0x140u + 8u * (j) : 0x80u + 8u * (j))
/* Bytes of the save area (the kernel's struct debug_store, 48 slots). */
#define PEBS_DS_AREA_SIZE	448u
/* Smallest threshold reserve in records. */
#define PEBS_DS_MIN_RESERVE	4u
/* Default PEBS buffer: 64 KiB, the kernel's (one page on Core 2). */
#define PEBS_DS_DEFAULT_BUF	65536u

/* Memory of one CPU's DS area and PEBS buffer. */
struct pebs_ds_mem {
	void *area;		/* this process's view of the save area */
	uint64_t area_addr;	/* the address the processor uses */
	void *buf;		/* this process's view of the PEBS buffer */
	uint64_t buf_addr;	/* the address the processor uses */
	size_t buf_size;	/* bytes of the buffer */
};

/* Where the four PEBS fields point, relative to nothing (addresses). */
struct pebs_ds_layout {
	uint64_t base, max, thresh;
	uint64_t nrec;		/* records between base and max */
};

/*
 * Computes the PEBS fields for a buffer at @buf_addr of @buf_size bytes
 * holding records of @rec_size bytes (see the sizing rule above).
 * Returns 0, or -PEBS_E_INVAL when @rec_size is 0 or @buf_addr is not
 * 8-byte aligned, -PEBS_E_RANGE when fewer than 2 records fit.
 */
int pebs_ds_layout(uint64_t buf_addr, size_t buf_size, size_t rec_size,
		   struct pebs_ds_layout *out);

/*
 * Record size the processor writes for profile @u: its fixed size, or for
 * adaptive formats the size implied by MSR_PEBS_DATA_CFG @data_cfg (basic
 * group + MemInfo/GPR/XMM/LBR groups).
 */
size_t pebs_ds_record_size(const struct pebs_uarch *u, uint64_t data_cfg);

/* One CPU's DS state (fields public; use the functions). */
struct pebs_ds {
	struct pebs_ds_mem mem;
	const struct pebs_uarch *u;
	size_t rec_size;
	struct pebs_ds_layout lay;
	uint64_t drained;	/* records handed out so far */
	uint64_t full;		/* drains that found the buffer full */
};

/*
 * Initializes @ds over @mem for profile @u and record size @rec_size:
 * zeroes the save area and writes BTS fields 0 and the PEBS base, index
 * (= base), maximum and threshold.  Returns 0 or an error of
 * pebs_ds_layout().
 */
int pebs_ds_init(struct pebs_ds *ds, const struct pebs_ds_mem *mem,
		 const struct pebs_uarch *u, size_t rec_size);

/* Reads / writes the u64 at byte offset @off of the save area. */
uint64_t pebs_ds_get(const struct pebs_ds *ds, unsigned off);
void pebs_ds_set(struct pebs_ds *ds, unsigned off, uint64_t v);

/*
 * Sets the counter-reset value of the counter with mask bit @bit
 * (GLOBAL_STATUS layout: GP x = bit x, fixed j = bit 32+j) to @value.
 * Returns 0 or -PEBS_E_RANGE when the slot is outside the save area.
 */
int pebs_ds_set_reset(struct pebs_ds *ds, unsigned bit, uint64_t value);

/*
 * Drains: validates the PEBS index against base and maximum and returns
 * in *@recs (pointer into the buffer, valid until the next reset) and
 * *@len the bytes of the records written since the last reset.  A fixed
 * format's length is cut down to whole records.  *@full is set to 1 when
 * the buffer had no room for another record (records may have been lost
 * at the absolute maximum; only the processor knows how many).  Returns
 * 0, or -PEBS_E_CORRUPT when the index is outside [base, max] (nothing is
 * returned; reset the index).
 */
int pebs_ds_pending(struct pebs_ds *ds, const uint8_t **recs, size_t *len,
		    int *full);

/* Sets the PEBS index back to the base (after the records were used). */
void pebs_ds_reset_index(struct pebs_ds *ds, uint64_t nrecords);

/*
 * Estimate of samples lost by hardware that does not count them: @events
 * counted on a PEBS counter over the capture (period @period) should have
 * produced events / period records; anything above @records was lost.
 * Returns 0 when nothing seems lost.
 */
uint64_t pebs_ds_estimate_lost(uint64_t events, uint64_t period,
			       uint64_t records);

/*
 * Estimate of records lost at the absolute maximum, for hardware that
 * does not count them (formats/capture.md, "Loss"): a drain found the
 * buffer full holding @nrec records with timestamps @t_first .. @t_last
 * (TSC, fmt >= 3); the processor stopped writing after @t_last and the
 * drain came at @t_drain, so about rate x (t_drain - t_last) records
 * were lost, the rate being the buffer's own ((nrec - 1) records over
 * t_last - t_first).  Returns 0 when the numbers do not allow an estimate
 * (fewer than 2 records, times not increasing).
 */
uint64_t pebs_ds_estimate_lost_tail(uint64_t nrec, uint64_t t_first,
				    uint64_t t_last, uint64_t t_drain);

/*
 * Decodes drained records exactly as pebs_raw_decode() (same arguments,
 * results, statistics and errors; pebs_uarch.h), faster: fields go
 * straight into @b's columns.  Records it does not expect (an adaptive
 * record whose groups differ from cfg->data_cfg, a damaged or short
 * record) are handed to pebs_raw_decode(), which reports them.  The
 * environment variable PEBS_DS_PLAIN=1 makes it always use
 * pebs_raw_decode() (the plain twin its tests compare it with).
 */
int pebs_ds_decode(const struct pebs_raw_config *cfg, const void *buf,
		   size_t len, struct pebs_batch *b, size_t *consumed,
		   struct pebs_raw_stats *st, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
