/*
 * c2cmerge.c - fuzz target: the YAML result reader of pebs-c2c --merge
 * (from the text, and as a stream read in pieces: a valid input merges
 * either way), then the analysis and every writer on whatever was merged.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pebs_c2c.h"
#include "pieces.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pebs_c2c *c, *s;
	struct pebs_c2c_opts o = { .show_all = 1 };
	if (pebs_c2c_new(&c, &o, NULL, 0))
		return 0;
	int r = pebs_c2c_merge_yaml(c, data, size);
	/* read as a stream, in pieces: a valid input merges either way */
	if (pebs_c2c_new(&s, &o, NULL, 0) == 0) {
		struct pieces p = { data, size, 0, pieces_step(size) };
		if (!r != !pebs_c2c_merge_yaml_read(s, pieces_read, &p))
			abort();
		pebs_c2c_free(s);
	}
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
