/*
 * alloc_fault.c - tu_alloc_fail(): the Nth allocation of the calling thread
 * fails, so that a library function's out-of-memory path can be unit
 * tested (tests/fault/ does the same for whole tools, by LD_PRELOAD).
 * malloc, calloc and realloc are replaced in this binary by wrappers of
 * glibc's own; free stays glibc's, the memory being the same.  Not under
 * a sanitizer, whose allocator this would bypass.
 */
#include <stddef.h>
#include <stdlib.h>

#include "testutil.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TU_ALLOC_FAULT 0
#else
#define TU_ALLOC_FAULT 1
#endif

/* allocations left before the failing one, -1 none armed (per thread: the
 * test runner's own threads are left alone) */
static __thread long fail_in = -1;
static __thread int failed;
static __thread const void *failed_at;

int tu_alloc_fail(long n)
{
	if (!TU_ALLOC_FAULT)
		return -1;
	fail_in = n > 0 ? n - 1 : -1;
	failed = 0;
	failed_at = NULL;
	return 0;
}

const void *tu_alloc_failed_at(void)
{
	return failed_at;
}

int tu_alloc_failed(void)
{
	int f = failed;
	fail_in = -1;
	failed = 0;
	return f;
}

#if TU_ALLOC_FAULT
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t k, size_t n);
void *__libc_realloc(void *p, size_t n);

/* Whether this allocation, returning to @at, is the one to fail. */
static int fail_now(const void *at)
{
	if (fail_in < 0)
		return 0;
	if (fail_in-- > 0)
		return 0;
	failed = 1;
	failed_at = at;
	return 1;
}

void *malloc(size_t n)
{
	return fail_now(__builtin_return_address(0)) ? NULL :
	       __libc_malloc(n);
}

void *calloc(size_t k, size_t n)
{
	return fail_now(__builtin_return_address(0)) ? NULL :
	       __libc_calloc(k, n);
}

void *realloc(void *p, size_t n)
{
	return fail_now(__builtin_return_address(0)) ? NULL :
	       __libc_realloc(p, n);
}
#endif
