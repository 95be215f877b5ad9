/*
 * nomem.c - library functions under a failing allocation
 * (tu_alloc_fail): each must report -PEBS_E_NOMEM, not another error nor
 * a success with a partial result.  Every allocation a call makes is made
 * to fail in turn, until the call makes fewer.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "pebs_expr.h"
#include "testutil.h"

#define MAX_POINTS 10000

/* Skips the test where allocations cannot be made to fail. */
static void arm(long n)
{
	if (tu_alloc_fail(n) < 0)
		cr_skip_test("allocation faults need a build without "
			     "sanitizer");
}

Test(nomem, expr_parse_reports_no_memory_not_a_parse_error)
{
	/* node growth, a set's items, string names, a negated set */
	static const char text[] =
		"lat >= 30 and op == load and mem in (L2, L3, LFB) and "
		"event in (\"load-latency\", \"x\") and not snoop in (hit) "
		"or addr in 0x1000..0x2000 or (tid != 3 and lat not in "
		"(1, 5..9))";
	long n;
	for (n = 1; n < MAX_POINTS; n++) {
		struct pebs_expr *e = NULL;
		struct pebs_expr_error err;
		arm(n);
		int r = pebs_expr_parse(text, &e, &err);
		int injected = tu_alloc_failed();
		if (!injected) {
			cr_assert_eq(r, 0);
			/* the inverted program needs one node more */
			long k;
			for (k = 1; k < MAX_POINTS; k++) {
				arm(k);
				int ir = pebs_expr_invert(e);
				if (!tu_alloc_failed()) {
					cr_assert_eq(ir, 0);
					break;
				}
				cr_assert_eq(ir, -PEBS_E_NOMEM,
					     "invert, allocation %ld: %d", k,
					     ir);
			}
			pebs_expr_free(e);
			break;
		}
		cr_assert_eq(r, -PEBS_E_NOMEM, "allocation %ld: %d (%s)", n,
			     r, err.msg);
		cr_assert_null(e);
	}
	cr_assert_gt(n, 3, "the parse allocates more than that");
}
