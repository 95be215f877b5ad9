/*
 * A program that defines a function of the same name as one of libpebs's
 * internal ones, then reads a valid file through libpebs.so.  When the
 * library exported its internals, the dynamic linker bound the library's
 * own calls to this fmt_checksum, and every block failed its checksum
 * ("checksum mismatch").  The library's version script (scripts/
 * libpebs-map.sh) keeps its internals local, so the program's function
 * stays the program's.  Linked with the installed libpebs.a, it failed
 * to link (multiple definition of fmt_checksum) while the archive's
 * internals were global; they are local now, as in the .so (run.sh
 * links it both ways).
 *   interpose FILE.pebs     prints the sample count, exits 0; 1 on error
 */
#include <stdint.h>
#include <stdio.h>

#include "pebs.h"
#include "pebs_format.h"

uint64_t fmt_checksum(uint32_t tag, const void *payload, uint64_t len);

/* The name and signature of lib/fmt.h's, with a useless result. */
uint64_t fmt_checksum(uint32_t tag, const void *payload, uint64_t len)
{
	(void)payload;
	return tag ^ len;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: interpose FILE.pebs\n");
		return 2;
	}
	const char *paths[] = { argv[1] };
	struct pebs_reader_opts o = { .threads = 1 };
	struct pebs_reader *r;
	int err = pebs_reader_open(&r, paths, 1, &o);
	if (err < 0) {
		fprintf(stderr, "%s: %s\n", argv[1], pebs_strerror(err));
		return 1;
	}
	struct pebs_batch *b;
	uint64_t n = 0;
	while ((err = pebs_reader_next(r, &b)) > 0)
		n += b->n;
	if (err < 0) {
		fprintf(stderr, "%s: %s\n", pebs_reader_errfile(r),
			pebs_reader_errmsg(r));
		pebs_reader_close(r);
		return 1;
	}
	pebs_reader_close(r);
	/* and the program's own function is still the one it calls */
	if (fmt_checksum(1, NULL, 1) != 0) {
		fprintf(stderr, "fmt_checksum is not the program's\n");
		return 1;
	}
	printf("%llu samples\n", (unsigned long long)n);
	return 0;
}
