/*
 * Every public header in one translation unit: a program may include any
 * of them together, so no two may define the same name (pebs_workload.h
 * and pebs_plan.h once both defined PEBS_FE_DSB_MISS).
 */
#include <criterion/criterion.h>

#include "pebs.h"
#include "pebs_backend.h"
#include "pebs_c2c.h"
#include "pebs_capture.h"
#include "pebs_csvin.h"
#include "pebs_ds.h"
#include "pebs_dsrc.h"
#include "pebs_expr.h"
#include "pebs_field.h"
#include "pebs_format.h"
#include "pebs_gen.h"
#include "pebs_hist.h"
#include "pebs_output.h"
#include "pebs_perf.h"
#include "pebs_plan.h"
#include "pebs_probe.h"
#include "pebs_sim.h"
#include "pebs_sym.h"
#include "pebs_uarch.h"
#include "pebs_workload.h"

Test(headers, all_public_headers_together)
{
	/* the two front-end vocabularies keep their own values */
	cr_assert_eq(PEBS_FE_DSB_MISS, 0x11);
	cr_assert_eq(PEBS_ACC_FE_DSB_MISS, 0x01u);
	cr_assert_eq(PEBS_FE_STLB_MISS, 0x15);
	cr_assert_eq(PEBS_ACC_FE_STLB_MISS, 0x10u);
}
