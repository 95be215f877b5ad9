/*
 * zstd-probe - what zstd costs the .pebs column data, and does another
 * zstd setting decode it faster?  Reads a .pebs file and first prints,
 * per column id, the encodings its blocks use, the bytes per sample
 * before and after zstd and the CPU time of decompressing the file's own
 * frames (best of 3, ns per sample of the whole file).  Then it takes
 * every zstd-compressed column of every block back to its packed planes
 * (formats/pebs-format.md section 6), compresses them all again with
 * several zstd settings and prints, per setting, the compressed size per
 * sample and the decompression speed (best of 3, CPU time).  Bench only:
 * it walks the chunks with the format's own constants (lib/fmt.h) and
 * trusts the file (run it on pebs-gen output).
 *
 *   zstd-probe FILE.pebs
 */
#define ZSTD_STATIC_LINKING_ONLY	/* ZSTD_c_literalCompressionMode */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zstd.h>

#include "fmt.h"

static double cpu(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct col {
	uint8_t *raw, *z;
	size_t len, zlen;
	unsigned id;		/* column id */
	const uint8_t *fz;	/* the file's own frame (fzlen bytes) */
	size_t fzlen;
};

#define NCOLS 34

/* What the directory entries of one column id add up to. */
struct colstat {
	uint64_t rl, cl, nblk, nenc[5];
};

/*
 * Per column id (@st, from the directories): encodings, bytes per sample
 * before and after zstd, and the time to decompress the file's own
 * frames of it (@c, the @nc zstd-compressed column data).
 */
static void per_column(const struct colstat *st, const struct col *c,
		       size_t nc, uint64_t samples, ZSTD_DCtx *dc)
{
	static const char *const enc_name[] = {
		"CONST", "FOR", "DELTA", "DICT", "KEYED",
	};
	double total = 0;
	uint8_t *out = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < nc; i++)
		cap = c[i].len > cap ? c[i].len : cap;
	if (cap && !(out = malloc(cap)))
		exit(1);
	printf("%-9s %-22s %8s %8s %6s %9s\n", "column id",
	       "encodings (blocks)", "rlen B/s", "clen B/s", "ratio",
	       "zstd ns/s");
	for (unsigned id = 0; id < NCOLS; id++) {
		const struct colstat *k = &st[id];
		double best = 1e9;
		if (!k->nblk)
			continue;
		for (int rep = 0; rep < 3; rep++) {
			double t0 = cpu();
			for (size_t i = 0; i < nc; i++)
				if (c[i].id == id &&
				    ZSTD_decompressDCtx(dc, out, cap, c[i].fz,
							c[i].fzlen) != c[i].len)
					exit(1);
			double t = cpu() - t0;
			best = t < best ? t : best;
		}
		char encs[64] = "";
		for (unsigned e = 0; e < 5; e++)
			if (k->nenc[e])
				snprintf(encs + strlen(encs),
					 sizeof(encs) - strlen(encs),
					 "%s%s %llu", *encs ? ", " : "",
					 enc_name[e],
					 (unsigned long long)k->nenc[e]);
		total += best;
		printf("%-9u %-22s %8.2f %8.2f %6.2f %9.2f\n", id, encs,
		       (double)k->rl / (double)samples,
		       (double)k->cl / (double)samples,
		       k->rl ? (double)k->cl / (double)k->rl : 0,
		       best / (double)samples * 1e9);
	}
	printf("zstd of the file's own frames, all columns: %.2f ns/sample\n",
	       total / (double)samples * 1e9);
	free(out);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int level, min_match, lit_huf;
	} set[] = {
		{ "level 1, zstd's parameters", 1, 0, 0 },
		{ "level 1, minMatch 7 (writer)", 1, 7, 0 },
		{ "level 3", 3, 0, 0 },
		{ "level -1", -1, 0, 0 },
		{ "level -1, Huffman literals", -1, 0, 1 },
	};
	struct col *c = NULL;
	static struct colstat st[NCOLS];
	size_t nc = 0, cap = 0, raw_total = 0;
	uint64_t samples = 0;
	FILE *fp;
	long sz;
	uint8_t *f;

	if (argc != 2 || !(fp = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: zstd-probe FILE.pebs\n");
		return 2;
	}
	fseek(fp, 0, SEEK_END);
	sz = ftell(fp);
	rewind(fp);
	f = malloc((size_t)sz);
	if (!f || fread(f, 1, (size_t)sz, fp) != (size_t)sz)
		return 1;
	fclose(fp);
	/* Segments: MAGIC, then chunks (formats/pebs-format.md 2-3). */
	for (size_t off = 0; off + CHUNK_HDR <= (size_t)sz;) {
		if (!memcmp(f + off, FMT_MAGIC, FMT_MAGIC_LEN)) {
			off += FMT_MAGIC_LEN;
			continue;
		}
		uint64_t len = get64(f + off + 8);
		const uint8_t *p = f + off + CHUNK_HDR;
		if (get32(f + off) == TAG_BLCK) {
			uint32_t n = get32(p), ncols = get32(p + 4);
			uint32_t nnames = get32(p + 8);
			const uint8_t *q = p + BLK_FIXED, *dir, *data;
			for (uint32_t i = 0; i < nnames; i++)
				q += 2 + get16(q);
			dir = q;
			data = dir + BLK_COLDIR * (size_t)ncols;
			samples += n;
			for (uint32_t i = 0; i < ncols; i++) {
				const uint8_t *d = dir + BLK_COLDIR * (size_t)i;
				uint64_t clen = get64(d + 32);
				uint64_t rlen = get64(d + 40);
				unsigned id = get16(d);
				if (id < NCOLS) {
					st[id].rl += rlen;
					st[id].cl += clen;
					st[id].nblk++;
					if (ENC_CODE(d[2]) < 5)
						st[id].nenc[ENC_CODE(d[2])]++;
				}
				if (!(d[2] & ENC_STORED) && clen) {
					if (nc == cap) {
						cap = cap ? 2 * cap : 256;
						c = realloc(c, cap * sizeof(*c));
					}
					c[nc].raw = malloc(rlen);
					c[nc].len = ZSTD_decompress(c[nc].raw, rlen,
								    data, clen);
					if (ZSTD_isError(c[nc].len))
						return 1;
					c[nc].id = id;
					c[nc].fz = data;
					c[nc].fzlen = clen;
					raw_total += c[nc++].len;
				}
				data += clen;
			}
		}
		off += CHUNK_HDR + len + CHUNK_TRL;
	}
	printf("%s: %llu samples, %zu zstd columns, %.2f bytes/sample of "
	       "packed planes\n", argv[1], (unsigned long long)samples, nc,
	       (double)raw_total / (double)samples);
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	ZSTD_DCtx *dc = ZSTD_createDCtx();
	per_column(st, c, nc, samples, dc);
	for (size_t s = 0; s < sizeof(set) / sizeof(set[0]); s++) {
		size_t ztotal = 0;
		double best = 1e9;
		ZSTD_CCtx_reset(cc, ZSTD_reset_session_and_parameters);
		ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel,
				       set[s].level);
		if (set[s].min_match)
			ZSTD_CCtx_setParameter(cc, ZSTD_c_minMatch,
					       set[s].min_match);
		if (set[s].lit_huf)
			ZSTD_CCtx_setParameter(cc,
					       ZSTD_c_literalCompressionMode,
					       ZSTD_ps_enable);
		for (size_t i = 0; i < nc; i++) {
			size_t b = ZSTD_compressBound(c[i].len);
			c[i].z = malloc(b);
			c[i].zlen = ZSTD_compress2(cc, c[i].z, b, c[i].raw,
						   c[i].len);
			if (ZSTD_isError(c[i].zlen))
				return 1;
			ztotal += c[i].zlen;
		}
		for (int rep = 0; rep < 3; rep++) {
			double t0 = cpu();
			for (size_t i = 0; i < nc; i++)
				if (ZSTD_decompressDCtx(dc, c[i].raw, c[i].len,
							c[i].z, c[i].zlen) !=
				    c[i].len)
					return 1;
			double t = cpu() - t0;
			best = t < best ? t : best;
		}
		printf("%-28s %6.2f bytes/sample  decompress %5.0f MB/s of "
		       "planes = %5.1f ns/sample\n", set[s].name,
		       (double)ztotal / (double)samples,
		       (double)raw_total / best / 1e6,
		       best / (double)samples * 1e9);
		for (size_t i = 0; i < nc; i++)
			free(c[i].z);
	}
	ZSTD_freeCCtx(cc);
	ZSTD_freeDCtx(dc);
	return 0;
}
