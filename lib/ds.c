/*
 * ds.c - DS save area management shared by every backend (pebs_ds.h).
 */
#include <string.h>

#include "pebs_ds.h"

int pebs_ds_layout(uint64_t buf_addr, size_t buf_size, size_t rec_size,
		   struct pebs_ds_layout *out)
{
	uint64_t n, reserve;

	if (rec_size == 0 || (buf_addr & 7))
		return -PEBS_E_INVAL;
	n = buf_size / rec_size;
	if (n < 2)
		return -PEBS_E_RANGE;
	/*
	 * SDM: the absolute maximum is a whole number of records above the
	 * base (the processor stops writing when the next record would not
	 * fit); the threshold a whole number of records above the base and
	 * several records short of the maximum.
	 */
	reserve = n / 10;
	if (reserve < PEBS_DS_MIN_RESERVE)
		reserve = PEBS_DS_MIN_RESERVE;
	if (reserve > n - 1)
		reserve = n - 1;
	out->base = buf_addr;
	out->max = buf_addr + n * rec_size;
	out->thresh = buf_addr + (n - reserve) * rec_size;
	out->nrec = n;
	return 0;
}

size_t pebs_ds_record_size(const struct pebs_uarch *u, uint64_t data_cfg)
{
	size_t sz;

	if (!(u->features & PEBS_UF_ADAPTIVE))
		return u->rec_size;
	sz = PEBS_ADAPT_BASIC_SIZE;
	if (data_cfg & PEBS_DATACFG_MEMINFO)
		sz += PEBS_ADAPT_MEMINFO_SIZE;
	if (data_cfg & PEBS_DATACFG_GPR)
		sz += PEBS_ADAPT_GPR_SIZE;
	if (data_cfg & PEBS_DATACFG_XMM)
		sz += PEBS_ADAPT_XMM_SIZE;
	if (data_cfg & PEBS_DATACFG_LBR)
		sz += PEBS_ADAPT_LBR_ENTRY *
		      (((data_cfg >> PEBS_DATACFG_LBR_SHIFT) & 0xff) + 1);
	return sz;
}

uint64_t pebs_ds_get(const struct pebs_ds *ds, unsigned off)
{
	uint64_t v;
	memcpy(&v, (const uint8_t *)ds->mem.area + off, 8);
	return v;
}

void pebs_ds_set(struct pebs_ds *ds, unsigned off, uint64_t v)
{
	memcpy((uint8_t *)ds->mem.area + off, &v, 8);
}

int pebs_ds_init(struct pebs_ds *ds, const struct pebs_ds_mem *mem,
		 const struct pebs_uarch *u, size_t rec_size)
{
	int r;

	memset(ds, 0, sizeof(*ds));
	ds->mem = *mem;
	ds->u = u;
	ds->rec_size = rec_size;
	r = pebs_ds_layout(mem->buf_addr, mem->buf_size, rec_size, &ds->lay);
	if (r < 0)
		return r;
	memset(mem->area, 0, PEBS_DS_AREA_SIZE);
	pebs_ds_set(ds, PEBS_DS_PEBS_BASE, ds->lay.base);
	pebs_ds_set(ds, PEBS_DS_PEBS_INDEX, ds->lay.base);
	pebs_ds_set(ds, PEBS_DS_PEBS_MAX, ds->lay.max);
	pebs_ds_set(ds, PEBS_DS_PEBS_THRESH, ds->lay.thresh);
	return 0;
}

int pebs_ds_set_reset(struct pebs_ds *ds, unsigned bit, uint64_t value)
{
	unsigned off;

	if (bit >= 64)
		return -PEBS_E_RANGE;
	if (bit >= 32)
		off = PEBS_DS_FIXED_RESET(ds->u->pebs_fmt, bit - 32);
	else
		off = PEBS_DS_GP_RESET(bit);
	if (off + 8 > PEBS_DS_AREA_SIZE)
		return -PEBS_E_RANGE;
	pebs_ds_set(ds, off, value);
	return 0;
}

int pebs_ds_pending(struct pebs_ds *ds, const uint8_t **recs, size_t *len,
		    int *full)
{
	uint64_t base = pebs_ds_get(ds, PEBS_DS_PEBS_BASE);
	uint64_t idx = pebs_ds_get(ds, PEBS_DS_PEBS_INDEX);
	uint64_t max = pebs_ds_get(ds, PEBS_DS_PEBS_MAX);
	uint64_t n;

	*recs = NULL;
	*len = 0;
	*full = 0;
	/* The fields live in memory the processor (or a bug) can change:
	 * trust only what stays inside the buffer we were given. */
	if (base != ds->lay.base || max != ds->lay.max || idx < base ||
	    idx > max)
		return -PEBS_E_CORRUPT;
	/* Adaptive records frame themselves (their basic group gives the
	 * size); fixed formats are cut down to whole records. */
	n = (idx - base) / ds->rec_size;
	*recs = ds->mem.buf;
	if (ds->u->features & PEBS_UF_ADAPTIVE)
		*len = (size_t)(idx - base);
	else
		*len = (size_t)(n * ds->rec_size);
	*full = idx + ds->rec_size > max;
	if (*full)
		ds->full++;
	return 0;
}

void pebs_ds_reset_index(struct pebs_ds *ds, uint64_t nrecords)
{
	ds->drained += nrecords;
	pebs_ds_set(ds, PEBS_DS_PEBS_INDEX, ds->lay.base);
}

uint64_t pebs_ds_estimate_lost(uint64_t events, uint64_t period,
			       uint64_t records)
{
	uint64_t expect;

	if (period == 0)
		return 0;
	expect = events / period;
	return expect > records ? expect - records : 0;
}

uint64_t pebs_ds_estimate_lost_tail(uint64_t nrec, uint64_t t_first,
				    uint64_t t_last, uint64_t t_drain)
{
	long double rate;

	if (nrec < 2 || t_last <= t_first || t_drain <= t_last)
		return 0;
	rate = (long double)(nrec - 1) / (long double)(t_last - t_first);
	return (uint64_t)(rate * (long double)(t_drain - t_last) + 0.5L);
}
