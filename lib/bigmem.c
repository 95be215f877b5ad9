/*
 * bigmem.c - large arrays in their own mappings (internal to lib/): grown
 * without copying, on transparent huge pages once past 512 KiB.  Used by
 * the batches' columns, the block decoder's scratch, the c2c cells and
 * pebs-hist's group tables.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "bigmem.h"

/*
 * Large arrays live in their own mappings, each first reserved as 4 GiB
 * of address space aligned to 2 MiB (MAP_NORESERVE: nothing is committed
 * until touched), so growing one costs nothing until it outgrows that
 * (then an mremap(), no copy: glibc's realloc() copied tens of MB each
 * time the columns doubled).  An array of BIG_HUGE or more is on
 * transparent huge pages: the columns of a million samples are written
 * once, and with 4 KiB pages the page faults cost as much as the analysis
 * (on a virtual machine measured here: 11 us per 4 KiB page against 6 us
 * per 4 KiB of a huge page), and tables read at random (pebs-hist's groups
 * of a million lines) miss the TLB far less.  Huge pages are asked for
 * before anything in the mapping is touched, the header included: a 2 MiB
 * range with one small page in it stays on small pages.  So an array that
 * grows past BIG_HUGE moves to a fresh mapping (a copy of less than
 * BIG_HUGE); asked for in place, its first 2 MiB stayed on small pages,
 * 512 faults (pebs-c2c on 1M samples: 2,590 page faults, 690 after this
 * alone, 521 with the batches and coder scratch here too).
 * Smaller arrays stay on small pages, so a small input does not clear
 * 2 MiB pages it never uses.  A header before the data keeps the
 * mapping's length, the bytes in use and whether it is on huge pages.
 */
#define BIG_HDR 64
#define BIG_RESERVE ((size_t)1 << 32)
#define BIG_ALIGN ((size_t)2 << 20)
#define BIG_HUGE ((size_t)512 << 10)

struct big_hdr {
	size_t maplen;		/* bytes mapped, header included */
	size_t used;		/* bytes asked for so far, header included */
	int huge;		/* on huge pages (asked for, from the start) */
};

/* Asks for huge pages on the whole of mapping @base of @maplen bytes:
 * before anything in it is touched, or the 2 MiB around what was stays on
 * small pages. */
static void big_huge(char *base, size_t maplen)
{
#ifdef MADV_HUGEPAGE
	/* the whole mapping: a part would split it, and mremap() works on
	 * one mapping only */
	madvise(base, maplen, MADV_HUGEPAGE);
#else
	(void)base;
	(void)maplen;
#endif
}

/*
 * A fresh reservation of at least @len bytes, 2 MiB aligned if it can,
 * on huge pages when @len is BIG_HUGE or more.
 */
static char *big_map(size_t len)
{
	size_t want = len > BIG_RESERVE ? len : BIG_RESERVE;
	char *base = NULL;
	if (want <= SIZE_MAX - BIG_ALIGN) {
		char *m = mmap(NULL, want + BIG_ALIGN, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			       -1, 0);
		if (m != MAP_FAILED) {
			uintptr_t a = ((uintptr_t)m + BIG_ALIGN - 1) &
				      ~(uintptr_t)(BIG_ALIGN - 1);
			size_t head = (size_t)(a - (uintptr_t)m);
			if (head)
				munmap(m, head);
			munmap((char *)a + want, BIG_ALIGN - head);
			base = (char *)a;
		}
	}
	if (!base) {
		/* no room for the reservation (strict overcommit): the
		 * exact size */
		want = len;
		base = mmap(NULL, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (base == MAP_FAILED)
			return NULL;
	}
	struct big_hdr h = { want, 0, len >= BIG_HUGE };
	if (h.huge)
		big_huge(base, want);
	memcpy(base, &h, sizeof(h));
	return base;
}

void *lib_big_realloc(void *p, size_t n)
{
	const size_t pg = 4096;
	if (n > SIZE_MAX - BIG_HDR - pg - BIG_ALIGN)
		return NULL;
	size_t len = (n + BIG_HDR + pg - 1) & ~(pg - 1);
	/* a fresh reservation is never shorter than @len: no mremap() */
	char *base = p ? (char *)p - BIG_HDR : big_map(len);
	struct big_hdr h;
	if (!base)
		return NULL;
	memcpy(&h, base, sizeof(h));
	if (p && !h.huge && len >= BIG_HUGE) {
		/* the data so far (less than BIG_HUGE) to a huge mapping */
		char *nb = big_map(len);
		if (!nb)
			return NULL;
		memcpy(nb + BIG_HDR, base + BIG_HDR, h.used - BIG_HDR);
		munmap(base, h.maplen);
		base = nb;
		memcpy(&h, base, sizeof(h));
	}
	if (len > h.maplen) {
		base = mremap(base, h.maplen, len, MREMAP_MAYMOVE);
		if (base == MAP_FAILED)
			return NULL;
		h.maplen = len;
	}
	if (len > h.used)
		h.used = len;
	memcpy(base, &h, sizeof(h));
	return base + BIG_HDR;
}

void lib_big_free(void *p)
{
	if (!p)
		return;
	char *base = (char *)p - BIG_HDR;
	struct big_hdr h;
	memcpy(&h, base, sizeof(h));
	munmap(base, h.maplen);
}
