/*
 * Fuzz target: the whole reader (framing, header, metadata, blocks, index,
 * concatenation) on an arbitrary byte stream, through both the mmap path
 * and the streaming path, with and without salvage; and the footer index
 * (pebs_file_index) of the same bytes as a file.  The passes with two
 * threads and through a pipe also return LOST chunks as batches of their
 * own (lost_batches), read back with pebs_reader_lost().
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pebs_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_all(const char *path, int salvage, unsigned threads,
		     int lost_batches)
{
	struct pebs_reader *r;
	/* Two threads read only lat: blocks verified column by column. */
	struct pebs_reader_opts o = { .threads = threads, .salvage = salvage,
				      .cols = threads > 1 ?
					      1ull << PEBS_COL_LAT : 0,
				      .lost_batches = lost_batches };
	const char *paths[] = { path };
	if (pebs_reader_open(&r, paths, 1, &o))
		return;
	struct pebs_batch *b;
	int rc, guard = 0;
	while ((rc = pebs_reader_next(r, &b)) != 0 && guard++ < 100000) {
		uint32_t cpu;
		uint64_t time;
		/* a LOST batch is empty and has its segment's metadata */
		if (rc > 0 && pebs_reader_lost(r, &cpu, &time) &&
		    (b->n || !pebs_reader_meta(r)))
			abort();
	}
	pebs_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	struct pebs_index_entry *e;
	size_t n;
	if (pebs_file_index(path, &e, &n) == 0)
		free(e);
	read_all(path, 0, 1, 0);
	read_all(path, 1, 1, 0);
	read_all(path, 1, 2, 1);
	/* The streaming path: the same bytes through a pipe. */
	int p[2];
	if (size < 60000 && pipe(p) == 0) {
		if (write(p[1], data, size) == (ssize_t)size) {
			close(p[1]);
			snprintf(path, sizeof(path), "/proc/self/fd/%d", p[0]);
			read_all(path, 1, 1, 1);
		} else {
			close(p[1]);
		}
		close(p[0]);
	}
	close(fd);
	return 0;
}
