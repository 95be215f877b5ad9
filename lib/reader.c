/*
 * reader.c - reads .pebs inputs as one concatenated stream of batches.
 *
 * Regular files are mmap'd but read with pread(2), only the bytes in use
 * (see img_load); anything else is read with read(2).  A pool of workers
 * pulls chunks in input order under a lock (the "producer" part: framing,
 * checksums, metadata, lost counts, block skipping) and decodes blocks
 * outside it; the caller receives batches strictly in input order through
 * a ring of slots.  The caller is one of the N decoding threads: when its
 * next batch is not ready it decodes the next block itself instead of
 * sleeping, and workers sleep only on a full ring, until half of it is
 * free.  With one thread the caller does everything inline.
 * Damage is reported in order too: every batch before it comes first.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ascii.h"
#include "bigmem.h"
#include "fileio.h"
#include "fmt.h"
#include "meta_int.h"
#include "pebs_format.h"
#include "errbuf.h"

enum { S_FREE, S_BUSY, S_READY };
/* K_MARK: no block, only what was read since the slot before (a LOST
 * chunk, headers, the end of a source): see struct rdelta. */
enum { K_BATCH, K_ERROR, K_MARK };
enum { P_BLOCK, P_ERROR, P_EOF, P_MARK, P_AGAIN };
/* Source states. */
enum { ST_MAGIC, ST_CHUNKS, ST_AFTER_END, ST_DONE };

#define MSG_LEN 256
#define MAX_THREADS PEBS_READER_MAX_THREADS

/*
 * What reading a source counted between two slots: the producer reads
 * ahead of what is delivered, and past damage that stops a source
 * without salvage, so these go to the statistics only when their slot is
 * delivered (deliver()), and never for slots dropped after such damage.
 * The statistics then say what the batches returned so far came from,
 * the same with any number of threads.  Bytes may go back (a chunk given
 * back): unsigned wrap-around adds up right.
 */
struct rdelta {
	uint64_t bytes, segments, skipped, damaged, lost;
	unsigned minor_min, minor_max;
	int have_minor;
};

struct src {
	char *name;		/* for messages, kept until the reader closes */
	char *path;		/* NULL: standard input */
	int opened;		/* src_open was called (when reading reached it) */
	int fd;
	int open_errno;		/* open/stat/mmap failure, reported in turn */
	const uint8_t *map;	/* mmap'd regular file, else NULL */
	size_t size;
	uint64_t pos;		/* bytes consumed */
	int state;
	uint32_t segments;
	uint64_t blocks;	/* block number within the source */
	uint64_t seg_samples, seg_blocks;
	uint64_t seg_lost;	/* the counts of the segment's LOST chunks */
	int seg_damaged;	/* blocks of this segment may be uncounted */
	int seg_lost_bad;	/* a LOST chunk of the wrong size was seen */
	int trail;		/* after END: 1 INDX read, 2 TAIL read */
	uint64_t seg_start;
	/* the smallest time of the segment's first block, once read */
	uint64_t seg_tmin;
	int seg_tmin_set;
	struct pebs_meta *meta;	/* metadata of the current segment */
	int hdr_lost;		/* salvage: this segment's header was damaged */
	int refused;		/* this segment's version is unknown: skipped */
	int aborted;		/* stop reading this source */
	int end_lost;		/* salvage met the end of input in a segment */
	uint64_t rs_hashed;	/* payload bytes resync hashed (RS_*) */
	/*
	 * Resync after a damaged block: where the chunk after it starts by
	 * the lengths (0: unknown), and the blocks met there on the way.
	 */
	uint64_t rs_chain, rs_hops;
	/* the last block read: where it starts and ends, a stream's trailer */
	uint64_t blk_off, blk_end;
	uint8_t blk_trl[CHUNK_TRL];
	/*
	 * A stream's bytes read but not consumed: pb[pb_off, pb_off + pb_len).
	 * Salvage gives back what it read past damage and scans it (and what
	 * follows) for the next chunk, as resync does in a mapping.
	 */
	uint8_t *pb;
	size_t pb_off, pb_len, pb_cap;
	struct rdelta pend;	/* counted since the last slot (slot.d) */
	/* the LOST chunk read last, delivered by the next slot (a mark) */
	uint32_t lost_cpu;
	uint64_t lost_time, lost_off, lost_count;
	int lost_due;
};

struct slot {
	int state, kind;
	uint64_t seq;
	uint32_t src, segment;
	uint64_t block, offset;
	uint64_t tmin, tmax;	/* block time range, from its directory */
	uint64_t nsamples;	/* samples, from its directory */
	uint64_t present;	/* columns stored, from its directory */
	uint64_t bytes[PEBS_COL_COUNT];	/* stored bytes per column */
	const uint8_t *chunk;
	size_t len;
	uint8_t *owned;		/* stream chunks are copies */
	/*
	 * A mapped block's bytes in use, copied at their places in the chunk
	 * (img_load): the first img_have bytes, then what decoding reads.
	 */
	uint8_t *img;
	size_t img_cap, img_have;
	struct pebs_meta *meta;
	/* its segment's first block time, as its source had it (src.seg_tmin) */
	uint64_t seg_tmin;
	int seg_tmin_set;
	struct pebs_batch *batch;
	int err;
	int decoded;		/* decode finished (consume may still run) */
	struct rdelta d;	/* read since the slot before, in its source */
	/* a mark for a LOST chunk (lost_due): its record */
	int lost;
	uint32_t lost_cpu;
	uint64_t lost_time, lost_count;
	char msg[MSG_LEN];
};

struct worker {
	struct pebs_reader *r;
	struct fmt_dec *dec;
	pthread_t th;
};

struct pebs_reader {
	struct pebs_reader_opts o;
	struct src *srcs;
	size_t nsrc, cur;
	size_t nclosed;		/* sources before this one are closed */
	struct pebs_meta **metas;	/* every segment's, freed at close */
	size_t nmetas;
	struct pebs_meta *empty;
	const struct pebs_meta *cur_meta;
	uint64_t cur_tmin;	/* and its slot's seg_tmin */
	int cur_tmin_set;
	/* of the last slot delivered that had one (batch, error or mark) */
	const struct pebs_meta *last_meta;
	struct pebs_batch *lost_batch;	/* returned for a LOST (lost_batches) */

	struct slot *slots;
	size_t nslots;
	uint64_t next_seq;	/* next sequence number to produce */
	uint64_t cur_seq;	/* next sequence number to return */
	struct slot *held;	/* returned to the caller, freed next call */
	int producer_done;
	int stop;
	int started;		/* pebs_reader_next() was called */
	unsigned nthreads;	/* decoding threads, the caller's included */
	unsigned nworkers;	/* started: nthreads - 1 */
	struct worker *workers;
	struct fmt_dec *dec;	/* the caller's */
	pthread_mutex_t mu;
	pthread_cond_t ready, freed;
	unsigned ready_waiters, freed_waiters;
	/*
	 * A thread of several is in produce() (the lock held, but dropped
	 * while it waits for a stream: stream_read), so none other starts
	 * one; prod_caller: that thread is pebs_reader_next()'s caller.
	 */
	int producing, prod_caller;
	/*
	 * A stream has had nothing to read for a poll's timeout (stalled)
	 * and opts.idle was called since that timeout (idle_done).
	 */
	int stalled, idle_done;
	/*
	 * giveup: the caller reads a chunk while batches read before it
	 * are not delivered yet; a stream that has nothing to read for
	 * GIVEUP_MS makes it give the chunk's bytes back (P_AGAIN) and
	 * deliver them, rather than hold them until the writer writes
	 * again.  gave_back: it did, so the workers read that chunk (they
	 * wait for it), not the caller, until all before it is delivered.
	 * giveup_got: what the read that gave up had read.
	 */
	int giveup, gave_back;
	size_t giveup_got;
	int gave_up;		/* a read gave up since this was cleared */

	struct pebs_read_stats st;
	int have_time;
	uint32_t dropped_src;	/* after an error without salvage */
	int dropped;
	char errfile[512];
	char errmsg[MSG_LEN];
};

__attribute__((format(printf, 4, 5)))
static int slot_err(struct slot *s, int code, uint32_t src, const char *fmt,
		    ...)
{
	va_list ap;
	va_start(ap, fmt);
	lib_verrf(s->msg, sizeof(s->msg), fmt, ap);
	va_end(ap);
	s->kind = K_ERROR;
	s->err = -code;
	s->src = src;
	return P_ERROR;
}

/*
 * What an input that does not start with a MAGIC shows of itself for
 * bad_magic(): a chunk header's bytes, or of text, its first line up to
 * HEAD_LOOK bytes, read HEAD_STEP bytes at a time.
 */
#define HEAD_LOOK 1024
#define HEAD_STEP 64

/* Whether the @n bytes at @head are printable text (CSV, YAML). */
static int is_text(const uint8_t *head, size_t n)
{
	int text = n > 0;
	for (size_t i = 0; i < n; i++)
		text &= (head[i] >= 0x20 && head[i] < 0x7f) ||
			head[i] == '\n' || head[i] == '\r' || head[i] == '\t';
	return text;
}

/* Whether @head (@n bytes) starts a YAML result whose first key is @key
 * ("pebs_c2c:"), after an optional document start "---". */
static int yaml_result(const uint8_t *head, size_t n, const char *key)
{
	size_t k = strlen(key);
	if (n >= 4 && !memcmp(head, "---\n", 4)) {
		head += 4;
		n -= 4;
	}
	return n >= k && !memcmp(head, key, k);
}

/* Whether @head (@n bytes) starts with @prefix, letters in any case. */
static int starts_nocase(const uint8_t *head, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && !lib_strncasecmp((const char *)head, prefix, k);
}

/*
 * Whether the first line of @head (@n bytes of text, perhaps only its
 * start) looks like a CSV header: names (letters, digits, "_-. ",
 * perhaps quoted) separated by commas, at least one comma among them.
 * The names may be of any length (up to HEAD_LOOK in all), but one of
 * more than three words, unquoted, is a sentence, not a name: prose with
 * a comma ("These are the notes of the run, kept ...") is text, not CSV.
 */
static int csv_header(const uint8_t *head, size_t n)
{
	int commas = 0, words = 0, in_word = 0, quoted = 0;
	if (n == 0 || !(lib_isalpha(head[0]) || head[0] == '_' || head[0] == '"'))
		return 0;
	for (size_t i = 0; i < n && head[i] != '\n' && head[i] != '\r'; i++) {
		int c = head[i];
		if (c == '"') {
			quoted = !quoted;
		} else if (c == ',' && !quoted) {
			commas++;
			words = in_word = 0;
		} else if (c == ' ' && !quoted) {
			in_word = 0;	/* spaces around a name are no word */
		} else if (!lib_isalnum(c) && !strchr("_-. \"", c)) {
			return 0;
		} else if (!quoted && !in_word) {
			in_word = 1;
			if (++words > 3)
				return 0;
		}
	}
	return commas > 0;
}

/*
 * Says what an input that does not start with the magic is, when that is
 * plain: perf.data ("PERFILE2", either byte order) and a CSV of samples
 * are imported with pebs-import, not read; the YAML results of pebs-c2c
 * and pebs-hist are merged with their --merge; a memory-access trace
 * (formats/trace-format.md) is replayed by pebs-capture --trace; the SVG
 * and HTML reports are outputs only, which no tool reads.  @head holds
 * up to CHUNK_HDR bytes, enough for each of these prefixes, or of text
 * more, to the end of its first line (head_line()): a CSV header is told
 * by its first line, however long its first name.
 */
static void bad_magic(struct slot *sl, uint32_t si, const uint8_t *head,
		      size_t n)
{
	/* Text by its first CHUNK_HDR bytes and first line only: the step
	 * that read the line's end may hold bytes of the next lines, which
	 * a CSV may have in UTF-8. */
	size_t tn = n;
	if (n > CHUNK_HDR) {
		const uint8_t *nl = memchr(head, '\n', n);
		const uint8_t *cr = memchr(head, '\r', n);
		if (cr && (!nl || cr < nl))
			nl = cr;
		if (nl)
			tn = (size_t)(nl - head) + 1;
	}
	int text = is_text(head, tn);
	if (n >= 8 && (!memcmp(head, "PERFILE2", 8) ||
		       !memcmp(head, "2ELIFREP", 8)))
		slot_err(sl, PEBS_E_FORMAT, si, "a perf.data file, not a "
			 ".pebs stream (convert it with pebs-import -f perf)");
	else if (text && yaml_result(head, n, "pebs_c2c:"))
		slot_err(sl, PEBS_E_FORMAT, si, "a YAML result of pebs-c2c, "
			 "not a .pebs stream (results are merged with "
			 "pebs-c2c --merge)");
	else if (text && yaml_result(head, n, "pebs_hist:"))
		slot_err(sl, PEBS_E_FORMAT, si, "a YAML result of pebs-hist, "
			 "not a .pebs stream (results are merged with "
			 "pebs-hist --merge)");
	else if (text && n >= 11 && !memcmp(head, "pebs-trace ", 11))
		slot_err(sl, PEBS_E_FORMAT, si, "a memory-access trace, not a "
			 ".pebs stream (it is replayed with pebs-capture "
			 "--trace)");
	else if (text && (starts_nocase(head, n, "<svg") ||
			  starts_nocase(head, n, "<?xml")))
		slot_err(sl, PEBS_E_FORMAT, si, "an SVG image, not a .pebs "
			 "stream (a report of pebs-hist or pebs-c2c -f svg, "
			 "which no tool reads)");
	else if (text && (starts_nocase(head, n, "<!DOCTYPE html") ||
			  starts_nocase(head, n, "<html")))
		slot_err(sl, PEBS_E_FORMAT, si, "an HTML page, not a .pebs "
			 "stream (a report of pebs-c2c -f html, which no tool "
			 "reads)");
	else if (text && csv_header(head, n))
		slot_err(sl, PEBS_E_FORMAT, si, "text, not a .pebs stream (a "
			 "CSV of samples is converted with pebs-import)");
	else if (text)
		slot_err(sl, PEBS_E_FORMAT, si, "text, not a .pebs stream");
	else
		slot_err(sl, PEBS_E_FORMAT, si,
			 "not a .pebs stream (bad magic)");
}

/* -------------------------------------------------------------- sources */

/*
 * Opens a source when reading reaches it, not before: an input stays open
 * (and mapped) only while it is read (see src_close_done), so a thousand
 * inputs do not run out of file descriptors.  Opened without blocking,
 * then made blocking: the open of a FIFO waits for its writer, with the
 * reader's lock held and where pebs_reader_close() cannot stop it (a
 * tool done with --head hung); stream_read() waits for the writer
 * instead, polled.
 */
static void src_open(struct src *s)
{
	struct stat sb;
	s->opened = 1;
	if (!s->path) {
		s->fd = STDIN_FILENO;
	} else {
		s->fd = open(s->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		int fl = s->fd < 0 ? -1 : fcntl(s->fd, F_GETFL);
		if (fl < 0 || fcntl(s->fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
			s->open_errno = errno;
			if (s->fd >= 0)
				close(s->fd);
			s->fd = -1;
			return;
		}
	}
	/*
	 * Standard input starts where its offset is, as a pipe would: a
	 * file redirected there is mapped only from offset 0, and then
	 * moved to its end, so that a second "-" (or whatever reads stdin
	 * next) finds it consumed.  Otherwise it is read as a stream.
	 */
	off_t at = s->fd == STDIN_FILENO ? lseek(s->fd, 0, SEEK_CUR) : 0;
	if (fstat(s->fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
	    at == 0) {
		void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE,
			       s->fd, 0);
		if (m != MAP_FAILED) {
			s->map = m;
			s->size = (size_t)sb.st_size;
			madvise(m, s->size, MADV_SEQUENTIAL);
			if (s->fd == STDIN_FILENO)
				lseek(s->fd, 0, SEEK_END);
		}
	}
}

/* Closes (and unmaps) a source read to its end; its name stays. */
static void src_close(struct src *s)
{
	if (s->map)
		munmap((void *)s->map, s->size);
	s->map = NULL;
	if (s->fd > STDIN_FILENO)
		close(s->fd);
	s->fd = -1;
	free(s->pb);
	s->pb = NULL;
	s->pb_off = s->pb_len = s->pb_cap = 0;
}

static void signal_ready(struct pebs_reader *r);

/*
 * The input has stalled (a stream had nothing to read for a poll's
 * timeout): opts.idle, on the caller's thread once every batch read
 * before the stall was delivered (struct pebs_reader_opts), and again at
 * each timeout while it lasts.  Here when that is this thread (inline,
 * or the caller producing with nothing left to deliver), else the
 * caller is woken to do it.
 */
static void stall(struct pebs_reader *r)
{
	if (!r->o.idle)
		return;
	if (r->nthreads == 1) {
		r->o.idle(r->o.idle_ctx);
		return;
	}
	r->stalled = 1;
	r->idle_done = 0;
	if (!r->prod_caller) {
		signal_ready(r);
	} else if (r->cur_seq == r->next_seq) {
		/* producing: nobody else does meanwhile */
		r->idle_done = 1;
		pthread_mutex_unlock(&r->mu);
		r->o.idle(r->o.idle_ctx);
		pthread_mutex_lock(&r->mu);
	}
}

/*
 * Reads at least @min bytes of a stream (fewer only at its end), and as
 * many as there are up to @max, into @buf; returns the count or -1 with
 * errno.  Polled so that pebs_reader_close can stop a worker blocked on
 * a pipe that never ends.  A thread of several waits without the lock:
 * the batches decoded before are delivered meanwhile, not held until the
 * stream's writer writes again (a pipe's may be a live capture), and
 * pebs_reader_close() can stop it.
 */
#define GIVEUP_MS 50
static ssize_t stream_read(struct pebs_reader *r, struct src *s, void *buf,
			   size_t min, size_t max)
{
	size_t got = 0, len = max;
	int locked = r->producing;
	while (got < min) {
		struct pollfd pfd = { s->fd, POLLIN, 0 };
		if (locked)
			pthread_mutex_unlock(&r->mu);
		int pr = poll(&pfd, 1, r->giveup ? GIVEUP_MS : 200),
		    e = errno;
		if (locked)
			pthread_mutex_lock(&r->mu);
		errno = e;
		if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
			errno = ECANCELED;
			return -1;
		}
		if (pr < 0 && errno != EINTR)
			return -1;
		if (pr == 0 && r->giveup) {
			/* src_read() gives back what was read */
			r->giveup_got = got;
			errno = EAGAIN;
			return -1;
		}
		if (pr == 0)
			stall(r);
		if (pr <= 0)
			continue;
		ssize_t n = read(s->fd, (uint8_t *)buf + got, len - got);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		r->stalled = r->idle_done = 0;
	}
	return (ssize_t)got;
}

static int src_unread(struct src *s, uint64_t at, const uint8_t *buf,
		      size_t n);

/*
 * Reads up to @len bytes of a source at its position into @buf; returns
 * the count (short only at end of input) or -1 with errno: EAGAIN when
 * it gave up waiting (r->giveup), the bytes it read given back and
 * r->gave_up set.
 */
static ssize_t src_read(struct pebs_reader *r, struct src *s, void *buf,
			size_t len)
{
	/* Copied, not read in place: the file may shrink (SIGBUS). */
	if (s->map)
		return lib_pread_full(s->fd, buf, len, s->pos);
	size_t got = len < s->pb_len ? len : s->pb_len;
	if (got) {
		memcpy(buf, s->pb + s->pb_off, got);
		s->pb_off += got;
		s->pb_len -= got;
	}
	ssize_t n = stream_read(r, s, (uint8_t *)buf + got, len - got,
				len - got);
	if (n < 0 && errno == EAGAIN && r->giveup) {
		/* gave_up only with every byte back: else a read error */
		if (src_unread(s, s->pos, buf, got + r->giveup_got) < 0)
			errno = ENOMEM;
		else
			r->gave_up = 1;
	}
	return n < 0 ? -1 : (ssize_t)got + n;
}

/*
 * Gets @len bytes at the current position: a copy in *@owned, preceded
 * there by the @plen bytes of @prefix (so a chunk read as header, then
 * payload, ends up contiguous).  Returns the number of bytes available
 * (short at end of input) or -1 on a read error.
 */
static ssize_t src_take_after(struct pebs_reader *r, struct src *s,
			      size_t len, const uint8_t *prefix, size_t plen,
			      const uint8_t **p, uint8_t **owned)
{
	*owned = NULL;
	uint8_t *b = malloc(plen + len + 1);
	if (!b) {
		errno = ENOMEM;
		return -1;
	}
	if (plen)
		memcpy(b, prefix, plen);
	ssize_t n = src_read(r, s, b + plen, len);
	if (n < 0) {
		int e = errno;	/* for the caller's message */
		free(b);
		errno = e;
		return -1;
	}
	s->pos += (uint64_t)n;
	*owned = b;
	*p = b + plen;
	return n;
}

static ssize_t src_take(struct pebs_reader *r, struct src *s, size_t len,
			const uint8_t **p, uint8_t **owned)
{
	return src_take_after(r, s, len, NULL, 0, p, owned);
}

/*
 * Gives back the @n bytes at @buf, which were read from a stream at @at
 * onwards: the next read starts with them.  On a mapped source only the
 * position moves back.  Returns 0, or -1 out of memory.
 */
static int src_unread(struct src *s, uint64_t at, const uint8_t *buf,
		      size_t n)
{
	if (!s->map && n) {
		if (s->pb_len + n > s->pb_cap) {
			size_t cap = 2 * (s->pb_len + n);
			uint8_t *b = malloc(cap);
			if (!b)
				return -1;
			if (s->pb_len)	/* pb may be NULL: nothing yet */
				memcpy(b + n, s->pb + s->pb_off, s->pb_len);
			free(s->pb);
			s->pb = b;
			s->pb_cap = cap;
			s->pb_off = n;
		} else if (s->pb_off < n) {
			memmove(s->pb + n, s->pb + s->pb_off, s->pb_len);
			s->pb_off = n;
		}
		s->pb_off -= n;
		s->pb_len += n;
		memcpy(s->pb + s->pb_off, buf, n);
	}
	s->pos = at;
	return 0;
}

/*
 * Reads from a stream until @need bytes are given back (pb_len), or the
 * input ends, and up to PB_MORE bytes more where they are there already:
 * resync scans a stream byte by byte, and one read per byte took minutes
 * over a large zero-filled hole in a pipe.  Returns 0, or -1 with errno.
 */
#define PB_MORE (64u << 10)
static int pb_fill(struct pebs_reader *r, struct src *s, size_t need)
{
	if (s->pb_len >= need)
		return 0;
	size_t want = need + PB_MORE;
	if (s->pb_off + want > s->pb_cap) {
		if (want <= s->pb_cap) {
			if (s->pb_len)
				memmove(s->pb, s->pb + s->pb_off, s->pb_len);
		} else {
			uint8_t *b = malloc(want);
			if (!b) {
				errno = ENOMEM;
				return -1;
			}
			if (s->pb_len)
				memcpy(b, s->pb + s->pb_off, s->pb_len);
			free(s->pb);
			s->pb = b;
			s->pb_cap = want;
		}
		s->pb_off = 0;
	}
	size_t have = s->pb_len;
	ssize_t n = stream_read(r, s, s->pb + s->pb_off + have, need - have,
				s->pb_cap - s->pb_off - have);
	if (n < 0)
		return -1;
	s->pb_len += (size_t)n;
	return 0;
}

/*
 * Steps over @len bytes of a mapped source: *@p is where they are in the
 * mapping, which is not read (img_load copies what is used).  Returns the
 * number of bytes there (short at end of input).
 */
static size_t src_skip(struct src *s, size_t len, const uint8_t **p)
{
	size_t left = s->size - (size_t)s->pos;
	size_t n = len < left ? len : left;
	*p = s->map + s->pos;
	s->pos += n;
	return n;
}

/* --------------------------------------------------------- block bytes */

/*
 * Mapped files are not read in place: their blocks are copied with
 * pread(2) into the slot's buffer, at their places in the chunk, and only
 * the bytes in use: the head (by the producer), then what decoding reads
 * (fmt_block_ranges).  On virtual machines the first touch of each page of
 * a file mapping costs microseconds, more than copying the page, while
 * the slot's buffer is touched once and stays mapped (bench/RESULTS.md,
 * seventh session); and a file that shrinks while it is read gives a read
 * error instead of SIGBUS.  Other chunks are read by src_read; the
 * mapping is read only to resynchronise after damage (salvage).
 */

/* Copies bytes [@from, @to) of the chunk of @sl into its buffer. */
static int img_read(const struct src *s, struct slot *sl, size_t from,
		    size_t to)
{
	ssize_t n = lib_pread_full(s->fd, sl->img + from, to - from,
			       sl->offset + from);
	if (n == (ssize_t)(to - from))
		return 0;
	slot_err(sl, PEBS_E_IO, sl->src,
		 "block %llu at offset 0x%llx: read error: %s",
		 (unsigned long long)sl->block, (unsigned long long)sl->offset,
		 n < 0 ? strerror(errno) : "the file shrank");
	return -1;
}

/* Makes sure the first @to bytes of the chunk of @sl are in its buffer. */
static int img_prefix(const struct src *s, struct slot *sl, size_t to)
{
	if (to > sl->len)
		to = sl->len;
	if (sl->img_have >= to)
		return 0;
	if (img_read(s, sl, sl->img_have, to))
		return -1;
	sl->img_have = to;
	return 0;
}

/* Bytes of a chunk read at first: its head, unless names are many. */
#define IMG_HEAD 4096

/*
 * Starts the buffer of @sl for its chunk (sl->len bytes at sl->offset):
 * the head, or the whole chunk when decoding needs it all or the head is
 * longer or damaged (so that the checksum can name the damage).
 */
static int img_load(struct pebs_reader *r, const struct src *s,
		    struct slot *sl)
{
	if (sl->img_cap < sl->len) {
		/* a power of two: a few sizes for blocks of every size; past
		 * 512 KiB on huge pages (lib_big_realloc): on small ones,
		 * reading into it was a hundred page faults a slot */
		lib_big_free(sl->img);
		sl->img_cap = lib_big_pow2(sl->len, 65536);
		if (!(sl->img = lib_big_realloc(NULL, sl->img_cap))) {
			sl->img_cap = 0;
			slot_err(sl, PEBS_E_NOMEM, sl->src, "out of memory");
			return -1;
		}
	}
	sl->img_have = 0;
	if (img_prefix(s, sl, IMG_HEAD))
		return -1;
	struct fmt_range rg[FMT_RANGES_MAX];
	if (fmt_block_ranges(sl->img, sl->len, sl->img_have, r->o.cols,
			     rg) <= 0)
		return img_prefix(s, sl, sl->len);
	return 0;
}

/*
 * The bytes of the block of @sl that verifying and decoding @cols read
 * (fmt_block_ranges), found from its head.
 */
static int img_get(const struct src *s, struct slot *sl, uint64_t cols)
{
	struct fmt_range rg[FMT_RANGES_MAX];
	int k = fmt_block_ranges(sl->img, sl->len, sl->img_have, cols, rg);
	if (k <= 0)
		return img_prefix(s, sl, sl->len);
	for (int i = 0; i < k; i++) {
		size_t from = rg[i].off, to = rg[i].off + rg[i].len;
		/* Ranges that continue the prefix extend it (raw copies). */
		if (from <= sl->img_have) {
			if (img_prefix(s, sl, to))
				return -1;
		} else if (img_read(s, sl, from, to)) {
			return -1;
		}
	}
	return 0;
}

/*
 * What decoding the reader's columns reads; all of the block for raw
 * chunk copies (pebs_reader_raw) and for checking every column
 * (verify_all).  Outside the lock.
 */
static int img_fetch(struct pebs_reader *r, const struct src *s,
		     struct slot *sl)
{
	return r->o.raw_chunks || r->o.verify_all ?
	       img_prefix(s, sl, sl->len) :
	       img_get(s, sl, r->o.cols);
}

/* ------------------------------------------------------------- producer */

static int parse_head(struct pebs_reader *r, struct src *s, struct slot *sl,
		      const uint8_t *p, uint64_t len, uint64_t off)
{
	uint32_t si = (uint32_t)(s - r->srcs);
	const uint8_t *end = p + len;
	if (len < 28)
		return slot_err(sl, PEBS_E_CORRUPT, si,
				"header at offset 0x%llx: too short",
				(unsigned long long)off);
	unsigned major = get16(p), minor = get16(p + 2);
	uint64_t required = get64(p + 8);
	if (major != PEBS_FORMAT_VERSION)
		return slot_err(sl, PEBS_E_VERSION, si,
				"format version %u (this reader knows %d)",
				major, PEBS_FORMAT_VERSION);
	if (required & ~FMT_REQ_KNOWN)
		return slot_err(sl, PEBS_E_VERSION, si,
				"required features 0x%llx unknown to this "
				"reader", (unsigned long long)
				(required & ~FMT_REQ_KNOWN));
	if (!s->pend.have_minor || minor < s->pend.minor_min)
		s->pend.minor_min = minor;
	if (!s->pend.have_minor || minor > s->pend.minor_max)
		s->pend.minor_max = minor;
	s->pend.have_minor = 1;
	p += 24;
	uint32_t ncols = get32(p);
	p += 4;
	for (uint32_t i = 0; i < ncols; i++) {
		if (end - p < 6 || (size_t)(end - p - 6) < get16(p + 4))
			goto bad;
		p += 6 + get16(p + 4);
		if (end - p < 2 || (size_t)(end - p - 2) < get16(p))
			goto bad;
		p += 2 + get16(p);
	}
	if (end - p < 4)
		goto bad;
	uint32_t nmeta = get32(p);
	p += 4;
	struct pebs_meta *m = pebs_meta_new();
	struct pebs_meta **nm = realloc(r->metas,
					(r->nmetas + 1) * sizeof(*nm));
	if (!m || !nm) {
		pebs_meta_free(m);
		free(nm);
		return slot_err(sl, PEBS_E_NOMEM, si, "out of memory");
	}
	r->metas = nm;
	r->metas[r->nmetas++] = m;
	for (uint32_t i = 0; i < nmeta; i++) {
		const uint8_t *kv[2];
		size_t kvlen[2];
		for (int j = 0; j < 2; j++) {
			if (end - p < 4 || (size_t)(end - p - 4) < get32(p))
				goto bad;
			kv[j] = p + 4;
			kvlen[j] = get32(p);
			p += 4 + get32(p);
		}
		/* a NUL byte in a key or value: malformed (section 4) */
		int rc = fmt_meta_set(m, kv[0], kvlen[0], kv[1], kvlen[1]);
		if (rc == -PEBS_E_CORRUPT)
			goto bad;
		if (rc)
			return slot_err(sl, PEBS_E_NOMEM, si, "out of memory");
	}
	s->meta = m;
	return -1;
bad:
	return slot_err(sl, PEBS_E_CORRUPT, si,
			"header at offset 0x%llx: malformed",
			(unsigned long long)off);
}

/* A segment starts at @at (its MAGIC, or where that would be). */
static void seg_begin(struct src *s, uint64_t at)
{
	s->state = ST_CHUNKS;
	s->segments++;
	s->pend.segments++;
	s->seg_samples = s->seg_blocks = s->seg_lost = 0;
	s->seg_damaged = s->seg_lost_bad = s->trail = 0;
	s->seg_start = at;
	s->seg_tmin_set = 0;
	s->meta = NULL;
	s->hdr_lost = 0;
	s->refused = 0;
}

/*
 * What resync may hash in a source: RS_BASE bytes, and RS_PER_BYTE per
 * byte of input before the place scanned.  Each place that looks like a
 * chunk header costs a hash of the length it claims, up to 256 MiB, so a
 * crafted run of such headers made the scan quadratic (4 MiB took 46 s);
 * with the bound it is linear in the input.  Blocks with a column
 * checksum table are checked by their head (directory, lengths and the
 * head's checksum) instead, outside the bound: the blocks every writer of
 * minor version 1 or later writes are always found.  The first candidate
 * of any length is always checked (RS_BASE).
 */
#define RS_BASE (CHUNK_MAX_LEN + CHUNK_HDR + CHUNK_TRL)
#define RS_PER_BYTE 64

/*
 * Whether the @have bytes at @p start a segment magic (1), a whole,
 * checksum-valid HEAD, BLCK, LOST or END chunk (2), or neither (0); -1
 * when more bytes are needed to tell, *@need of them.  A chunk that needs
 * a hash of its payload is taken only when its length fits in @allow;
 * the bytes hashed are added to *@hashed.
 */
static int sync_point(const uint8_t *p, size_t have, size_t *need,
		      uint64_t allow, uint64_t *hashed)
{
	*need = CHUNK_HDR;
	if (have >= FMT_MAGIC_LEN && memcmp(p, FMT_MAGIC, FMT_MAGIC_LEN) == 0)
		return 1;
	if (have < CHUNK_HDR)
		return -1;
	uint32_t tag = get32(p);
	if (tag != TAG_HEAD && tag != TAG_BLCK && tag != TAG_LOST &&
	    tag != TAG_END)
		return 0;
	uint64_t len = get64(p + 8);
	if (len > CHUNK_MAX_LEN)
		return 0;
	if (tag != TAG_BLCK && len > allow)
		return 0;
	*need = CHUNK_HDR + (size_t)len + CHUNK_TRL;
	if (have < *need)
		return -1;
	if (tag == TAG_BLCK) {
		struct pebs_block_info bi;
		if (pebs_block_info(p, *need, 0, &bi, NULL, 0))
			return 0;
		if (get32(p + CHUNK_HDR + 12) & BLK_F_COLSUMS)
			return fmt_block_verify_head(p, *need) ? 0 : 2;
		if (len > allow)
			return 0;
	}
	*hashed += len;
	return fmt_checksum(tag, p + CHUNK_HDR, len) ==
	       get64(p + CHUNK_HDR + len) ? 2 : 0;
}

/*
 * Where in the @len bytes of chunk @c, past its first byte, a segment
 * starts: a MAGIC followed by a HEAD chunk whose checksum matches, or
 * that runs past the end of @c (its checksum is then checked by resync).
 * The MAGIC may lie anywhere in the chunk, its checksum trailer included
 * (a file cut 8 to 23 bytes before a block's end, another one appended):
 * what of the HEAD's header lies past the chunk is checked against the
 * @nafter bytes at @after that follow it, as far as they go.  0 if none.
 */
static size_t segment_inside(const uint8_t *c, size_t len,
			     const uint8_t *after, size_t nafter)
{
	for (size_t at = 1; at + FMT_MAGIC_LEN <= len; at++) {
		const uint8_t *m = memchr(c + at, FMT_MAGIC[0],
					  len - FMT_MAGIC_LEN - at + 1);
		if (!m)
			return 0;
		at = (size_t)(m - c);
		if (memcmp(m, FMT_MAGIC, FMT_MAGIC_LEN) != 0)
			continue;
		const uint8_t *h = m + FMT_MAGIC_LEN;
		size_t have = len - at - FMT_MAGIC_LEN, need;
		uint64_t hashed = 0;
		if (have < CHUNK_HDR) {
			/* the header runs past the chunk: join what follows */
			uint8_t hh[CHUNK_HDR];
			size_t more = CHUNK_HDR - have;
			if (more > nafter)
				more = nafter;
			memcpy(hh, h, have);
			if (more)
				memcpy(hh + have, after, more);
			have += more;
			if ((have >= 4 && get32(hh) != TAG_HEAD) ||
			    (have >= CHUNK_HDR &&
			     get64(hh + 8) > CHUNK_MAX_LEN))
				continue;
			return at;
		}
		if (get32(h) != TAG_HEAD || get64(h + 8) > CHUNK_MAX_LEN)
			continue;
		int k = sync_point(h, have, &need, CHUNK_MAX_LEN, &hashed);
		if (k == 2 || k < 0)
			return at;
	}
	return 0;
}

/*
 * Whether the chunk at @at follows right after a block whose checksum
 * trailer is a segment's MAGIC: a file cut 8 bytes before a block's end,
 * with another appended.
 */
static int cut_block_before(const struct src *s, uint64_t at)
{
	uint8_t b[CHUNK_TRL];
	if (!s->blocks || s->blk_end != at || at < CHUNK_TRL)
		return 0;
	if (!s->map)
		memcpy(b, s->blk_trl, CHUNK_TRL);
	else if (lib_pread_full(s->fd, b, CHUNK_TRL, at - CHUNK_TRL) !=
		 CHUNK_TRL)
		return 0;
	return memcmp(b, FMT_MAGIC, FMT_MAGIC_LEN) == 0;
}

/* What resync may still hash at @o in @s (see RS_BASE). */
static uint64_t rs_allow(const struct src *s, uint64_t o)
{
	uint64_t cap = RS_BASE + (o > (UINT64_MAX - RS_BASE) / RS_PER_BYTE ?
				  UINT64_MAX - RS_BASE : o * RS_PER_BYTE);
	return cap > s->rs_hashed ? cap - s->rs_hashed : 0;
}

/*
 * For salvage: finds the next place at or after @from where a segment
 * magic or a whole, checksum-valid chunk starts, and goes on there.  A
 * HEAD found this way starts a segment whose magic was damaged.  A stream
 * is scanned in what salvage gave back (src_unread, at @from) and what
 * follows, read as needed; returns 1 when found, 0 at the end of input,
 * -1 on a read error (errno).
 */
static int resync(struct pebs_reader *r, struct src *s, uint64_t from)
{
	uint64_t o = from;
	int k;
	size_t need;
	for (;; o++) {
		if (s->map) {
			s->pos = s->size;	/* where the input ends */
			if (o >= s->size)
				return 0;
			k = sync_point(s->map + o, s->size - (size_t)o, &need,
				       rs_allow(s, o), &s->rs_hashed);
			if (k < 0 && need <= CHUNK_HDR)
				return 0;	/* too few bytes left */
		} else {
			/* drops the byte before o */
			if (o > from) {
				s->pb_off++;
				s->pb_len--;
			}
			do {
				/* pb is NULL until a stream buffers a byte:
				 * NULL + 0 is undefined too */
				k = sync_point(s->pb ? s->pb + s->pb_off : NULL,
					       s->pb_len, &need,
					       rs_allow(s, o), &s->rs_hashed);
				if (k >= 0 || s->pb_len >= need)
					break;
				size_t had = s->pb_len;
				if (pb_fill(r, s, need) < 0)
					return -1;
				if (s->pb_len == had)
					break;	/* the end of input */
			} while (1);
			if (k < 0 && need <= CHUNK_HDR) {
				s->pos = o + s->pb_len;	/* the end */
				return 0;
			}
		}
		if (k > 0)
			break;
		if (k == 0 && s->rs_chain && o == s->rs_chain) {
			/* a block by the lengths, whose head is damaged too */
			const uint8_t *q = s->map ? s->map + o :
					   s->pb + s->pb_off;
			uint64_t ql = get64(q + 8);
			if (get32(q) == TAG_BLCK && ql <= CHUNK_MAX_LEN) {
				s->rs_hops++;
				s->rs_chain = o + CHUNK_HDR + ql + CHUNK_TRL;
			} else {
				s->rs_chain = 0;
			}
		}
	}
	s->pos = o;
	if (k == 1) {
		s->state = ST_MAGIC;
	} else if (get32(s->map ? s->map + o : s->pb + s->pb_off) ==
		   TAG_HEAD) {
		seg_begin(s, o >= FMT_MAGIC_LEN ? o - FMT_MAGIC_LEN : 0);
	} else {
		s->state = ST_CHUNKS;
	}
	return 1;
}

/*
 * After damage: stop the source, or with salvage find a place to go on.
 * @can_skip says the damaged chunk's length is sound (its checksum
 * matched, or the directory it was checked against did), so the position
 * past it is right; otherwise the length itself may be the damage and
 * the source is scanned from the byte after @at.  A stream gives back
 * first the @n bytes at @got it read from @at on.
 */
static void after_damage(struct pebs_reader *r, struct src *s,
			 struct slot *sl, uint64_t at, int can_skip,
			 const uint8_t *got, size_t n)
{
	if (!r->o.salvage) {
		/* read, as far as it was (callers took a chunk back) */
		if (!can_skip)
			s->pend.bytes += n;
		s->state = ST_DONE;
		return;
	}
	s->pend.damaged++;
	s->seg_damaged = 1;
	if (!s->meta)
		s->hdr_lost = 1;
	if (can_skip)
		return;		/* the chunk's length was sound: pos is past */
	if (!s->map && src_unread(s, at + 1, n > 1 ? got + 1 : NULL,
				  n > 1 ? n - 1 : 0) < 0) {
		s->state = ST_DONE;
		return;
	}
	/* a damaged end marker is that segment's end, said already */
	const uint8_t *h = s->map ? (at < s->size ? s->map + at : NULL) : got;
	size_t hn = s->map ? (h ? s->size - (size_t)at : 0) : n;
	int in_seg = s->state == ST_CHUNKS &&
		     !(h && hn >= 4 && get32(h) == TAG_END);
	/*
	 * A damaged block whose length was sound may be followed by more
	 * blocks with damaged heads, which the scan steps over: when the
	 * lengths lead from it to where the scan goes on, they are those
	 * blocks, counted and numbered (else they are unknown).
	 */
	s->rs_chain = 0;
	s->rs_hops = 0;
	if (h && hn >= CHUNK_HDR && get32(h) == TAG_BLCK &&
	    get64(h + 8) <= CHUNK_MAX_LEN)
		s->rs_chain = at + CHUNK_HDR + get64(h + 8) + CHUNK_TRL;
	int k = resync(r, s, at + 1);
	if (k > 0 && s->rs_hops && s->rs_chain == s->pos) {
		uint64_t b0 = s->blocks;
		size_t ml = strlen(sl->msg);
		s->blocks += s->rs_hops;
		s->pend.damaged += s->rs_hops;
		if (s->rs_hops == 1)
			snprintf(sl->msg + ml, sizeof(sl->msg) - ml, " (and "
				 "block %llu after it: damaged too)",
				 (unsigned long long)b0);
		else
			snprintf(sl->msg + ml, sizeof(sl->msg) - ml, " (and "
				 "blocks %llu to %llu after it: damaged too)",
				 (unsigned long long)b0,
				 (unsigned long long)(s->blocks - 1));
	}
	s->rs_chain = 0;
	/* the bytes stepped over count as read, to where reading goes on
	 * or the end (a caller that counted the chunk took it back) */
	if (k >= 0 && s->pos > at)
		s->pend.bytes += s->pos - at;
	if (k <= 0)
		s->state = ST_DONE;
	/* the segment's end is lost too: said after this damage */
	if (k == 0 && in_seg)
		s->end_lost = 1;
}

/*
 * Reports an input that ends inside the chunk at @off, of which the @n
 * bytes at @hdr are its header's (all of it, or as many as there were):
 * named by what the tag says it is, as far as it is there.  Blocks are
 * numbered from 0, as in the format's messages.  @end is where the input
 * ends, said too when it is inside the chunk: the chunk's offset alone
 * reads as if the input ended there.
 */
static int truncated(struct slot *sl, const struct src *s, uint32_t si,
		     uint64_t off, const uint8_t *hdr, size_t n, uint64_t end)
{
	unsigned long long o = (unsigned long long)off;
	unsigned long long e = (unsigned long long)end;
	size_t t = n < 4 ? n : 4;
	if (n == 0 && !s->meta && !s->hdr_lost)
		return slot_err(sl, PEBS_E_TRUNCATED, si,
				"truncated before the header at offset 0x%llx",
				o);
	if (n == 0 && !s->blocks)
		return slot_err(sl, PEBS_E_TRUNCATED, si,
				"truncated before block 0 at offset 0x%llx: "
				"no end marker", o);
	if (n == 0)
		return slot_err(sl, PEBS_E_TRUNCATED, si,
				"truncated after block %llu at offset 0x%llx: "
				"no end marker",
				(unsigned long long)s->blocks - 1, o);
	if (memcmp(hdr, "BLCK", t) == 0)
		return slot_err(sl, PEBS_E_TRUNCATED, si,
				"truncated in block %llu at offset 0x%llx: "
				"the input ends inside it, after %llu bytes "
				"(0x%llx)", (unsigned long long)s->blocks, o,
				e, e);
	if (memcmp(hdr, "END ", t) == 0)
		return slot_err(sl, PEBS_E_TRUNCATED, si,
				"truncated in the end marker at offset 0x%llx: "
				"the input ends inside it, after %llu bytes "
				"(0x%llx)", o, e, e);
	return slot_err(sl, PEBS_E_TRUNCATED, si,
			"truncated at offset 0x%llx: the input ends inside "
			"the chunk there, after %llu bytes (0x%llx)", o, e, e);
}

/*
 * Checks the order of the trailing chunks after END, INDX then TAIL, each
 * at most once (section 2 of the format): a chunk out of that order is
 * reported (returns 1), though reading goes on, since its checksum matched
 * and nothing after it is in doubt.
 */
static int trail_order(struct slot *sl, struct src *s, uint32_t si,
		       uint32_t tag, uint64_t off)
{
	unsigned long long o = (unsigned long long)off;
	int was = s->trail;
	s->trail = tag == TAG_INDX ? (was ? was : 1) : 2;
	if (was == 2)
		return slot_err(sl, PEBS_E_CORRUPT, si, "segment %u: %s chunk "
				"at offset 0x%llx after the TAIL chunk",
				s->segments, tag == TAG_INDX ? "INDX" : "TAIL",
				o) != 0;
	if (tag == TAG_INDX && was)
		return slot_err(sl, PEBS_E_CORRUPT, si, "segment %u: second "
				"INDX chunk at offset 0x%llx", s->segments,
				o) != 0;
	if (tag == TAG_TAIL && !was)
		return slot_err(sl, PEBS_E_CORRUPT, si, "segment %u: TAIL "
				"chunk at offset 0x%llx without an INDX chunk",
				s->segments, o) != 0;
	return 0;
}

/*
 * Reports the unknown critical chunk @tag at @off, its tag printable
 * (bytes outside ASCII as \xNN): a chunk this reader cannot use but
 * must not ignore (section 3 of the format).
 */
static int unknown_critical(struct slot *sl, uint32_t si, uint32_t tag,
			    uint64_t off)
{
	char name[4 * 4 + 1], *q = name;
	for (int i = 0; i < 4; i++) {
		unsigned c = tag >> (8 * i) & 0xffu;
		if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'')
			*q++ = (char)c;
		else
			q += snprintf(q, 5, "\\x%02x", c);
	}
	*q = '\0';	/* four printable bytes: snprintf() ended nothing */
	return slot_err(sl, PEBS_E_FORMAT, si, "unknown critical chunk '%s' "
			"at offset 0x%llx", name, (unsigned long long)off);
}

/*
 * Reads on after the *@nhead bytes at @head up to @to bytes in all (the
 * rest of a chunk header: CHUNK_HDR), as far as the input has them, for a
 * look at what follows where a MAGIC was expected; they go back with
 * after_damage().  Returns how many it read.
 */
static size_t head_more(struct pebs_reader *r, struct src *s, uint8_t *head,
			size_t *nhead, size_t to)
{
	const uint8_t *p;
	uint8_t *own;
	ssize_t m = src_take(r, s, to - *nhead, &p, &own);
	if (m > 0) {
		memcpy(head + *nhead, p, (size_t)m);
		*nhead += (size_t)m;
	}
	free(own);
	return m > 0 ? (size_t)m : 0;
}

/*
 * An input's first line of text, read on after its first CHUNK_HDR bytes
 * in steps to its end, up to HEAD_LOOK bytes in all: a CSV header's first
 * name may be longer than a chunk header (bad_magic() needs its comma).
 * Steps, not one read: a pipe would wait for bytes past the line.
 */
static void head_line(struct pebs_reader *r, struct src *s, uint8_t *head,
		      size_t *nhead)
{
	while (*nhead < HEAD_LOOK && is_text(head, *nhead) &&
	       !memchr(head, '\n', *nhead) && !memchr(head, '\r', *nhead)) {
		size_t to = *nhead + HEAD_STEP < HEAD_LOOK ?
			    *nhead + HEAD_STEP : HEAD_LOOK;
		head_more(r, s, head, nhead, to);
		if (*nhead < to)	/* the input ends */
			break;
	}
}

/*
 * Without a header: with salvage, a segment whose header was damaged goes
 * on with empty metadata (columns are known by their ids, section 5 of
 * the format).  Returns 0, or -1 out of memory.
 */
static int headless_meta(struct pebs_reader *r, struct src *s)
{
	struct pebs_meta *m = pebs_meta_new();
	struct pebs_meta **nm = realloc(r->metas,
					(r->nmetas + 1) * sizeof(*nm));
	if (nm)
		r->metas = nm;
	if (!m || !nm) {
		pebs_meta_free(m);
		return -1;
	}
	r->metas[r->nmetas++] = m;
	s->meta = m;
	return 0;
}

/*
 * Closes the sources read to their end that no slot uses any more: a
 * block being decoded (S_BUSY; the inline reader decodes between two
 * produce calls) may still copy its bytes from its source's file
 * (img_fetch); decoded batches and messages need only the name, which
 * stays.  Sources are read in order, so those before r->cur are done;
 * one still in use keeps it and those after it open until a later call
 * (at most as many as there are slots).  Called with the lock held.
 */
static void src_close_done(struct pebs_reader *r)
{
	for (; r->nclosed < r->cur; r->nclosed++) {
		for (size_t i = 0; i < r->nslots; i++)
			if (r->slots[i].state == S_BUSY &&
			    r->slots[i].src == r->nclosed)
				return;
		src_close(&r->srcs[r->nclosed]);
	}
}

/*
 * The reader whose filter callback this thread runs, if any: with more
 * than one thread the callback runs under the reader's lock, which
 * pebs_reader_stats() from inside it must not take again.
 */
static _Thread_local const struct pebs_reader *in_filter;

static int call_filter(struct pebs_reader *r,
		       const struct pebs_block_info *bi)
{
	/* nested: a callback that reads through a reader of its own (one
	 * thread; pebs_block_filter_fn says why not with more) */
	const struct pebs_reader *outer = in_filter;
	in_filter = r;
	int keep = r->o.filter(r->o.filter_ctx, bi);
	in_filter = outer;
	return keep;
}

/*
 * Before the reads of a chunk of @s: they may give up waiting for its
 * writer (r->giveup) when the caller reads it while batches read before
 * it wait for the caller to deliver them; r->gave_up then says whether
 * one did.
 */
static void giveup_begin(struct pebs_reader *r, const struct src *s)
{
	r->giveup = !s->map && r->producing && r->prod_caller &&
		    r->cur_seq != r->next_seq;
	r->gave_up = 0;
}

/*
 * Produces the next block of the input into @sl (P_BLOCK), an error
 * (P_ERROR, in order), a mark (P_MARK: a LOST chunk, or a source's end
 * with counts no slot took yet), or the end of all input (P_EOF); or
 * P_AGAIN, nothing consumed, when the caller gave up waiting for a
 * stream (giveup_begin()).  Called with the lock held, through produce().
 */
static int produce_chunks(struct pebs_reader *r, struct slot *sl)
{
	sl->owned = NULL;
	sl->kind = K_BATCH;
	for (;;) {
		if (r->cur >= r->nsrc)
			return P_EOF;
		struct src *s = &r->srcs[r->cur];
		uint32_t si = (uint32_t)r->cur;
		if (s->aborted)
			s->state = ST_DONE;
		if (s->end_lost) {
			s->end_lost = 0;
			return truncated(sl, s, si, s->pos, NULL, 0, s->pos);
		}
		if (s->state == ST_DONE && (s->pend.bytes ||
		    s->pend.segments || s->pend.skipped ||
		    s->pend.damaged || s->pend.have_minor))
			return P_MARK;	/* delivered before the next source's */
		if (s->state == ST_DONE) {
			r->cur++;
			src_close_done(r);
			continue;
		}
		if (!s->opened)
			src_open(s);
		if (s->open_errno) {
			s->state = ST_DONE;
			errno = s->open_errno;
			return slot_err(sl, PEBS_E_IO, si, "cannot open: %s",
					strerror(s->open_errno));
		}
		const uint8_t *p;
		uint8_t *own;
		uint64_t off = s->pos;
		if (s->state == ST_MAGIC || s->state == ST_AFTER_END) {
			/* a stall after a segment's end holds nothing back */
			giveup_begin(r, s);
			ssize_t n = src_take(r, s, FMT_MAGIC_LEN, &p, &own);
			r->giveup = 0;
			if (n < 0 && r->gave_up)
				return P_AGAIN;	/* nothing consumed */
			if (n < 0) {
				s->state = ST_DONE;
				return slot_err(sl, PEBS_E_IO, si,
						"read error: %s",
						strerror(errno));
			}
			int magic = n == FMT_MAGIC_LEN &&
				    memcmp(p, FMT_MAGIC, FMT_MAGIC_LEN) == 0;
			/* what was read here, for salvage to give back */
			uint8_t head[HEAD_LOOK];
			size_t nhead = (size_t)n;
			memcpy(head, p, nhead);
			free(own);
			if (n == 0 && s->segments) {
				s->state = ST_DONE;
				continue;
			}
			if (magic) {
				s->pend.bytes += FMT_MAGIC_LEN;
				seg_begin(s, off);
				continue;
			}
			if (s->state == ST_AFTER_END && n == FMT_MAGIC_LEN) {
				/* A trailing chunk (index, tail) follows. */
				giveup_begin(r, s);
				head_more(r, s, head, &nhead, CHUNK_HDR);
				uint32_t tag = get32(head);
				uint64_t len = get64(head + FMT_MAGIC_LEN);
				if (!r->gave_up && nhead == CHUNK_HDR &&
				    (tag == TAG_INDX || tag == TAG_TAIL) &&
				    len <= CHUNK_MAX_LEN) {
					/* Verified: a damaged length would
					 * step over what follows. */
					ssize_t k = src_take_after(
						r, s, len + CHUNK_TRL, head,
						CHUNK_HDR, &p, &own);
					/* salvage's rescan below waits */
					r->giveup = 0;
					if (k == (ssize_t)(len + CHUNK_TRL) &&
					    fmt_checksum(tag, p, len) ==
					    get64(p + len)) {
						free(own);
						s->pend.bytes += CHUNK_HDR + len +
							       CHUNK_TRL;
						if (trail_order(sl, s, si, tag,
								off))
							return P_ERROR;
						continue;
					}
					if (k >= 0) {	/* 0: cut after
							 * its header */
						slot_err(sl, PEBS_E_CORRUPT,
							 si, "chunk at offset "
							 "0x%llx: %s",
							 (unsigned long long)
							 off, k == (ssize_t)
							 (len + CHUNK_TRL) ?
							 "checksum mismatch" :
							 "truncated");
						after_damage(r, s, sl, off, 0,
							     p - CHUNK_HDR,
							     CHUNK_HDR +
							     (size_t)k);
						free(own);
						return P_ERROR;
					}
					free(own);
				}
				r->giveup = 0;
				if (r->gave_up) {	/* all of it back */
					if (src_unread(s, off, head,
						       nhead) == 0)
						return P_AGAIN;
					s->state = ST_DONE;
					return slot_err(sl, PEBS_E_NOMEM, si,
							"out of memory");
				}
			}
			if (s->state == ST_AFTER_END && nhead < CHUNK_HDR &&
			    nhead > 0 && (!memcmp(head, "INDX", nhead < 4 ?
						  nhead : 4) ||
					  !memcmp(head, "TAIL", nhead < 4 ?
						  nhead : 4))) {
				/*
				 * The input ends inside a trailing chunk's
				 * header: cut, as inside its payload, not
				 * garbage.
				 */
				s->state = ST_DONE;
				return slot_err(sl, PEBS_E_TRUNCATED, si,
						"chunk at offset 0x%llx: "
						"truncated",
						(unsigned long long)off);
			}
			if (n == 0) {
				s->state = ST_DONE;
				return slot_err(sl, PEBS_E_FORMAT, si,
						"empty input, not a .pebs "
						"stream");
			}
			if (!s->segments && nhead == FMT_MAGIC_LEN &&
			    is_text(head, nhead)) {
				/* enough to tell YAML results apart */
				head_more(r, s, head, &nhead, CHUNK_HDR);
				if (nhead == CHUNK_HDR)
					head_line(r, s, head, &nhead);
			}
			if (!s->segments)
				bad_magic(sl, si, head, nhead);
			else
				slot_err(sl, PEBS_E_FORMAT, si,
					 "garbage after segment %u at offset "
					 "0x%llx", s->segments,
					 (unsigned long long)off);
			after_damage(r, s, sl, off, 0, head, nhead);
			return P_ERROR;
		}

		/* ST_CHUNKS: a chunk header, kept for the payload's buffer. */
		uint8_t hdr[CHUNK_HDR];
		ssize_t n;
		own = NULL;
		p = hdr;
		giveup_begin(r, s);
		n = src_read(r, s, hdr, CHUNK_HDR);
		r->giveup = 0;
		if (r->gave_up)
			return P_AGAIN;	/* nothing consumed */
		if (n > 0)
			s->pos += (uint64_t)n;
		if (n < 0) {
			s->state = ST_DONE;
			return slot_err(sl, PEBS_E_IO, si, "read error: %s",
					strerror(errno));
		}
		if (n >= FMT_MAGIC_LEN &&
		    memcmp(hdr, FMT_MAGIC, FMT_MAGIC_LEN) == 0) {
			/*
			 * A segment cut short and another one after it (a
			 * killed capture, then cat): the magic cannot be a
			 * chunk header, so the segment before it ended here,
			 * undamaged so far, and the next one is read.
			 */
			if (src_unread(s, off + FMT_MAGIC_LEN,
				       hdr + FMT_MAGIC_LEN,
				       (size_t)n - FMT_MAGIC_LEN) < 0) {
				s->state = ST_DONE;
				return slot_err(sl, PEBS_E_NOMEM, si,
						"out of memory");
			}
			int refused = s->refused;
			if (!refused)
				truncated(sl, s, si, off, hdr, 0, off);
			s->pend.bytes += FMT_MAGIC_LEN;
			seg_begin(s, off);
			if (refused)
				continue;	/* reported at its header */
			return P_ERROR;
		}
		if (n < CHUNK_HDR) {	/* the input's last bytes, read */
			s->pend.bytes += (uint64_t)n;
			s->state = ST_DONE;
			if (s->refused)
				continue;
			return truncated(sl, s, si, off, hdr, (size_t)n,
					 off + (uint64_t)n);
		}
		if (s->refused) {
			/*
			 * The chunks of a segment refused for its version are
			 * framed by their lengths all the same: step over
			 * them, unchecked, to the next segment's magic.
			 */
			uint64_t skip = get64(hdr + 8) + CHUNK_TRL;
			ssize_t got = -1;
			if (get64(hdr + 8) <= CHUNK_MAX_LEN) {
				if (s->map) {
					got = (ssize_t)src_skip(s, skip, &p);
				} else {
					got = src_take(r, s, skip, &p, &own);
					free(own);
				}
			}
			/* read, if not decoded */
			s->pend.bytes += CHUNK_HDR + (got > 0 ? (uint64_t)got : 0);
			if (got < 0 || (uint64_t)got < skip)
				s->state = ST_DONE;
			continue;
		}
		uint32_t tag = get32(p), flags = get32(p + 4);
		uint64_t len = get64(p + 8);
		int known = tag == TAG_HEAD || tag == TAG_BLCK ||
			    tag == TAG_LOST || tag == TAG_END ||
			    tag == TAG_INDX || tag == TAG_TAIL;
		/*
		 * An unknown critical chunk is read and its checksum checked
		 * like any other: when it matches, the length is sound and
		 * salvage steps over the whole chunk (below), never into it.
		 */
		if (len > CHUNK_MAX_LEN) {
			if (tag == TAG_BLCK)
				slot_err(sl, PEBS_E_CORRUPT, si, "block %llu at "
					 "offset 0x%llx: bad chunk header",
					 (unsigned long long)s->blocks++,
					 (unsigned long long)off);
			else
				slot_err(sl, known ? PEBS_E_CORRUPT :
					 PEBS_E_FORMAT, si, "bad chunk header "
					 "at offset 0x%llx",
					 (unsigned long long)off);
			after_damage(r, s, sl, off, 0, hdr, CHUNK_HDR);
			return P_ERROR;
		}
		giveup_begin(r, s);
		ssize_t got = s->map && tag == TAG_BLCK ?
			      (ssize_t)src_skip(s, len + CHUNK_TRL, &p) :
			      src_take_after(r, s, len + CHUNK_TRL, hdr,
					     CHUNK_HDR, &p, &own);
		r->giveup = 0;
		if (r->gave_up) {
			/* the payload's bytes are back: the header too */
			if (src_unread(s, off, hdr, CHUNK_HDR) == 0)
				return P_AGAIN;
			errno = ENOMEM;
		}
		if (got < 0) {
			s->state = ST_DONE;
			return slot_err(sl, PEBS_E_IO, si, "read error: %s",
					strerror(errno));
		}
		if ((uint64_t)got < len + CHUNK_TRL) {
			/*
			 * The input ends inside the chunk, or its length is
			 * damaged: with salvage, a valid chunk after its
			 * header tells which.
			 */
			uint64_t bno = s->blocks;
			truncated(sl, s, si, off, hdr, CHUNK_HDR,
				  off + CHUNK_HDR + (uint64_t)got);
			int going = 0;
			if (r->o.salvage) {
				if (!s->meta)
					s->hdr_lost = 1;
				going = (s->map || !src_unread(s, off + 1,
					 own + 1, CHUNK_HDR + (size_t)got - 1))
					&& resync(r, s, off + 1) > 0;
			}
			free(own);
			/* read: to where reading goes on, or all of it */
			s->pend.bytes += going ? s->pos - off :
					 CHUNK_HDR + (uint64_t)got;
			if (!going) {
				s->state = ST_DONE;
				return P_ERROR;
			}
			s->pend.damaged++;
			s->seg_damaged = 1;
			if (tag == TAG_BLCK && s->state == ST_MAGIC) {
				/*
				 * A segment's MAGIC inside the block's claimed
				 * bytes: a file cut inside the block, with a
				 * file shorter than the rest of it appended.
				 * Said as when the length ends inside that
				 * file (format section 8).
				 */
				s->blocks = bno + 1;
				return slot_err(sl, PEBS_E_TRUNCATED, si,
						"truncated in block %llu at "
						"offset 0x%llx (a segment "
						"starts at offset 0x%llx)",
						(unsigned long long)bno,
						(unsigned long long)off,
						(unsigned long long)s->pos);
			}
			if (tag == TAG_BLCK) {
				s->blocks = bno + 1;
				return slot_err(sl, PEBS_E_CORRUPT, si,
						"block %llu at offset 0x%llx: "
						"bad chunk header",
						(unsigned long long)bno,
						(unsigned long long)off);
			}
			return slot_err(sl, PEBS_E_CORRUPT, si,
					"bad chunk header at offset 0x%llx",
					(unsigned long long)off);
		}
		s->pend.bytes += CHUNK_HDR + len + CHUNK_TRL;
		/*
		 * Blocks are verified by the decoding workers, in parallel and
		 * outside this lock (or below, before a skip); the rest here.
		 * A mismatch may be in the length, which is not trusted then.
		 */
		if (tag != TAG_BLCK && fmt_checksum(tag, p, len) !=
		    get64(p + len)) {
			slot_err(sl, PEBS_E_CHECKSUM, si, "chunk at offset "
				 "0x%llx: checksum mismatch",
				 (unsigned long long)off);
			s->pend.bytes -= CHUNK_HDR + len + CHUNK_TRL;
			after_damage(r, s, sl, off, 0, own, CHUNK_HDR + len +
				     CHUNK_TRL);
			free(own);
			return P_ERROR;
		}
		if (tag != TAG_HEAD && !s->meta && r->o.salvage &&
		    s->hdr_lost) {
			/* Reported as the header's damage already. */
			if (!s->segments)
				seg_begin(s, off);
			s->hdr_lost = 1;
			if (headless_meta(r, s)) {
				free(own);
				s->state = ST_DONE;
				return slot_err(sl, PEBS_E_NOMEM, si,
						"out of memory");
			}
		}
		if (tag != TAG_HEAD && !s->meta) {
			slot_err(sl, PEBS_E_CORRUPT, si,
				 "chunk at offset 0x%llx before the header",
				 (unsigned long long)off);
			if (!r->o.salvage) {
				free(own);
				s->state = ST_DONE;
				return P_ERROR;
			}
			/*
			 * Once, then its chunks are read as those of a
			 * header that was lost: read this one again.
			 */
			s->hdr_lost = 1;
			int bad = src_unread(s, off, own, own ? CHUNK_HDR +
					     len + CHUNK_TRL : 0);
			free(own);
			if (bad) {
				s->state = ST_DONE;
				return P_ERROR;
			}
			s->pend.bytes -= CHUNK_HDR + len + CHUNK_TRL;
			return P_ERROR;
		}
		switch (tag) {
		case TAG_HEAD: {
			if (s->meta && cut_block_before(s, off)) {
				/*
				 * A segment's MAGIC where the block before
				 * keeps its checksum: that block was cut 8
				 * bytes short and another file appended.  This
				 * HEAD starts that file's segment: read it
				 * again, as the first of a new one.
				 */
				slot_err(sl, PEBS_E_TRUNCATED, si, "truncated "
					 "in block %llu at offset 0x%llx (a "
					 "segment starts at offset 0x%llx)",
					 (unsigned long long)s->blocks - 1,
					 (unsigned long long)s->blk_off,
					 (unsigned long long)(off -
							      FMT_MAGIC_LEN));
				int bad = src_unread(s, off, own, CHUNK_HDR +
						     len + CHUNK_TRL);
				free(own);
				s->pend.bytes -= CHUNK_HDR + len + CHUNK_TRL;
				seg_begin(s, off - FMT_MAGIC_LEN);
				if (bad)
					s->state = ST_DONE;
				return P_ERROR;
			}
			int rc = s->meta ? slot_err(sl, PEBS_E_CORRUPT, si,
						    "second header at offset "
						    "0x%llx",
						    (unsigned long long)off) :
				 parse_head(r, s, sl, p, len, off);
			free(own);
			if (rc != P_ERROR)
				continue;
			if (sl->err == -PEBS_E_VERSION) {
				/* read on from the next segment */
				s->refused = 1;
				return rc;
			}
			/*
			 * A HEAD whose checksum matched but whose content is
			 * bad: its length is sound, so salvage reads the
			 * segment's blocks on, with empty metadata (or those
			 * of the first HEAD, when this is a second one).
			 */
			if (r->o.salvage && sl->err == -PEBS_E_CORRUPT) {
				s->pend.damaged++;
				if (!s->meta)
					s->hdr_lost = 1;
				return rc;
			}
			s->state = ST_DONE;
			return rc;
		}
		case TAG_LOST: {
			/*
			 * Its count is kept (a longer one may be a later
			 * version's), but the size is wrong: reported, and the
			 * segment's lost total is not compared.  The length
			 * is sound (the checksum matched), so reading goes on
			 * even without salvage: nothing is lost by it.
			 */
			uint64_t c = len >= 24 ? get64(p + 16) : 0;
			/* delivered in order, as a mark slot of its own: the
			 * next call of produce() (lost_due) */
			if (c) {
				s->lost_cpu = get32(p);
				s->lost_time = get64(p + 8);
				s->lost_off = off;
				s->lost_count = c;
				s->lost_due = 1;
			}
			free(own);
			s->seg_lost += c;
			if (len == 24 && c)
				return P_MARK;
			if (len == 24)
				continue;
			s->seg_lost_bad = 1;
			return slot_err(sl, PEBS_E_CORRUPT, si,
					"segment %u: lost record at offset "
					"0x%llx: %llu bytes, not 24",
					s->segments, (unsigned long long)off,
					(unsigned long long)len);
		}
		case TAG_END: {
			uint64_t es = len >= 24 ? get64(p) : 0;
			uint64_t eb = len >= 24 ? get64(p + 8) : 0;
			uint64_t el = len >= 24 ? get64(p + 16) : 0;
			free(own);
			s->state = ST_AFTER_END;
			/*
			 * Counts cannot match once damage in this segment was
			 * skipped; damage elsewhere (an earlier segment or
			 * input) changes nothing here.
			 */
			if (s->seg_damaged)
				continue;
			if (es != s->seg_samples || eb != s->seg_blocks)
				return slot_err(sl, PEBS_E_CORRUPT, si,
						"segment %u: end marker counts "
						"%llu samples in %llu blocks, "
						"read %llu in %llu",
						s->segments,
						(unsigned long long)es,
						(unsigned long long)eb,
						(unsigned long long)
						s->seg_samples,
						(unsigned long long)
						s->seg_blocks);
			if (el != s->seg_lost && !s->seg_lost_bad)
				return slot_err(sl, PEBS_E_CORRUPT, si,
						"segment %u: end marker counts "
						"%llu lost samples, its lost "
						"records %llu", s->segments,
						(unsigned long long)el,
						(unsigned long long)
						s->seg_lost);
			continue;
		}
		case TAG_BLCK:
			break;
		default:	/* INDX, TAIL inside or unknown optional */
			free(own);
			if (known)	/* sound length: reading goes on */
				return slot_err(sl, PEBS_E_CORRUPT, si,
						"segment %u: %s chunk at "
						"offset 0x%llx before the end "
						"marker", s->segments,
						tag == TAG_INDX ? "INDX" :
						"TAIL",
						(unsigned long long)off);
			if (!(flags & CHUNK_CRITICAL))
				continue;
			unknown_critical(sl, si, tag, off);
			/* nothing of the segment's blocks is lost */
			if (!r->o.salvage)
				s->state = ST_DONE;
			else
				s->pend.damaged++;
			return P_ERROR;
		}

		/* A block: directory checks and the skip decision here. */
		struct pebs_block_info bi;
		char msg[MSG_LEN - 64];
		/* Mapped or read after its header: the chunk is contiguous. */
		const uint8_t *chunk = p - CHUNK_HDR, *view = chunk;
		uint8_t *whole = own;
		size_t clen = CHUNK_HDR + len + CHUNK_TRL;
		uint64_t bno = s->blocks++;
		s->blk_off = off;
		s->blk_end = off + clen;
		if (!s->map)
			memcpy(s->blk_trl, chunk + clen - CHUNK_TRL, CHUNK_TRL);
		sl->src = si;
		sl->block = bno;
		sl->offset = off;
		sl->len = clen;
		sl->img_have = 0;
		if (s->map) {
			if (img_load(r, s, sl)) {
				s->state = ST_DONE;
				return P_ERROR;
			}
			view = sl->img;
		}
		int rc = pebs_block_info(view, clen, 0, &bi, msg, sizeof(msg));
		if (rc && s->map && img_prefix(s, sl, clen)) {
			s->state = ST_DONE;
			return P_ERROR;
		}
		p = view + CHUNK_HDR;
		if (rc && fmt_checksum(tag, p, len) != get64(p + len)) {
			/* A damaged directory: name the cause, not the effect. */
			rc = -PEBS_E_CHECKSUM;
			snprintf(msg, sizeof(msg), "checksum mismatch");
		}
		if (rc) {
			slot_err(sl, -rc, si, "block %llu at offset 0x%llx: %s",
				 (unsigned long long)bno,
				 (unsigned long long)off, msg);
			if (rc == -PEBS_E_CHECKSUM)	/* rescanned */
				s->pend.bytes -= clen;
			after_damage(r, s, sl, off, rc != -PEBS_E_CHECKSUM, whole,
				     clen);
			free(whole);
			return P_ERROR;
		}
		/*
		 * Without a column checksum table nothing here ties the
		 * length to the data, and the decoding thread finds a bad
		 * chunk checksum too late to rescan: by then reading went on
		 * from the place the length gave, maybe inside the next
		 * block.  So salvage checks these blocks' checksums here.
		 * With a table the head vouches for the length, unless the
		 * block was cut short and another segment follows inside it
		 * (a truncated file with another appended): salvage looks
		 * for that in a block whose whole checksum fails.
		 */
		int sound = 0;	/* the whole chunk's checksum matched */
		if (r->o.salvage) {
			if (s->map && img_prefix(s, sl, clen)) {
				s->state = ST_DONE;
				return P_ERROR;
			}
			sound = fmt_block_sum_ok(p, len);
			int colsums = get32(p + 12) & BLK_F_COLSUMS;
			size_t seg_at = 0;
			if (!sound && colsums) {
				/* the bytes after the chunk, not consumed */
				const uint8_t *nx = NULL;
				size_t nnx = 0;
				if (s->map) {
					nx = s->map + s->pos;
					nnx = s->size - (size_t)s->pos;
				} else if (pb_fill(r, s, CHUNK_HDR) == 0 &&
					   s->pb_len) {
					nx = s->pb + s->pb_off;
					nnx = s->pb_len;
				}
				seg_at = segment_inside(view, clen, nx, nnx);
			}
			if (seg_at || (!sound && !colsums)) {
				if (seg_at)
					slot_err(sl, PEBS_E_TRUNCATED, si,
						 "truncated in block %llu at "
						 "offset 0x%llx (a segment "
						 "starts at offset 0x%llx)",
						 (unsigned long long)bno,
						 (unsigned long long)off,
						 (unsigned long long)(off +
								      seg_at));
				else
					slot_err(sl, PEBS_E_CHECKSUM, si,
						 "block %llu at offset 0x%llx: "
						 "checksum mismatch",
						 (unsigned long long)bno,
						 (unsigned long long)off);
				s->pend.bytes -= clen;	/* rescanned */
				after_damage(r, s, sl, off, 0, whole, clen);
				free(whole);
				return P_ERROR;
			}
		}
		s->seg_samples += bi.nsamples;
		s->seg_blocks++;
		bi.offset = off;
		bi.index = bno;
		bi.meta = s->meta;
		/*
		 * The filter decides from the directory, so it sees only a
		 * verified one: damage is reported, never skipped unseen, and
		 * a callback that counts whole blocks (pebs-filter --count)
		 * counts only sound ones.  A chunk checksum that matched
		 * (salvage, above) covers the head too.
		 */
		if (r->o.filter && !sound) {
			/* what fmt_block_verify_head reads */
			if (s->map && img_get(s, sl, FMT_COLS_HEAD)) {
				s->state = ST_DONE;
				return P_ERROR;
			}
			if (fmt_block_verify_head(view, clen)) {
				slot_err(sl, PEBS_E_CHECKSUM, si,
					 "block %llu at offset 0x%llx: "
					 "checksum mismatch",
					 (unsigned long long)bno,
					 (unsigned long long)off);
				/* the head holds the length's evidence */
				s->pend.bytes -= clen;	/* rescanned */
				after_damage(r, s, sl, off, 0, whole, clen);
				free(whole);
				return P_ERROR;
			}
		}
		/* the block `t` counts from, as pebs_expr_block_segment()
		 * records it: the first this callback would see */
		if (!s->seg_tmin_set && bi.nsamples) {
			s->seg_tmin = bi.min[PEBS_COL_TIME];
			s->seg_tmin_set = 1;
		}
		if (r->o.filter && !call_filter(r, &bi)) {
			s->pend.skipped++;
			free(whole);
			continue;
		}
		sl->segment = s->segments - 1;
		sl->nsamples = bi.nsamples;
		sl->present = bi.present;
		sl->tmin = bi.min[PEBS_COL_TIME];
		sl->tmax = bi.max[PEBS_COL_TIME];
		memcpy(sl->bytes, bi.bytes, sizeof(sl->bytes));
		sl->chunk = chunk;
		sl->owned = whole;
		sl->meta = s->meta;
		return P_BLOCK;
	}
}

/*
 * produce_chunks() into @sl, and what the source counted up to it
 * (rdelta), for deliver() to add to the statistics in order; a LOST chunk
 * just read is a mark slot of its own first, so that its count is
 * delivered where it lies (opts.lost_batches), the same whatever was
 * read ahead.  Called with the lock held.
 */
static int produce(struct pebs_reader *r, struct slot *sl)
{
	int k = P_MARK;
	sl->lost = 0;
	if (r->cur >= r->nsrc || !r->srcs[r->cur].lost_due)
		k = produce_chunks(r, sl);
	if (k == P_EOF || k == P_AGAIN)
		return k;
	struct src *s = &r->srcs[r->cur];
	sl->d = s->pend;
	sl->seg_tmin = s->seg_tmin;
	sl->seg_tmin_set = s->seg_tmin_set;
	memset(&s->pend, 0, sizeof(s->pend));
	if (k == P_MARK) {
		sl->kind = K_MARK;
		sl->src = (uint32_t)r->cur;
		sl->segment = s->segments ? s->segments - 1 : 0;
		sl->block = s->blocks;
		sl->offset = s->pos;
	}
	if (k == P_MARK && s->lost_due) {
		s->lost_due = 0;
		sl->lost = 1;
		sl->lost_cpu = s->lost_cpu;
		sl->lost_time = s->lost_time;
		sl->lost_count = s->lost_count;
		sl->offset = s->lost_off;
		sl->d.lost = s->lost_count;
	}
	if (sl->kind != K_BATCH)
		sl->meta = s->meta;
	return k;
}

/* Decodes the block of @sl (no lock needed). */
static void decode(struct pebs_reader *r, struct fmt_dec *d, struct slot *sl)
{
	char msg[MSG_LEN - 64];
	/*
	 * As large as the block: a small input does not touch (and clear)
	 * the huge pages of a full batch; blocks are usually all full-size,
	 * so this allocates once.  The columns this block fills side by side
	 * (later blocks have the same ones, as a rule).
	 */
	uint64_t use = sl->present & (r->o.cols ? r->o.cols : ~0ull);
	if (pebs_batch_fit(&sl->batch, sl->nsamples < PEBS_BATCH_MAX ?
			   (size_t)sl->nsamples : PEBS_BATCH_MAX, use) < 0) {
		slot_err(sl, PEBS_E_NOMEM, sl->src, "out of memory");
		return;
	}
	const uint8_t *chunk = sl->chunk;
	if (sl->img_have) {
		if (img_fetch(r, &r->srcs[sl->src], sl))
			return;
		chunk = sl->img;
	}
	int rc = fmt_block_decode(d, chunk, sl->len, r->o.cols,
				  r->o.verify_all ? 2 : 1,
				  sl->batch, msg, sizeof(msg));
	/*
	 * A block with a column checksum table is decoded from the columns'
	 * checksums, never the chunk's; but checking all of a block (--info)
	 * covers what no column checksum does, the unknown columns and the
	 * bytes between them.  (A copy of the chunk as it is, raw_chunks,
	 * is checked by pebs_writer_copy_block(), only when one is made.)
	 * Without a table, decoding checked the chunk's checksum already.
	 */
	const uint8_t *pl = chunk + CHUNK_HDR;
	size_t plen = sl->len - CHUNK_HDR - CHUNK_TRL;
	if (!rc && r->o.verify_all &&
	    get32(pl + 12) & BLK_F_COLSUMS &&
	    !fmt_block_sum_ok(pl, plen)) {
		rc = -PEBS_E_CHECKSUM;
		snprintf(msg, sizeof(msg), "checksum mismatch");
	}
	if (rc) {
		slot_err(sl, -rc, sl->src, "block %llu at offset 0x%llx: %s",
			 (unsigned long long)sl->block,
			 (unsigned long long)sl->offset, msg);
		return;
	}
	sl->batch->block_index = sl->block;
	sl->batch->offset = sl->offset;
	sl->batch->source = sl->src;
	sl->batch->segment = sl->segment;
}

/* Hands the decoded batch of @sl to opts.consume (no lock needed). */
static void consume(struct pebs_reader *r, struct slot *sl, unsigned worker)
{
	int rc;
	if (sl->kind != K_ERROR &&
	    (rc = r->o.consume(r->o.consume_ctx, worker, sl->batch)) < 0)
		slot_err(sl, -rc, sl->src, "block %llu at offset 0x%llx: %s",
			 (unsigned long long)sl->block,
			 (unsigned long long)sl->offset, pebs_strerror(rc));
}

/* Wakes whoever waits for a decoded or ready slot (lock held). */
static void signal_ready(struct pebs_reader *r)
{
	if (r->ready_waiters)
		pthread_cond_broadcast(&r->ready);
}

static void wait_ready(struct pebs_reader *r)
{
	r->ready_waiters++;
	pthread_cond_wait(&r->ready, &r->mu);
	r->ready_waiters--;
}

/* Sleeps until signal_freed() (lock held). */
static void wait_freed(struct pebs_reader *r)
{
	r->freed_waiters++;
	pthread_cond_wait(&r->freed, &r->mu);
	r->freed_waiters--;
}

/*
 * Whether the block of @sl will be delivered as far as the blocks before
 * it tell, waiting (lock held) until they are all decoded: without
 * salvage a decode failure drops the rest of its source at delivery, and
 * a block read ahead past it must not be consumed either.
 */
static int consumable(struct pebs_reader *r, struct slot *sl)
{
	if (r->o.salvage)
		return 1;	/* damage drops nothing else */
	for (;;) {
		int wait = 0, dropped = r->dropped &&
					r->dropped_src == sl->src;
		for (uint64_t q = r->cur_seq; q < sl->seq && !dropped; q++) {
			const struct slot *p = &r->slots[q % r->nslots];
			if (p->state != S_READY && !p->decoded)
				wait = 1;
			else if (p->kind == K_ERROR && p->chunk &&
				 p->src == sl->src)
				dropped = 1;
		}
		if (dropped || !wait)
			return !dropped;
		wait_ready(r);
	}
}

/*
 * Takes the next block in input order and decodes (and consumes) it as
 * worker @wid, the lock held on entry and on return.  Returns 0 when it
 * did so (or reported an error into the slot, or gave the chunk back:
 * gave_back), 1 at the end of input.
 * The caller makes sure the slot at next_seq is free.
 */
static int work_one(struct pebs_reader *r, struct fmt_dec *dec, unsigned wid)
{
	struct slot *sl = &r->slots[r->next_seq % r->nslots];
	r->producing = 1;
	r->prod_caller = wid == r->nthreads - 1;
	int k = produce(r, sl);
	r->producing = r->stalled = 0;
	/*
	 * Those that waited for it (it may have dropped the lock): a worker
	 * to read on, and the caller, which may read the next chunk while
	 * this thread decodes this one, as when it waited for the lock.
	 */
	if (r->freed_waiters)
		pthread_cond_broadcast(&r->freed);
	if (r->ready_waiters)
		pthread_cond_broadcast(&r->ready);
	if (k == P_EOF) {
		r->producer_done = 1;
		pthread_cond_broadcast(&r->ready);
		pthread_cond_broadcast(&r->freed);
		return 1;
	}
	r->gave_back = k == P_AGAIN;
	if (k == P_AGAIN)
		return 0;	/* the slot stays free, for a worker */
	sl->seq = r->next_seq++;
	if (k != P_BLOCK) {
		sl->state = S_READY;
		signal_ready(r);
		return 0;
	}
	sl->state = S_BUSY;
	pthread_mutex_unlock(&r->mu);
	decode(r, dec, sl);
	pthread_mutex_lock(&r->mu);
	if (r->o.consume) {
		sl->decoded = 1;
		signal_ready(r);
		if (consumable(r, sl)) {
			pthread_mutex_unlock(&r->mu);
			consume(r, sl, wid);
			pthread_mutex_lock(&r->mu);
		}
	}
	sl->state = S_READY;
	signal_ready(r);
	return 0;
}

/*
 * A worker decodes blocks ahead of the caller until the ring is full,
 * then sleeps until half of it is free again (signal_freed): waking once
 * per block cost more CPU time than decoding it on some virtual machines.
 */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct pebs_reader *r = w->r;
	pthread_mutex_lock(&r->mu);
	/*
	 * Nothing before the first pebs_reader_next(), as with one thread:
	 * callbacks (filter, consume) then come only once
	 * pebs_reader_open() has returned the reader they may ask.
	 */
	while (!r->started && !r->stop)
		wait_freed(r);
	while (!r->stop && !r->producer_done) {
		if (r->slots[r->next_seq % r->nslots].state != S_FREE ||
		    r->producing) {
			wait_freed(r);
			continue;
		}
		if (work_one(r, w->dec, (unsigned)(w - r->workers)))
			break;
	}
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

/* A slot was freed (lock held): wake sleeping workers once half are. */
static void signal_freed(struct pebs_reader *r)
{
	if (!r->freed_waiters)
		return;
	size_t nfree = 0;
	for (size_t i = 0; i < r->nslots; i++)
		nfree += r->slots[i].state == S_FREE;
	if (2 * nfree >= r->nslots)
		pthread_cond_broadcast(&r->freed);
}

/* --------------------------------------------------------------- public */

static unsigned default_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		n = 1;
	return n > MAX_THREADS ? MAX_THREADS : (unsigned)n;
}

int pebs_reader_open(struct pebs_reader **rp, const char *const *paths,
		     size_t n, const struct pebs_reader_opts *opts)
{
	static const char *const stdin_only[] = { "-" };
	struct pebs_reader *r = calloc(1, sizeof(*r));
	if (!r)
		return -PEBS_E_NOMEM;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->ready, NULL);
	pthread_cond_init(&r->freed, NULL);
	if (opts)
		r->o = *opts;
	if (n == 0) {
		paths = stdin_only;
		n = 1;
	}
	r->nthreads = r->o.threads ? r->o.threads : default_threads();
	if (r->nthreads > MAX_THREADS)
		r->nthreads = MAX_THREADS;
	r->srcs = calloc(n, sizeof(*r->srcs));
	r->empty = pebs_meta_new();
	/*
	 * One slot per thread, one held by the caller and one of slack:
	 * each slot's batch is fresh memory on first use (megabytes), and
	 * more read-ahead measured no faster once the caller decodes too.
	 */
	r->nslots = r->nthreads > 1 ? r->nthreads + 2 : 1;
	r->slots = calloc(r->nslots, sizeof(*r->slots));
	if (!r->srcs || !r->empty || !r->slots) {
		free(r->srcs);
		r->srcs = NULL;
		pebs_reader_close(r);
		return -PEBS_E_NOMEM;
	}
	r->nsrc = n;
	for (size_t i = 0; i < n; i++) {
		struct src *s = &r->srcs[i];
		int in = !paths[i] || strcmp(paths[i], "-") == 0;
		s->fd = -1;
		s->path = in ? NULL : strdup(paths[i]);
		s->name = strdup(in ? "standard input" : paths[i]);
		if (!s->name || (!in && !s->path)) {
			pebs_reader_close(r);
			return -PEBS_E_NOMEM;
		}
	}
	r->cur_meta = r->empty;
	if (r->o.lost_batches && !(r->lost_batch = pebs_batch_new(0))) {
		pebs_reader_close(r);
		return -PEBS_E_NOMEM;
	}
	if (!(r->dec = fmt_dec_new())) {
		pebs_reader_close(r);
		return -PEBS_E_NOMEM;
	}
	/*
	 * The caller decodes too when its next batch is not ready (see
	 * pebs_reader_next), so N threads are N - 1 workers and the caller.
	 */
	if (r->nthreads > 1) {
		r->workers = calloc(r->nthreads - 1, sizeof(*r->workers));
		if (!r->workers) {
			pebs_reader_close(r);
			return -PEBS_E_NOMEM;
		}
		for (unsigned i = 0; i < r->nthreads - 1; i++) {
			r->workers[i].r = r;
			r->workers[i].dec = fmt_dec_new();
			if (!r->workers[i].dec ||
			    pthread_create(&r->workers[i].th, NULL,
					   worker_main, &r->workers[i])) {
				fmt_dec_free(r->workers[i].dec);
				r->workers[i].dec = NULL;
				pebs_reader_close(r);
				return -PEBS_E_NOMEM;
			}
			r->nworkers = i + 1;
		}
	}
	*rp = r;
	return 0;
}

static void release(struct slot *sl)
{
	free(sl->owned);
	sl->owned = NULL;
	sl->chunk = NULL;
	sl->img_have = 0;
	sl->decoded = 0;
	sl->state = S_FREE;
}

/* Adds what a delivered slot counted (rdelta) to @st. */
static void add_delta(struct pebs_read_stats *st, const struct rdelta *d)
{
	st->bytes += d->bytes;
	st->segments += d->segments;
	st->skipped += d->skipped;
	st->damaged += d->damaged;
	st->lost += d->lost;
	if (!d->have_minor)
		return;
	if (!st->have_minor || d->minor_min < st->minor_min)
		st->minor_min = d->minor_min;
	if (!st->have_minor || d->minor_max > st->minor_max)
		st->minor_max = d->minor_max;
	st->have_minor = 1;
}

/*
 * Takes a finished slot: an error to report, a batch to return, or a
 * mark (returned as an empty batch for a LOST chunk with lost_batches);
 * 2 for one that returns nothing.
 */
static int deliver(struct pebs_reader *r, struct slot *sl,
		   struct pebs_batch **out)
{
	if (r->dropped && sl->src == r->dropped_src)
		return 2;	/* the rest of a source abandoned after damage */
	add_delta(&r->st, &sl->d);
	if (sl->meta)
		r->last_meta = sl->meta;
	if (sl->kind == K_MARK) {
		if (!sl->lost || !r->o.lost_batches)
			return 2;
		struct pebs_batch *lb = r->lost_batch;
		pebs_batch_reset(lb);
		lb->block_index = sl->block;
		lb->offset = sl->offset;
		lb->source = sl->src;
		lb->segment = sl->segment;
		r->cur_meta = sl->meta ? sl->meta : r->empty;
		r->cur_tmin = sl->seg_tmin;
		r->cur_tmin_set = sl->seg_tmin_set;
		*out = lb;
		return 1;
	}
	if (sl->kind == K_ERROR) {
		snprintf(r->errfile, sizeof(r->errfile), "%s",
			 r->srcs[sl->src].name ? r->srcs[sl->src].name : "?");
		snprintf(r->errmsg, sizeof(r->errmsg), "%s", sl->msg);
		if (!r->o.salvage && sl->chunk) {
			/* A decode failure: drop what was read ahead. */
			r->dropped = 1;
			r->dropped_src = sl->src;
			r->srcs[sl->src].aborted = 1;
		} else if (r->o.salvage && sl->chunk) {
			r->st.damaged++;
		}
		return sl->err;
	}
	struct pebs_batch *b = sl->batch;
	r->cur_meta = sl->meta;
	r->cur_tmin = sl->seg_tmin;
	r->cur_tmin_set = sl->seg_tmin_set;
	r->st.samples += b->n;
	r->st.blocks++;
	for (unsigned c = 0; c < PEBS_COL_COUNT; c++)
		r->st.col_bytes[c] += sl->bytes[c];
	/* The directory's exact range (an absent column is all zero). */
	if (!r->o.cols || r->o.cols & (1ull << PEBS_COL_TIME)) {
		if (!r->have_time || sl->tmin < r->st.tmin)
			r->st.tmin = sl->tmin;
		if (!r->have_time || sl->tmax > r->st.tmax)
			r->st.tmax = sl->tmax;
		r->have_time = 1;
	}
	*out = b;
	return 1;
}

static int next_inline(struct pebs_reader *r, struct pebs_batch **out)
{
	struct slot *sl = &r->slots[0];
	for (;;) {
		release(sl);
		int k = produce(r, sl);
		if (k == P_EOF)
			return 0;
		if (k == P_BLOCK) {
			decode(r, r->dec, sl);
			/* a failure aborted its source before this was read */
			if (r->o.consume)
				consume(r, sl, 0);
		}
		int rc = deliver(r, sl, out);
		if (rc != 2)
			return rc;
	}
}

/*
 * Whether producing the next chunk may wait for a stream's writer: the
 * caller then leaves it to a worker while batches read before are not
 * all delivered (lock held).  A source not opened yet may be a pipe or a
 * FIFO (whose open() waits too).
 */
static int may_wait(struct pebs_reader *r)
{
	if (r->cur >= r->nsrc)
		return 0;
	const struct src *s = &r->srcs[r->cur];
	if (!s->opened)
		return 1;
	if (s->map || s->fd < 0 || s->pb_len || s->state == ST_DONE)
		return 0;
	struct pollfd pfd = { s->fd, POLLIN, 0 };
	return poll(&pfd, 1, 0) == 0;
}

int pebs_reader_next(struct pebs_reader *r, struct pebs_batch **out)
{
	int rc;
	*out = NULL;
	if (r->nthreads == 1) {
		rc = next_inline(r, out);
		goto done;
	}
	pthread_mutex_lock(&r->mu);
	if (!r->started) {
		r->started = 1;
		pthread_cond_broadcast(&r->freed);
	}
	if (r->held) {
		release(r->held);
		r->held = NULL;
		r->cur_seq++;
		signal_freed(r);
	}
	for (;;) {
		struct slot *sl = &r->slots[r->cur_seq % r->nslots];
		if (sl->state == S_READY && sl->seq == r->cur_seq) {
			rc = deliver(r, sl, out);
			if (rc == 2) {
				release(sl);
				r->cur_seq++;
				signal_freed(r);
				continue;
			}
			r->held = sl;
			break;
		}
		if (r->producer_done && r->cur_seq == r->next_seq) {
			rc = 0;
			break;
		}
		/*
		 * Rather than sleep until a worker has decoded the batch due,
		 * decode the next block here: the caller's thread is one of
		 * the N, and sleeping and waking per block is costly.
		 */
		if (!r->producer_done && !r->producing &&
		    r->slots[r->next_seq % r->nslots].state == S_FREE &&
		    (r->cur_seq == r->next_seq ||
		     (!r->gave_back && !may_wait(r)))) {
			work_one(r, r->dec, r->nthreads - 1);
			continue;
		}
		/* all delivered up to a stalled stream (stall()) */
		if (r->stalled && !r->idle_done && r->cur_seq == r->next_seq) {
			r->idle_done = 1;
			pthread_mutex_unlock(&r->mu);
			r->o.idle(r->o.idle_ctx);
			pthread_mutex_lock(&r->mu);
			continue;
		}
		/* a worker reads on: one may sleep on a ring that was full */
		if (!r->producer_done && !r->producing &&
		    r->slots[r->next_seq % r->nslots].state == S_FREE)
			pthread_cond_broadcast(&r->freed);
		wait_ready(r);
	}
	pthread_mutex_unlock(&r->mu);
done:
	/* the last segment delivered, not the last one read ahead */
	if (rc == 0 && r->cur_meta == r->empty && r->last_meta)
		r->cur_meta = r->last_meta;
	return rc;
}

const void *pebs_reader_raw(const struct pebs_reader *r, size_t *len)
{
	const struct slot *sl = r->nthreads == 1 ? &r->slots[0] : r->held;
	if (!r->o.raw_chunks || !sl || !sl->chunk || sl->kind != K_BATCH) {
		*len = 0;
		return NULL;
	}
	*len = sl->len;
	/* A mapped block's copy (img_fetch copies it whole for this). */
	return sl->img_have ? sl->img : sl->chunk;
}

uint64_t pebs_reader_lost(const struct pebs_reader *r, uint32_t *cpu,
			  uint64_t *time)
{
	const struct slot *sl = r->nthreads == 1 ? &r->slots[0] : r->held;
	int is = sl && sl->kind == K_MARK && sl->lost &&
		 r->o.lost_batches;
	if (cpu)
		*cpu = is ? sl->lost_cpu : 0;
	if (time)
		*time = is ? sl->lost_time : 0;
	return is ? sl->lost_count : 0;
}

const char *pebs_reader_errmsg(const struct pebs_reader *r)
{
	return r->errmsg;
}

const char *pebs_reader_errfile(const struct pebs_reader *r)
{
	return r->errfile;
}

const char *pebs_reader_name(const struct pebs_reader *r, uint32_t source)
{
	if (source >= r->nsrc || !r->srcs[source].name)
		return "?";
	return r->srcs[source].name;
}

const struct pebs_meta *pebs_reader_meta(const struct pebs_reader *r)
{
	return r->cur_meta;
}

int pebs_reader_segment_start(const struct pebs_reader *r, uint64_t *t0)
{
	if (meta_time_origin(r->cur_meta, t0, NULL) > 0)
		return 1;
	*t0 = r->cur_tmin_set ? r->cur_tmin : 0;
	return r->cur_tmin_set;
}

void pebs_reader_stats(const struct pebs_reader *r,
		       struct pebs_read_stats *st)
{
	/* from the filter callback: this thread holds the lock, or there
	 * is none to take (one thread) */
	if (in_filter == r) {
		*st = r->st;
		return;
	}
	pthread_mutex_lock((pthread_mutex_t *)&r->mu);
	*st = r->st;
	pthread_mutex_unlock((pthread_mutex_t *)&r->mu);
}

void pebs_reader_close(struct pebs_reader *r)
{
	if (!r)
		return;
	if (r->workers) {
		pthread_mutex_lock(&r->mu);
		__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
		pthread_cond_broadcast(&r->freed);
		pthread_cond_broadcast(&r->ready);
		pthread_mutex_unlock(&r->mu);
		for (unsigned i = 0; i < r->nworkers; i++) {
			pthread_join(r->workers[i].th, NULL);
			fmt_dec_free(r->workers[i].dec);
		}
		free(r->workers);
	}
	fmt_dec_free(r->dec);
	for (size_t i = 0; r->slots && i < r->nslots; i++) {
		free(r->slots[i].owned);
		lib_big_free(r->slots[i].img);
		pebs_batch_free(r->slots[i].batch);
	}
	free(r->slots);
	for (size_t i = 0; r->srcs && i < r->nsrc; i++) {
		struct src *s = &r->srcs[i];
		src_close(s);
		free(s->name);
		free(s->path);
	}
	free(r->srcs);
	for (size_t i = 0; i < r->nmetas; i++)
		pebs_meta_free(r->metas[i]);
	free(r->metas);
	pebs_meta_free(r->empty);
	pebs_batch_free(r->lost_batch);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->ready);
	pthread_cond_destroy(&r->freed);
	free(r);
}
