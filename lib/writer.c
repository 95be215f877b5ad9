/*
 * writer.c - streaming writer of one .pebs segment.  Never seeks, so it
 * writes to pipes; everything a reader needs comes before it is needed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#include "fmt.h"
#include "pebs_format.h"
#include "errbuf.h"

struct index_entry {
	uint64_t offset, n, tmin, tmax;
};

struct pebs_writer {
	FILE *fp;
	struct fmt_enc *enc;
	struct pebs_batch *pending;
	int laid_out;		/* pending's arrays placed for its columns */
	char **names;		/* writer-wide event names, id order */
	uint32_t nnames, names_cap;
	int level;
	size_t block_samples;
	int no_index;
	int finished;
	uint64_t pos;		/* bytes written in this segment */
	struct index_entry *index;
	size_t nindex, index_cap;
	struct pebs_write_stats st;
	int err;
	char msg[256];
};

__attribute__((format(printf, 3, 4)))
static int set_err(struct pebs_writer *w, int code, const char *fmt, ...)
{
	/* Callers read errno after a PEBS_E_IO (EPIPE = quiet exit). */
	int saved = errno;
	if (!w->err) {
		va_list ap;
		va_start(ap, fmt);
		lib_verrf(w->msg, sizeof(w->msg), fmt, ap);
		va_end(ap);
		w->err = -code;
	}
	errno = saved;
	return -code;
}

/*
 * Refuses what would write after pebs_writer_finish(): chunks after the
 * END and TAIL chunks are garbage after the segment to every reader, and
 * samples left pending would be dropped by pebs_writer_close() without a
 * word; both calls used to return 0.  Not sticky: the segment written is
 * complete, and pebs_writer_close() still returns 0 for it.
 */
static int finished(struct pebs_writer *w, const char *what)
{
	if (w->err)
		return w->err;
	if (!w->finished)
		return 0;
	snprintf(w->msg, sizeof(w->msg), "%s after pebs_writer_finish(): "
		 "the segment is complete, nothing more is written", what);
	return -PEBS_E_INVAL;
}

static int out(struct pebs_writer *w, const void *p, size_t len)
{
	if (w->err)
		return w->err;
	if (len && fwrite(p, 1, len, w->fp) != len)
		return set_err(w, PEBS_E_IO, "write failed: %s",
			       strerror(errno ? errno : EIO));
	w->pos += len;
	w->st.bytes += len;
	return 0;
}

/* Writes a whole chunk: header, payload, checksum. */
static int chunk(struct pebs_writer *w, uint32_t tag, uint32_t flags,
		 const void *payload, size_t len)
{
	uint8_t h[CHUNK_HDR], t[CHUNK_TRL];
	fmt_chunk_hdr(h, tag, flags, len);
	put64(t, fmt_checksum(tag, payload, len));
	int r = out(w, h, sizeof(h));
	if (!r)
		r = out(w, payload, len);
	if (!r)
		r = out(w, t, sizeof(t));
	return r;
}

/* Bytes of the HEAD payload for metadata @meta (NULL: none). */
static size_t head_len(const struct pebs_meta *meta)
{
	size_t len = 24 + 4, nmeta = meta ? pebs_meta_count(meta) : 0;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		const struct pebs_col_info *ci = pebs_col_info(c);
		len += 8 + strlen(ci->name) + strlen(ci->unit);
	}
	len += 4;
	for (size_t i = 0; i < nmeta; i++) {
		const char *k, *v;
		pebs_meta_entry(meta, i, &k, &v);
		len += 8 + strlen(k) + strlen(v);
	}
	return len;
}

/* Serializes the HEAD payload: version, features, schema, metadata. */
static int head(struct pebs_writer *w, const struct pebs_meta *meta)
{
	size_t len = head_len(meta), nmeta = meta ? pebs_meta_count(meta) : 0;
	uint8_t *buf = malloc(len), *p = buf;
	if (!buf)
		return set_err(w, PEBS_E_NOMEM, "out of memory");
	put16(p, PEBS_FORMAT_VERSION);
	put16(p + 2, FMT_MINOR);
	put32(p + 4, 0);
	put64(p + 8, FMT_REQ_TOP);	/* required features */
	put64(p + 16, 0);	/* optional features */
	p += 24;
	put32(p, PEBS_COL_COUNT);
	p += 4;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		const struct pebs_col_info *ci = pebs_col_info(c);
		size_t nl = strlen(ci->name), ul = strlen(ci->unit);
		put16(p, ci->id);
		p[2] = ci->type;
		p[3] = ci->hex;
		put16(p + 4, (uint16_t)nl);
		memcpy(p + 6, ci->name, nl);
		p += 6 + nl;
		put16(p, (uint16_t)ul);
		memcpy(p + 2, ci->unit, ul);
		p += 2 + ul;
	}
	put32(p, (uint32_t)nmeta);
	p += 4;
	for (size_t i = 0; i < nmeta; i++) {
		const char *k, *v;
		pebs_meta_entry(meta, i, &k, &v);
		size_t kl = strlen(k), vl = strlen(v);
		put32(p, (uint32_t)kl);
		memcpy(p + 4, k, kl);
		p += 4 + kl;
		put32(p, (uint32_t)vl);
		memcpy(p + 4, v, vl);
		p += 4 + vl;
	}
	int r = chunk(w, TAG_HEAD, CHUNK_CRITICAL, buf, (size_t)(p - buf));
	free(buf);
	return r;
}

int pebs_writer_open(struct pebs_writer **wp, FILE *fp,
		     const struct pebs_meta *meta,
		     const struct pebs_writer_opts *opts)
{
	/*
	 * A block size over the format's maximum is refused, as a level out
	 * of range is: capped, a caller asking for larger blocks got
	 * smaller ones without being told.
	 */
	if (opts && (opts->level < PEBS_LEVEL_MIN ||
		     opts->level > PEBS_LEVEL_MAX ||
		     opts->block_samples > PEBS_BATCH_MAX))
		return -PEBS_E_RANGE;
	struct pebs_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return -PEBS_E_NOMEM;
	w->fp = fp;
	w->level = opts && opts->level ? opts->level : FMT_DEFAULT_LEVEL;
	w->block_samples = opts && opts->block_samples ?
			   opts->block_samples : PEBS_BATCH_MAX;
	w->no_index = opts ? opts->no_index : 0;
	w->enc = fmt_enc_new();
	w->pending = pebs_batch_new(w->block_samples);
	if (!w->enc || !w->pending) {
		fmt_enc_free(w->enc);
		pebs_batch_free(w->pending);
		free(w);
		return -PEBS_E_NOMEM;
	}
	/* Fresh arrays are zero: nothing is dirty until samples arrive. */
	w->pending->dirty = 0;
	/*
	 * Readers refuse a chunk over the format's bound as a bad header:
	 * metadata that makes the HEAD longer (the names of a CSV's comm
	 * column, say) gave a file that nothing could read.  Refused
	 * before the magic, so that nothing is written.
	 */
	size_t hl = head_len(meta);
	if (hl > CHUNK_MAX_LEN) {
		*wp = w;
		return set_err(w, PEBS_E_RANGE, "metadata too large: %zu "
			       "bytes, the format's HEAD holds at most %llu "
			       "(256 MiB)", hl, CHUNK_MAX_LEN);
	}
	int r = out(w, FMT_MAGIC, FMT_MAGIC_LEN);
	if (!r)
		r = head(w, meta);
	*wp = w;
	return r;
}

int pebs_writer_event(struct pebs_writer *w, const char *name)
{
	int r = finished(w, "event name");
	if (r)
		return r;
	/*
	 * The pending batch holds the same names with the same ids (below),
	 * and its index finds one in O(1): a linear search here made an
	 * import of 65,535 distinct names quadratic.
	 */
	int k = pebs_batch_find(w->pending, name);
	if (k >= 0)
		return k;
	/*
	 * A name over a limit is the caller's bad input, not a broken
	 * stream: refused with the writer left usable (not sticky), so
	 * that an importer can skip it and end the segment properly.
	 * Names are writer-wide, every block carries the whole list, and
	 * ids handed out stay valid to the end: so the count limit holds
	 * for the segment, not per block.
	 */
	if (strlen(name) > PEBS_EVENT_NAME_MAX) {
		snprintf(w->msg, sizeof(w->msg), "event name too long (at "
			 "most %d bytes)", PEBS_EVENT_NAME_MAX);
		return -PEBS_E_RANGE;
	}
	if (w->nnames == PEBS_EVENT_NAMES_MAX) {
		snprintf(w->msg, sizeof(w->msg), "too many event names (at "
			 "most %d in a segment)", PEBS_EVENT_NAMES_MAX);
		return -PEBS_E_RANGE;
	}
	if (w->nnames == w->names_cap) {
		uint32_t nc = w->names_cap ? w->names_cap * 2 : 8;
		char **nn = realloc(w->names, nc * sizeof(*nn));
		if (!nn)
			return set_err(w, PEBS_E_NOMEM, "out of memory");
		w->names = nn;
		w->names_cap = nc;
	}
	if (!(w->names[w->nnames] = strdup(name)))
		return set_err(w, PEBS_E_NOMEM, "out of memory");
	/* The pending batch carries the same dictionary, same ids. */
	r = pebs_batch_intern(w->pending, name);
	if (r < 0) {
		/* not counted yet: only names[0..nnames) are freed */
		free(w->names[w->nnames]);
		w->names[w->nnames] = NULL;
		return set_err(w, PEBS_E_NOMEM, "out of memory");
	}
	return (int)w->nnames++;
}

static int add_index(struct pebs_writer *w, uint64_t off, uint64_t n,
		     uint64_t tmin, uint64_t tmax)
{
	if (w->nindex == w->index_cap) {
		size_t nc = w->index_cap ? w->index_cap * 2 : 64;
		struct index_entry *ni = realloc(w->index, nc * sizeof(*ni));
		if (!ni)
			return set_err(w, PEBS_E_NOMEM, "out of memory");
		w->index = ni;
		w->index_cap = nc;
	}
	w->index[w->nindex++] = (struct index_entry){ off, n, tmin, tmax };
	return 0;
}

static int emit_block(struct pebs_writer *w, const void *buf, size_t len)
{
	struct pebs_block_info bi;
	char msg[128];
	int r = pebs_block_info(buf, len, 0, &bi, msg, sizeof(msg));
	if (r)
		return set_err(w, -r, "bad block: %s", msg);
	r = add_index(w, w->pos, bi.nsamples, bi.min[PEBS_COL_TIME],
		      bi.max[PEBS_COL_TIME]);
	if (!r)
		r = out(w, buf, len);
	if (!r) {
		w->st.samples += bi.nsamples;
		w->st.blocks++;
	}
	return r;
}

static int flush_block(struct pebs_writer *w)
{
	if (w->err)
		return w->err;
	if (!w->pending->n)
		return 0;
	const void *buf;
	size_t len;
	int r = fmt_block_encode_buf(w->enc, w->pending, w->level, &buf,
				     &len);
	if (r)
		return set_err(w, -r, "encoding a block: %s",
			       pebs_strerror(r));
	r = emit_block(w, buf, len);
	/* Keep the dictionary: ids handed out stay valid. */
	w->pending->n = 0;
	return r;
}

int pebs_writer_add(struct pebs_writer *w, const struct pebs_sample *s)
{
	int r = finished(w, "sample");
	if (r)
		return r;
	/*
	 * The caller's bad input, as a name over a limit in
	 * pebs_writer_event(): refused, the writer left usable (not
	 * sticky), so that the samples pending and the end marker are
	 * still written.  Without names any id goes: the format reads an
	 * id without a name as the empty name, and a writer that never
	 * names events writes event 0 throughout.
	 */
	if (s->event >= w->nnames && w->nnames) {
		snprintf(w->msg, sizeof(w->msg), "sample with unknown event "
			 "id %u (%u names)", s->event, w->nnames);
		return -PEBS_E_INVAL;
	}
	if ((r = pebs_batch_push(w->pending, s)))
		return set_err(w, PEBS_E_INVAL, "batch full");
	if (w->pending->n == w->block_samples)
		return flush_block(w);
	return 0;
}

/*
 * Encodes samples [@i, @i + block_samples) of @b as one block straight
 * from @b's arrays.  The block carries @b's own event names (blocks are
 * self-contained), so ids need no remapping; the names are still interned
 * so that later samples added one by one find them.
 */
static int direct_block(struct pebs_writer *w, const struct pebs_batch *b,
			size_t i)
{
	struct pebs_batch v = *b;
	if (w->err)
		return w->err;
	v.n = w->block_samples;
	v.cap = v.n;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
		if (v.c64[c])
			v.c64[c] += i;
		if (v.c32[c])
			v.c32[c] += i;
	}
	const void *buf;
	size_t len;
	int r = fmt_block_encode_buf(w->enc, &v, w->level, &buf, &len);
	if (r)
		return set_err(w, -r, "encoding a block: %s",
			       pebs_strerror(r));
	return emit_block(w, buf, len);
}

/*
 * pebs_writer_event() for a batch: a name over a limit is fatal here, as
 * the batch may already be half copied and cannot be skipped row by row.
 */
static int batch_event(struct pebs_writer *w, const char *name)
{
	int e = pebs_writer_event(w, name);
	if (e == -PEBS_E_RANGE && !w->err) {
		char msg[sizeof(w->msg)];
		memcpy(msg, w->msg, sizeof(msg));
		return set_err(w, PEBS_E_RANGE, "%s", msg);
	}
	return e;
}

int pebs_writer_add_batch(struct pebs_writer *w, const struct pebs_batch *b)
{
	uint32_t map[256];
	int fr = finished(w, "batch");
	if (fr)
		return fr;
	uint32_t nmap = b->nnames < 256 ? b->nnames : 256;
	for (uint32_t i = 0; i < nmap; i++) {
		int e = batch_event(w, b->names[i]);
		if (e < 0)
			return e;
		map[i] = (uint32_t)e;
	}
	/*
	 * The pending batch's arrays go where the first batch's columns are
	 * side by side: only those are filled, and a huge page is resident
	 * whole (with pebs_expr_select() keeping exact dirty bits,
	 * pebs-filter to a file on 1M samples: 37 -> 26 MB together).
	 */
	if (!w->laid_out && !w->pending->n && b->n) {
		if (pebs_batch_relayout(w->pending, b->dirty |
					1ull << PEBS_COL_EVENT) < 0)
			return set_err(w, PEBS_E_NOMEM, "out of memory");
		w->laid_out = 1;
	}
	/* Column-wise copies, a pending block's worth at a time. */
	for (size_t i = 0; i < b->n;) {
		struct pebs_batch *p = w->pending;
		if (!p->n && b->n - i >= w->block_samples) {
			/* A whole block: encode it in place, no copies. */
			int r = direct_block(w, b, i);
			if (r)
				return r;
			i += w->block_samples;
			continue;
		}
		size_t k = p->cap - p->n < b->n - i ? p->cap - p->n : b->n - i;
		if (k > w->block_samples - p->n)
			k = w->block_samples - p->n;
		/*
		 * Only columns that may be non-zero in @b are copied; columns
		 * clean in both stay zero, and a column dirty only in the
		 * pending batch gets zeros (copying every column of a sparse
		 * batch cost more than encoding it).
		 */
		uint64_t cols = (b->dirty | p->dirty) |
				1ull << PEBS_COL_EVENT;
		for (unsigned c = 0; c < PEBS_COL_COUNT; c++) {
			if (!(cols & (1ull << c)))
				continue;
			int from = (b->dirty >> c & 1) ||
				   c == PEBS_COL_EVENT;
			if (p->c64[c] && from)
				memcpy(p->c64[c] + p->n, b->c64[c] + i,
				       k * sizeof(uint64_t));
			else if (p->c64[c])
				memset(p->c64[c] + p->n, 0,
				       k * sizeof(uint64_t));
			else if (from)
				memcpy(p->c32[c] + p->n, b->c32[c] + i,
				       k * sizeof(uint32_t));
			else
				memset(p->c32[c] + p->n, 0,
				       k * sizeof(uint32_t));
		}
		uint32_t *ev = p->c32[PEBS_COL_EVENT] + p->n;
		for (size_t j = 0; j < k; j++) {
			uint32_t e = ev[j];
			if (e < nmap) {
				ev[j] = map[e];
				continue;
			}
			/* Rare: beyond the cached map, or no name at all. */
			int id = batch_event(w, e < b->nnames ?
					     b->names[e] : "");
			if (id < 0)
				return id;
			ev[j] = (uint32_t)id;
		}
		p->n += k;
		/* Remapped ids may be non-zero where @b's were all zero. */
		p->dirty |= b->dirty | 1ull << PEBS_COL_EVENT;
		i += k;
		if (p->n == w->block_samples) {
			int r = flush_block(w);
			if (r)
				return r;
		}
	}
	return w->err;
}

/*
 * -PEBS_E_INVAL with pebs_writer_errmsg() when @c (@len bytes) is not a
 * block chunk at all (the caller's mistake, not damage), else 0.  The
 * writer stays usable.
 */
static int not_a_block(struct pebs_writer *w, const uint8_t *c, size_t len)
{
	if (len < CHUNK_HDR + CHUNK_TRL) {
		lib_errf(w->msg, sizeof(w->msg), "not a block chunk: %zu "
			 "bytes, less than a chunk's %d", len,
			 CHUNK_HDR + CHUNK_TRL);
		return -PEBS_E_INVAL;
	}
	if (get32(c) != TAG_BLCK) {
		int text = 1;
		for (int i = 0; i < 4; i++)
			text &= c[i] >= 0x20 && c[i] < 0x7f;
		if (text)
			lib_errf(w->msg, sizeof(w->msg), "not a block chunk: "
				 "its tag is \"%.4s\", not \"BLCK\"", c);
		else
			lib_errf(w->msg, sizeof(w->msg), "not a block chunk: "
				 "its tag is 0x%08x, not \"BLCK\"",
				 (unsigned)get32(c));
		return -PEBS_E_INVAL;
	}
	uint64_t data = get64(c + 8);
	if (data != len - CHUNK_HDR - CHUNK_TRL) {
		/* the whole chunk's, as @len is (saturated) */
		uint64_t need = data > UINT64_MAX - CHUNK_HDR - CHUNK_TRL ?
				UINT64_MAX : data + CHUNK_HDR + CHUNK_TRL;
		lib_errf(w->msg, sizeof(w->msg), "not a block chunk: %zu "
			 "bytes, its length field says %llu", len,
			 (unsigned long long)need);
		return -PEBS_E_INVAL;
	}
	return 0;
}

int pebs_writer_copy_block(struct pebs_writer *w, const void *chunk_buf,
			   size_t len)
{
	int r = finished(w, "block chunk");
	if (r || (r = flush_block(w)))
		return r;
	/*
	 * Copied as is, the block must be intact as a whole: its reader may
	 * have checked only the columns it decoded (column checksums), and
	 * damage elsewhere in it must not spread into a new file.  Checked
	 * here, when a copy is made, not for every block read.  Not an
	 * error of this writer: the caller may encode the samples instead.
	 */
	const uint8_t *c = chunk_buf;
	if ((r = not_a_block(w, c, len)))
		return r;
	if (!fmt_block_sum_ok(c + CHUNK_HDR, len - CHUNK_HDR - CHUNK_TRL)) {
		lib_errf(w->msg, sizeof(w->msg),
			 "block not copied: checksum mismatch");
		return -PEBS_E_CHECKSUM;
	}
	return emit_block(w, chunk_buf, len);
}

int pebs_writer_lost(struct pebs_writer *w, uint32_t cpu, uint64_t time,
		     uint64_t count)
{
	uint8_t p[24];
	int r = finished(w, "lost-sample count");
	if (r || (r = flush_block(w)))
		return r;
	put32(p, cpu);
	put32(p + 4, 0);
	put64(p + 8, time);
	put64(p + 16, count);
	w->st.lost += count;
	return chunk(w, TAG_LOST, 0, p, sizeof(p));
}

int pebs_writer_flush(struct pebs_writer *w)
{
	int r = flush_block(w);
	if (!r && fflush(w->fp) == EOF)
		r = set_err(w, PEBS_E_IO, "write failed: %s",
			    strerror(errno ? errno : EIO));
	return r;
}

int pebs_writer_finish(struct pebs_writer *w)
{
	if (w->finished)
		return w->err;
	w->finished = 1;
	int r = flush_block(w);
	if (!r) {
		uint8_t e[24];
		put64(e, w->st.samples);
		put64(e + 8, w->st.blocks);
		put64(e + 16, w->st.lost);
		r = chunk(w, TAG_END, CHUNK_CRITICAL, e, sizeof(e));
	}
	if (!r && !w->no_index) {
		uint64_t at = w->pos;
		size_t len = 8 + 32 * w->nindex;
		uint8_t *p = malloc(len);
		if (!p) {
			r = set_err(w, PEBS_E_NOMEM, "out of memory");
		} else {
			put64(p, w->nindex);
			for (size_t i = 0; i < w->nindex; i++) {
				uint8_t *q = p + 8 + 32 * i;
				put64(q, w->index[i].offset);
				put64(q + 8, w->index[i].n);
				put64(q + 16, w->index[i].tmin);
				put64(q + 24, w->index[i].tmax);
			}
			r = chunk(w, TAG_INDX, 0, p, len);
			free(p);
			/* TAIL: where INDX and TAIL itself are, from MAGIC. */
			uint8_t t[16];
			put64(t, at);
			put64(t + 8, w->pos);
			if (!r)
				r = chunk(w, TAG_TAIL, 0, t, sizeof(t));
		}
	}
	if (!r && fflush(w->fp) == EOF)
		r = set_err(w, PEBS_E_IO, "write failed: %s",
			    strerror(errno ? errno : EIO));
	return w->err ? w->err : r;
}

int pebs_writer_close(struct pebs_writer *w)
{
	if (!w)
		return 0;
	int r = pebs_writer_finish(w);
	fmt_enc_free(w->enc);
	pebs_batch_free(w->pending);
	for (uint32_t i = 0; i < w->nnames; i++)
		free(w->names[i]);
	free(w->names);
	free(w->index);
	free(w);
	return r;
}

int pebs_writer_first_time(const struct pebs_writer *w, uint64_t *t0)
{
	*t0 = w->nindex ? w->index[0].tmin : 0;
	return w->nindex != 0;
}

const char *pebs_writer_errmsg(const struct pebs_writer *w)
{
	return w->msg;
}

void pebs_writer_stats(const struct pebs_writer *w,
		       struct pebs_write_stats *st)
{
	*st = w->st;
}
