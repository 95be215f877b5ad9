/*
 * Fuzz target: event specifications.  The input is split at newlines
 * into up to 8 specs; each is parsed and resolved on every profile, and
 * the set is planned on a few profiles.  Any plan that builds must pass
 * pebs_plan_check() (the build already runs it; a failure is a bug, so
 * abort() to make the fuzzer report it).
 */
#include <stdlib.h>
#include <string.h>

#include "pebs_plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[2048];
	const char *specs[8];
	size_t n = 0;
	char err[512];

	if (size >= sizeof(buf))
		size = sizeof(buf) - 1;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (char *p = buf; p && n < 8;) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		specs[n++] = p;
		p = nl ? nl + 1 : NULL;
	}
	for (size_t i = 0; i < n; i++) {
		struct pebs_event_spec s;
		if (pebs_event_parse(specs[i], &s, err, sizeof(err)) < 0)
			continue;
		for (unsigned k = 0; k < pebs_uarch_count(); k++) {
			struct pebs_event e;
			pebs_event_resolve(pebs_uarch_get(k), &s, &e, NULL,
					   err, sizeof(err));
		}
	}
	static const char *const uarchs[] = { "core2", "nhm", "snb", "skl",
					      "glm", "icl", "spr" };
	for (size_t k = 0; k < sizeof(uarchs) / sizeof(uarchs[0]); k++) {
		struct pebs_plan_opts o = { 0 };
		struct pebs_plan *p = NULL;
		enum pebs_rule rule;
		o.uarch = pebs_uarch_by_name(uarchs[k]);
		int r = pebs_plan_build(&p, &o, specs, n, &rule, err,
					sizeof(err));
		if (r == 0 && pebs_plan_check(o.uarch, pebs_plan_write(p, 0),
					      pebs_plan_nwrites(p), NULL, err,
					      sizeof(err)) != 0)
			abort();
		/* the build's own check failing: "internal: ..." (at the
		 * start: other messages quote the spec, which may hold the
		 * word) */
		if (r < 0 && !strncmp(err, "internal:", 9))
			abort();
		pebs_plan_free(p);
	}
	return 0;
}
