/*
 * capture_int.h - internals of the capture pipeline (not public): the
 * block-encoding worker pool of capture_enc.c and the process maps of
 * capture_maps.c.
 */
#ifndef PEBS_CAPTURE_INT_H
#define PEBS_CAPTURE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "pebs.h"
#include "pebs_format.h"

#define CENC_MAX_THREADS 8

struct cap_enc;

/* Starts @threads workers (0 = encode inline) encoding at zstd @level
 * (0 = the format's default, as the writer) batches of capacity @cap.
 * 0 or -PEBS_E_NOMEM. */
int cenc_open(struct cap_enc **e, unsigned threads, int level, size_t cap);
/* An empty batch to fill (reused, or new; NULL when out of memory). */
struct pebs_batch *cenc_batch(struct cap_enc *e);
/*
 * Hands @b (ownership passes) to the encoders; blocks that are done are
 * written to @w in submission order (pebs_writer_copy_block).  *@werr
 * is set to 1 when the writer failed.  Returns 0 or a negative error.
 */
int cenc_submit(struct cap_enc *e, struct pebs_batch *b,
		struct pebs_writer *w, int *werr);
/*
 * Queues an in-band lost record (pebs_writer_lost) behind the blocks
 * submitted before it, so the file has it in submission order.  0 or an
 * error.
 */
int cenc_lost(struct cap_enc *e, struct pebs_writer *w, uint32_t cpu,
	      uint64_t time, uint64_t count, int *werr);
/* Writes what is done at the head of the queue, without waiting. */
int cenc_poll(struct cap_enc *e, struct pebs_writer *w, int *werr);
/* Waits for every submitted block and writes it.  0 or an error. */
int cenc_sync(struct cap_enc *e, struct pebs_writer *w, int *werr);
/* Stops the workers and frees everything.  NULL is fine. */
void cenc_close(struct cap_enc *e);
/*
 * Puts the samples of one drain in time order: those from index @from
 * of @b[0] to the end of @b[@nb - 1] (batches filled one after the
 * other, each but the last full), sorted by the time column, stably (equal
 * times keep their order: CPU by CPU, each CPU's in buffer order), in
 * the same slots; samples move between the batches with their event
 * names.  Only the capture thread calls it (scratch memory of @e, kept
 * for the next drain).  0 or -PEBS_E_NOMEM (the order is then unchanged).
 */
int cenc_order(struct cap_enc *e, struct pebs_batch *const *b, size_t nb,
	       size_t from);

/* ------------------------------------------------ capture_maps.c */

/* Most maps kept (as pebs-import: "maps_truncated" says when cut). */
#define CMAPS_MAX 20000u

struct cmaps_map {
	int32_t pid;
	uint64_t start, end, pgoff;
	char *path;
	size_t bidx;		/* into cmaps.bid */
};

struct cmaps_bid {
	char *path;
	char hex[41];		/* "" when the file has none or is gone */
	int notelf;		/* a regular file here, but not ELF */
};

/* Maps of the sampled processes, in the order first seen (zero = empty). */
struct cmaps {
	struct cmaps_map *v;
	size_t n, cap;
	struct cmaps_bid *bid;	/* one per path */
	size_t nbid, capbid;
	int truncated;
};

/* 1 when a map of @path has no symbols or no file (anonymous, [heap],
 * [stack], [vdso], /dev/..., SysV, memfd, deleted): pebs-import's list. */
int cmaps_useless(const char *path);
/* NT_GNU_BUILD_ID of ELF file @path as lowercase hex into @hex: 0, -1
 * (no such regular file, or no note), -2 (a regular file, not ELF); @hex
 * is "" unless 0. */
int cmaps_build_id(const char *path, char hex[41]);
/* Adds a map unless useless, of a file here that is not ELF, or already
 * there; @bid is its build-id in hex, NULL or "" = read from the file
 * (once per path; a file that is not here is kept, without one).
 * Returns 1 when added, 0 when not, -PEBS_E_NOMEM. */
int cmaps_add(struct cmaps *m, int32_t pid, uint64_t start, uint64_t end,
	      uint64_t pgoff, const char *path, const char *bid);
/* Adds the maps of /proc/PID/maps (under @root, NULL = "/"), while the
 * process lives.  Returns the number added, or -PEBS_E_IO (gone). */
int cmaps_read_proc(struct cmaps *m, const char *root, int pid);
/* Sets maps.N.* (N from 0) in @meta.  0 or -PEBS_E_NOMEM. */
int cmaps_meta(const struct cmaps *m, struct pebs_meta *meta);
/* Frees the contents; @m is empty again. */
void cmaps_free(struct cmaps *m);

/* A kernel command name: TASK_COMM_LEN, 15 bytes and the NUL. */
#define CMAPS_COMM_LEN 16
/* The command name the kernel gives an exec of @cmd: its last path
 * component, cut to 15 bytes. */
void cmaps_comm_name(const char *cmd, char name[CMAPS_COMM_LEN]);
/* Sets comm.@pid in @meta: with @live, from /proc/PID/comm (under @root,
 * NULL = "/"), and comm.PID.TID from /proc/PID/task/TID/comm of each
 * other thread alive now; else (or when /proc has no comm) from @cmd
 * (cmaps_comm_name()), unless comm.PID is set.  Never reads /proc of a
 * process already reaped (@live 0): its pid may be another's.  0 or
 * -PEBS_E_NOMEM. */
int cmaps_comm(struct pebs_meta *meta, const char *root, int pid, int live,
	       const char *cmd);

#endif
