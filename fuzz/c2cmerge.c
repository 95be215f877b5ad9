/*
 * c2cmerge.c - fuzz target: the YAML result reader of pebs-c2c --merge,
 * then the analysis and every writer on whatever was merged.
 */
#include <stdint.h>
#include <stdio.h>

#include "pebs_c2c.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pebs_c2c *c;
	struct pebs_c2c_opts o = { .show_all = 1 };
	if (pebs_c2c_new(&c, &o, NULL, 0))
		return 0;
	pebs_c2c_merge_yaml(c, data, size);
	if (pebs_c2c_finish(c) == 0) {
		FILE *fp = fopen("/dev/null", "w");
		if (fp) {
			for (int f = PEBS_C2C_F_TEXT;
			     f <= PEBS_C2C_F_STATS_CSV; f++)
				pebs_c2c_write(c, fp, (enum pebs_c2c_format)f);
			fclose(fp);
		}
	}
	pebs_c2c_free(c);
	return 0;
}
