/*
 * util_plan.h - pebs-capture's --plan and --probe output (YAML).
 */
#ifndef PEBS_CMD_UTIL_PLAN_H
#define PEBS_CMD_UTIL_PLAN_H

#include "pebs_plan.h"

/* Writes plan @p as YAML to @path (NULL or "-" = stdout). */
void util_plan_print(const struct pebs_plan *p, const char *path);

/*
 * Gathers this machine's facts (under $PEBS_PROBE_ROOT when set), analyzes
 * them and writes the result as YAML to @path; exits 3 when
 * PEBS_PROBE_ROOT is not a directory.
 */
void util_probe_print(const char *path);

#endif
