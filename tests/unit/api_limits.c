/*
 * The public API at the edges of its arguments: error codes that are no
 * code (pebs_strerror(INT_MIN) negated an int, undefined, and crashed).
 */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pebs.h"
#include "pebs_format.h"

Test(api_limits, strerror_of_any_int)
{
	cr_assert_str_eq(pebs_strerror(-PEBS_E_NOMEM), "out of memory");
	cr_assert_str_eq(pebs_strerror(PEBS_E_NOMEM), "out of memory");
	cr_assert_str_eq(pebs_strerror(0), "success");
	static const int odd[] = { INT_MIN, INT_MIN + 1, INT_MAX, -1000, 99 };
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		cr_assert_str_eq(pebs_strerror(odd[i]), "unknown error",
				 "%d", odd[i]);
}
