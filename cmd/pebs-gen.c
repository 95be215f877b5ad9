/*
 * pebs-gen - writes realistic synthetic memory samples as a .pebs stream,
 * for trying pipelines and benchmarking without a capture.
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "pebs_format.h"
#include "pebs_gen.h"
#include "util.h"
#include "util_progress.h"

static void usage(int code)
{
	fprintf(code ? stderr : stdout,
		"usage: pebs-gen [-n COUNT] [--seed N] [--threads N] "
		"[--block N] [--level N]\n"
		"                [-o FILE]\n"
		"Writes COUNT synthetic samples of a multi-threaded server "
		"workload (loads\n"
		"with latencies and data sources, stores, contended lines) as "
		".pebs.\n"
		"The same seed gives the same samples.  See pebs-gen(1).\n"
		"  -n, --count COUNT  samples to write, k/M/G allowed "
		"(default 1M)\n"
		"  --seed N        seed of the samples (default 1)\n"
		"  --threads N     threads of the simulated workload, 1-64 "
		"(default 16):\n"
		"                  they change the samples; not decode threads "
		"(-j elsewhere)\n"
		"  --block N       samples per block, 1-65536 (default "
		"65536)\n"
		"  --level N       zstd level 1-22 (default 1), or -1 to -7 "
		"for "
		"larger files\n"
		"                  that read faster\n"
		"  -o, --output FILE  write there (default: standard output, "
		"not a terminal)\n"
		"  -h, --help      this help; --version: the version\n");
	if (!code)
		util_close_out(stdout, NULL);
	exit(code);
}

/*
 * The number @s of option --@name: a usage error that quotes it when it
 * is none, or is not a number of @what from @lo to @hi (@what NULL: any
 * that fits 64 bits).  -n 99999999999999999999 read "not a number", and
 * --threads 0 "must be 1 to 64" without the value.
 */
static unsigned long long num_arg(const char *name, const char *s,
				  unsigned long long lo, unsigned long long hi,
				  const char *what)
{
	char opt[32];
	snprintf(opt, sizeof(opt), "--%s", name);
	unsigned long long v;
	int r = util_parse_u64(s, &v);
	/* past 64 bits is out of the range, as below it */
	if (what && r != -1 && (r || v < lo || v > hi))
		util_die(EXIT_USAGE, "%s: \"%s\" is not a number of %s "
			 "from %llu to %llu", opt, s, what, lo, hi);
	/* not a number, or past 64 bits: said as the other tools say it */
	return r ? util_u64_arg(opt, s) : v;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "count", required_argument, NULL, 'n' },
		{ "seed", required_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 't' },
		{ "block", required_argument, NULL, 'b' },
		{ "level", required_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	unsigned long long count = 1000000, seed = 1, threads = 16;
	/* block ULLONG_MAX, level 0: not given (the writer's defaults;
	 * --block 0 is refused, util_level_arg() never gives 0) */
	unsigned long long block = ULLONG_MAX;
	int level = 0;
	const char *out = NULL;
	int c;
	util_init(argv[0]);
	while ((c = util_getopt_long(argc, argv, "n:o:j:h", lo, NULL)) != -1) {
		switch (c) {
		case 'n': count = num_arg("count", optarg, 0, 0, NULL); break;
		case 's': seed = num_arg("seed", optarg, 0, 0, NULL); break;
		case 't':
			threads = num_arg("threads", optarg, 1, 64, "threads");
			break;
		case 'b':
			block = num_arg("block", optarg, 1, PEBS_BATCH_MAX,
					"samples");
			break;
		case 'l': level = util_level_arg(optarg); break;
		case 'o': out = optarg; break;
		case 'j':
			/* the readers' decode threads: pebs-gen decodes
			 * nothing, and its --threads is something else */
			util_die(EXIT_USAGE, "-j: pebs-gen decodes nothing; "
				 "--threads N sets the threads of the "
				 "simulated workload (1 to 64), which change "
				 "the samples");
		case 'h': usage(0); break;
		case 'V': util_version(); break;
		default: usage(EXIT_USAGE);
		}
	}
	if (optind < argc) {
		/* pebs-gen reads nothing: say what was not understood */
		util_warn("unexpected argument \"%s\" (pebs-gen writes "
			  "samples, it reads no input)", argv[optind]);
		usage(EXIT_USAGE);
	}
	if (block == ULLONG_MAX)
		block = 0;

	FILE *fp = util_open_out(out, 1);
	struct pebs_gen_opts go = { .seed = seed, .threads = (unsigned)threads };
	struct pebs_gen *g = pebs_gen_new(&go);
	struct pebs_meta *m = pebs_meta_new();
	struct pebs_batch *b = pebs_batch_new(PEBS_BATCH_MAX);
	if (!g || !m || !b || pebs_gen_meta(g, m))
		util_die(EXIT_SYS, "out of memory");
	/* every option that changes the file's bytes, so that running the
	 * command line again writes the same file (-o does not) */
	char cmd[160];
	int len = snprintf(cmd, sizeof(cmd), "pebs-gen -n %llu --seed %llu "
			   "--threads %llu", count, seed, threads);
	if (block)
		len += snprintf(cmd + len, sizeof(cmd) - (size_t)len,
				" --block %llu", block);
	if (level)
		snprintf(cmd + len, sizeof(cmd) - (size_t)len, " --level %d",
			 level);
	if (pebs_meta_set(m, "cmdline", cmd))
		util_die(EXIT_SYS, "out of memory");
	struct pebs_writer_opts wo = { .level = level,
				       .block_samples = (unsigned)block };
	struct pebs_writer *w;
	util_writer_check(NULL, pebs_writer_open(&w, fp, m, &wo), out);
	struct util_progress pg;
	util_progress_init(&pg, NULL, 0, fp);
	pg.want = count;
	for (unsigned long long done = 0; done < count;) {
		size_t n = count - done < 65536 ? count - done : 65536;
		int r = pebs_gen_batch(g, b, n);
		if (r)
			util_die(EXIT_SYS, "%s", pebs_strerror(r));
		util_writer_check(w, pebs_writer_add_batch(w, b), out);
		done += n;
		util_progress_at(&pg, done, UINT64_MAX);
	}
	util_writer_check(w, pebs_writer_finish(w), out);
	util_progress_end(&pg);
	pebs_writer_close(w);
	util_close_out(fp, out);
	pebs_batch_free(b);
	pebs_meta_free(m);
	pebs_gen_free(g);
	return EXIT_OK;
}
