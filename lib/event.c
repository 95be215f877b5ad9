/*
 * event.c - event specifications: parsing ("NAME[:MOD,...]") and resolution
 * to an IA32_PERFEVTSELx selection for one profile (built-in table, then
 * libpfm4 with the profile's PMU forced, or a raw value).
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmon/pfmlib.h>

#include "ascii.h"
#include "errbuf.h"
#include "output_fmt.h"
#include "pebs_field.h"
#include "pebs_plan.h"


/* ------------------------------------------------------------- parsing */

static const struct {
	const char *name;
	unsigned code;
} fe_subs[] = {
	{ "dsb_miss", PEBS_FE_DSB_MISS },
	{ "l1i_miss", PEBS_FE_L1I_MISS },
	{ "l2_miss", PEBS_FE_L2_MISS },
	{ "itlb_miss", PEBS_FE_ITLB_MISS },
	{ "stlb_miss", PEBS_FE_STLB_MISS },
	{ "idq_bubbles", PEBS_FE_IDQ_BUBBLES },
	{ "ms_flows", PEBS_FE_MS_FLOWS },
};

/* The sub= names for messages; ms_flows's profile is said, the others
 * exist wherever MSR_PEBS_FRONTEND does. */
#define FE_SUB_NAMES	"dsb_miss, l1i_miss, l2_miss, itlb_miss, " \
			"stlb_miss, idq_bubbles, ms_flows on spr"

const char *pebs_event_fe_sub_name(unsigned sub)
{
	for (size_t i = 0; i < sizeof(fe_subs) / sizeof(fe_subs[0]); i++)
		if (fe_subs[i].code == sub)
			return fe_subs[i].name;
	return "?";
}

static int is_raw_name(const char *n)
{
	size_t len = strlen(n);
	if (len < 2 || len > 17 || n[0] != 'r')
		return 0;
	for (size_t i = 1; i < len; i++)
		if (!lib_isxdigit((unsigned char)n[i]))
			return 0;
	return 1;
}

/* The value of raw name @n (@len bytes, is_raw_name()): 0 or -1. */
static int raw_value(const char *n, size_t len, uint64_t *v)
{
	/* is_raw_name() allows at most 16 hex digits: no overflow */
	char buf[20] = "0x";
	memcpy(buf + 2, n + 1, len - 1);
	return pebs_outfmt_parse_u64(buf, len + 1, v) < 0 ? -1 : 0;
}

/* Modifier table: name, bit, takes a value. */
static const struct {
	const char *key;
	unsigned bit;
	int value;
} mods[] = {
	{ "ldlat", PEBS_MOD_LDLAT, 1 },
	{ "period", PEBS_MOD_PERIOD, 1 },
	{ "u", PEBS_MOD_U, 0 },
	{ "k", PEBS_MOD_K, 0 },
	{ "sub", PEBS_MOD_SUB, 1 },
	{ "latency", PEBS_MOD_LATENCY, 1 },
	{ "width", PEBS_MOD_WIDTH, 1 },
	{ "edge", PEBS_MOD_EDGE, 0 },
	{ "inv", PEBS_MOD_INV, 0 },
	{ "any", PEBS_MOD_ANY, 0 },
	{ "cmask", PEBS_MOD_CMASK, 1 },
	{ "pmc", PEBS_MOD_PMC, 1 },
};

static int parse_mod(struct pebs_event_spec *o, const char *tok, size_t len,
		     char *err, size_t errlen)
{
	const char *eq = memchr(tok, '=', len);
	size_t klen = eq ? (size_t)(eq - tok) : len;
	const char *val = eq ? eq + 1 : NULL;
	size_t vlen = eq ? len - klen - 1 : 0;
	size_t i;

	if (len == 0) {
		lib_errf(err, errlen, "empty modifier");
		return -PEBS_E_PARSE;
	}
	/* perf's precision levels (p, pp, ppp, P): a PEBS event is precise
	 * whatever they ask, so they change nothing here. */
	if ((len == 1 && tok[0] == 'P') ||
	    (len <= 3 && strspn(tok, "p") >= len))
		return 0;
	for (i = 0; i < sizeof(mods) / sizeof(mods[0]); i++)
		if (strlen(mods[i].key) == klen &&
		    memcmp(mods[i].key, tok, klen) == 0)
			break;
	if (i == sizeof(mods) / sizeof(mods[0])) {
		/* Keys are perf's, case-sensitive (perf's G and H are not g
		 * and h): LDLAT=30 is refused, but names the key it meant,
		 * as an unknown field does. */
		char key[33];
		const char *sug = NULL;
		int bd = 3;
		snprintf(key, sizeof(key), "%.*s", (int)klen, tok);
		for (size_t j = 0; klen < sizeof(key) &&
		     j < sizeof(mods) / sizeof(mods[0]); j++) {
			int d = pebs_name_distance(key, mods[j].key);
			if (d < bd && (size_t)d < klen) {
				bd = d;
				sug = mods[j].key;
			}
		}
		if (sug)
			lib_errf(err, errlen, "unknown modifier '%.*s' (did you "
				 "mean '%s'?)", (int)klen, tok, sug);
		else
			lib_errf(err, errlen, "unknown modifier '%.*s'",
				 (int)klen, tok);
		return -PEBS_E_PARSE;
	}
	if (o->mods & mods[i].bit) {
		lib_errf(err, errlen, "modifier '%s' given twice", mods[i].key);
		return -PEBS_E_PARSE;
	}
	if (mods[i].value && !eq) {
		lib_errf(err, errlen, "modifier '%s' needs a value (%s=N)",
		       mods[i].key, mods[i].key);
		return -PEBS_E_PARSE;
	}
	if (!mods[i].value && eq) {
		lib_errf(err, errlen, "modifier '%s' takes no value",
		       mods[i].key);
		return -PEBS_E_PARSE;
	}
	o->mods |= mods[i].bit;
	if (!mods[i].value)
		return 0;
	if (mods[i].bit == PEBS_MOD_SUB) {
		for (size_t j = 0; j < sizeof(fe_subs) / sizeof(fe_subs[0]);
		     j++) {
			if (strlen(fe_subs[j].name) == vlen &&
			    lib_strncasecmp(fe_subs[j].name, val, vlen) == 0) {
				o->sub = fe_subs[j].code;
				return 0;
			}
		}
		lib_errf(err, errlen, "unknown front-end sub-event '%.*s' "
		       "(" FE_SUB_NAMES ")", (int)vlen, val);
		return -PEBS_E_PARSE;
	}
	uint64_t v;
	if (pebs_num_parse(val, vlen, &v) < 0) {
		lib_errf(err, errlen, "modifier '%s': '%.*s' is not a number "
		       "(decimal or 0x-hex, k/M/G, at most 64 bits)", mods[i].key,
		       (int)vlen, val);
		return -PEBS_E_PARSE;
	}
	switch (mods[i].bit) {
	case PEBS_MOD_LDLAT: o->ldlat = v; break;
	case PEBS_MOD_PERIOD: o->period = v; break;
	case PEBS_MOD_LATENCY: o->latency = v; break;
	case PEBS_MOD_WIDTH: o->width = v; break;
	case PEBS_MOD_CMASK:
		if (v > 255) {
			lib_errf(err, errlen, "cmask=%llu does not fit the "
			       "8-bit CMASK field",
			       (unsigned long long)v);
			return -PEBS_E_PARSE;
		}
		o->cmask = (unsigned)v;
		break;
	case PEBS_MOD_PMC:
		if (v > 31) {
			lib_errf(err, errlen, "pmc=%llu: no such general-purpose "
			       "counter", (unsigned long long)v);
			return -PEBS_E_PARSE;
		}
		o->pmc = (unsigned)v;
		break;
	}
	return 0;
}

/*
 * perf's names of the portable events: the kernel's sysfs aliases of the
 * cpu PMU (perf mem record uses them), the same event on every profile.
 */
static enum pebs_evspec_type portable_type(const char *name, size_t len)
{
	static const struct {
		const char *name;
		enum pebs_evspec_type type;
	} names[] = {
		{ "load-latency", PEBS_SPEC_LOAD_LATENCY },
		{ "mem-loads", PEBS_SPEC_LOAD_LATENCY },
		{ "precise-store", PEBS_SPEC_PRECISE_STORE },
		{ "mem-stores", PEBS_SPEC_PRECISE_STORE },
		{ "frontend", PEBS_SPEC_FRONTEND },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == len &&
		    lib_strncasecmp(names[i].name, name, len) == 0)
			return names[i].type;
	return PEBS_SPEC_NAME;
}

enum pebs_evspec_type pebs_event_portable(const char *name)
{
	enum pebs_evspec_type t = portable_type(name, strlen(name));
	return t == PEBS_SPEC_FRONTEND ? PEBS_SPEC_NAME : t;
}

#define PERF_SPELLING_HELP "perf's cpu/NAME[,ldlat=N][,period=N]/[p|P|u|k] " \
	"or cpu/event=N[,umask=N][,cmask=N][,edge][,inv][,any][,ldlat=N]" \
	"[,frontend=N][,period=N]/, cpu/config=N[,...]/"

/* perf's terms that our spelling has a place for (struct perf_terms). */
enum perf_term {
	PT_EVENT, PT_UMASK, PT_CMASK, PT_EDGE, PT_INV, PT_ANY, PT_CONFIG,
	PT_LDLAT, PT_FRONTEND, PT_PERIOD, PT_COUNT
};

static const struct {
	const char *key;
	int flag;		/* one bit: bare "edge" means edge=1 */
} perf_term_keys[PT_COUNT] = {
	[PT_EVENT] = { "event", 0 }, [PT_UMASK] = { "umask", 0 },
	[PT_CMASK] = { "cmask", 0 }, [PT_EDGE] = { "edge", 1 },
	[PT_INV] = { "inv", 1 }, [PT_ANY] = { "any", 1 },
	[PT_CONFIG] = { "config", 0 }, [PT_LDLAT] = { "ldlat", 0 },
	[PT_FRONTEND] = { "frontend", 0 }, [PT_PERIOD] = { "period", 0 },
};

/*
 * perf terms of the cpu PMU (its sysfs format) and generic ones that no
 * spelling of ours can express, with why: refused by name rather than as
 * unknown.
 */
static const struct {
	const char *key, *why;
} perf_term_none[] = {
	{ "pc", "pin control, IA32_PERFEVTSELx bit 19" },
	{ "in_tx", "IA32_PERFEVTSELx bit 32, IN_TX" },
	{ "in_tx_cp", "IA32_PERFEVTSELx bit 33, IN_TXCP" },
	{ "eq", "IA32_PERFEVTSELx bit 36" },
	{ "umask2", "IA32_PERFEVTSELx bits 47:40" },
	{ "offcore_rsp", "an offcore-response MSR, which plans do not "
	  "program" },
	{ "config1", "give ldlat= or frontend= instead" },
	{ "config2", "perf's second extra config word" },
	{ "config3", "perf's third extra config word" },
	{ "freq", "sample periods are fixed: give period=" },
	{ "name", "the capture names events itself" },
};

/* perf's event terms, as perf_terms_parse() read them. */
struct perf_terms {
	const char *name;	/* the event name term, or NULL */
	size_t nlen;
	unsigned have;		/* 1u << PT_* given */
	uint64_t v[PT_COUNT];
};

/* Term @p (@len bytes) of @text, between the slashes, into @t. */
static int perf_term(const char *text, const char *p, size_t len,
		     struct perf_terms *t, char *err, size_t errlen)
{
	const char *eq = memchr(p, '=', len);
	size_t klen = eq ? (size_t)(eq - p) : len;
	size_t i;

	if (len == 0) {
		lib_errf(err, errlen, "'%s': empty perf term between commas "
			 "or slashes", text);
		return -PEBS_E_PARSE;
	}
	for (i = 0; i < PT_COUNT; i++)
		if (strlen(perf_term_keys[i].key) == klen &&
		    strncmp(perf_term_keys[i].key, p, klen) == 0)
			break;
	if (i == PT_COUNT) {
		for (size_t j = 0; j < sizeof(perf_term_none) /
				       sizeof(perf_term_none[0]); j++) {
			if (strlen(perf_term_none[j].key) == klen &&
			    strncmp(perf_term_none[j].key, p, klen) == 0) {
				lib_errf(err, errlen, "'%s': perf term '%.*s' "
					 "(%s) has no equivalent in "
					 "pebs-capture's event spelling", text,
					 (int)len, p, perf_term_none[j].why);
				return -PEBS_E_PARSE;
			}
		}
		if (eq) {
			lib_errf(err, errlen, "'%s': unknown perf term '%.*s' "
				 "(%s)", text, (int)klen, p,
				 PERF_SPELLING_HELP);
			return -PEBS_E_PARSE;
		}
		/* a bare word that is no flag: the event name */
		if (t->name) {
			lib_errf(err, errlen, "'%s': two event names ('%.*s' "
				 "and '%.*s')", text, (int)t->nlen, t->name,
				 (int)len, p);
			return -PEBS_E_PARSE;
		}
		/* perf's modifiers go after the closing slash; in here
		 * they would be read into our spelling's modifier list */
		if (memchr(p, ':', len)) {
			lib_errf(err, errlen, "'%s': event name '%.*s': perf "
				 "takes modifiers after the closing slash "
				 "(%s)", text, (int)len, p,
				 PERF_SPELLING_HELP);
			return -PEBS_E_PARSE;
		}
		t->name = p;
		t->nlen = len;
		return 0;
	}
	if (t->have & 1u << i) {
		lib_errf(err, errlen, "'%s': perf term '%s' given twice", text,
			 perf_term_keys[i].key);
		return -PEBS_E_PARSE;
	}
	t->have |= 1u << i;
	if (!eq) {
		if (perf_term_keys[i].flag) {
			t->v[i] = 1;
			return 0;
		}
		lib_errf(err, errlen, "'%s': perf term '%s' needs a value "
			 "(%s=N)", text, perf_term_keys[i].key,
			 perf_term_keys[i].key);
		return -PEBS_E_PARSE;
	}
	size_t vlen = len - klen - 1;
	if (pebs_num_parse(eq + 1, vlen, &t->v[i]) < 0) {
		lib_errf(err, errlen, "'%s': perf term '%.*s': '%.*s' is not a "
			 "number (decimal or 0x-hex, at most 64 bits)", text,
			 (int)len, p, (int)vlen, eq + 1);
		return -PEBS_E_PARSE;
	}
	uint64_t max = perf_term_keys[i].flag ? 1 :
		       (i == PT_EVENT || i == PT_UMASK || i == PT_CMASK) ?
		       0xff : UINT64_MAX;
	if (t->v[i] > max) {
		if (max == 1)
			lib_errf(err, errlen, "'%s': perf term '%.*s': %s is "
				 "one bit (0 or 1)", text, (int)len, p,
				 perf_term_keys[i].key);
		else
			lib_errf(err, errlen, "'%s': perf term '%.*s': 0x%llx "
				 "does not fit the 8-bit %s field of "
				 "IA32_PERFEVTSELx (%s)", text, (int)len, p,
				 (unsigned long long)t->v[i],
				 perf_term_keys[i].key, i == PT_EVENT ? "7:0" :
				 i == PT_UMASK ? "15:8" : "31:24");
		return -PEBS_E_PARSE;
	}
	return 0;
}

/* Appends "%s" formatted to @out (@len bytes) at *@n; 0 or -1 (full). */
static int out_add(char *out, size_t len, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int out_add(char *out, size_t len, size_t *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(out + *n, len - *n, fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= len - *n)
		return -1;
	*n += (size_t)w;
	return 0;
}

/*
 * MSR_PEBS_FRONTEND value @v as our modifiers ("sub=dsb_miss",
 * "sub=idq_bubbles,latency=N,width=N") appended at *@n of @out.
 */
static int frontend_mods(const char *text, uint64_t v, char *out, size_t len,
			 size_t *n, char *err, size_t errlen)
{
	unsigned sub = (unsigned)(v & 0xff);
	const char *name = pebs_event_fe_sub_name(sub);
	if (v >> 23) {
		lib_errf(err, errlen, "'%s': perf term 'frontend=0x%llx': bits "
			 "0x%llx are above MSR_PEBS_FRONTEND's 22:0", text,
			 (unsigned long long)v,
			 (unsigned long long)(v & ~0x7fffffull));
		return -PEBS_E_PARSE;
	}
	if (!strcmp(name, "?")) {
		lib_errf(err, errlen, "'%s': perf term 'frontend=0x%llx': "
			 "sub-event 0x%02x (bits 7:0) is none of those "
			 "pebs-capture names (0x11 dsb_miss, 0x12 l1i_miss, 0x13 "
			 "l2_miss, 0x14 itlb_miss, 0x15 stlb_miss, 0x06 "
			 "idq_bubbles, 0x08 ms_flows on spr)", text,
			 (unsigned long long)v, sub);
		return -PEBS_E_PARSE;
	}
	if (sub != PEBS_FE_IDQ_BUBBLES) {
		if (v >> 8) {
			lib_errf(err, errlen, "'%s': perf term "
				 "'frontend=0x%llx': latency and width (bits "
				 "22:8) apply only to sub-event 0x06 "
				 "(idq_bubbles)", text, (unsigned long long)v);
			return -PEBS_E_PARSE;
		}
		return out_add(out, len, n, "sub=%s", name);
	}
	return out_add(out, len, n, "sub=%s,latency=%llu,width=%llu", name,
		       (unsigned long long)(v >> PEBS_FE_LATENCY_SHIFT & 0xfff),
		       (unsigned long long)(v >> PEBS_FE_WIDTH_SHIFT & 0x7));
}

/*
 * perf's event terms (@p to @end, between the slashes of @text) in our
 * spelling, in @out (@len bytes): an event name keeps its name, with
 * edge, inv, any and cmask= as modifiers; event=, umask=, cmask=, edge,
 * inv and any (or config=, the same bits at once) become rHEX, or
 * frontend:sub=... when frontend= is given for FRONTEND_RETIRED; ldlat=
 * and period= are modifiers.  0 or -PEBS_E_PARSE.
 */
static int perf_terms_ours(const char *text, const char *p, const char *end,
			   char *out, size_t len, char *err, size_t errlen)
{
	struct perf_terms t;
	const unsigned sel = 1u << PT_EVENT | 1u << PT_UMASK |
			     1u << PT_CMASK | 1u << PT_EDGE | 1u << PT_INV |
			     1u << PT_ANY;
	size_t n = 0;
	int r = 0;

	memset(&t, 0, sizeof(t));
	for (;;) {
		const char *e = memchr(p, ',', (size_t)(end - p));
		size_t tl = e ? (size_t)(e - p) : (size_t)(end - p);
		r = perf_term(text, p, tl, &t, err, errlen);
		if (r < 0)
			return r;
		if (!e)
			break;
		p = e + 1;
	}
	for (unsigned i = 0; i < PT_COUNT; i++) {
		if (!(t.have & 1u << i))
			continue;
		if (t.name && (i == PT_EVENT || i == PT_UMASK ||
			       i == PT_CONFIG || i == PT_FRONTEND)) {
			lib_errf(err, errlen, "'%s': perf term '%s' cannot go "
				 "with the event name '%.*s' (it gives the "
				 "event itself)", text, perf_term_keys[i].key,
				 (int)t.nlen, t.name);
			return -PEBS_E_PARSE;
		}
		/*
		 * perf sets attr.config from config= before any field term
		 * and then ORs event=, umask=, ... into it whatever their
		 * order (tools/perf/util/pmu.c: hardcoded terms skipped in
		 * pmu_config_term(), pmu_format_value() with zero false for
		 * the cpu PMU): config=0x1cd,umask=0x2 is 0x3cd to perf, not
		 * 0x2cd.  Neither reading is safe to guess; both terms are
		 * named instead.
		 */
		if ((t.have & 1u << PT_CONFIG) && (sel & 1u << i)) {
			lib_errf(err, errlen, "'%s': perf term '%s' cannot go "
				 "with 'config=0x%llx', which gives all the "
				 "selection bits (perf would OR %s into it, in "
				 "either order); give config= alone or the "
				 "field terms alone", text,
				 perf_term_keys[i].key,
				 (unsigned long long)t.v[PT_CONFIG],
				 perf_term_keys[i].key);
			return -PEBS_E_PARSE;
		}
	}
	if (t.name) {
		if (t.nlen >= len)
			goto too_long;
		memcpy(out, t.name, t.nlen);
		n = t.nlen;
		out[n] = '\0';
	} else if (!(t.have & (1u << PT_EVENT | 1u << PT_CONFIG))) {
		lib_errf(err, errlen, "'%s': no event name, event= or config= "
			 "term between the slashes (%s)", text,
			 PERF_SPELLING_HELP);
		return -PEBS_E_PARSE;
	} else {
		uint64_t s = t.v[PT_CONFIG];
		if (!(t.have & 1u << PT_CONFIG))
			s = t.v[PT_EVENT] | t.v[PT_UMASK] << 8 |
			    t.v[PT_EDGE] * PEBS_EVTSEL_EDGE |
			    t.v[PT_ANY] * PEBS_EVTSEL_ANY |
			    t.v[PT_INV] * PEBS_EVTSEL_INV |
			    t.v[PT_CMASK] << 24;
		if (s & ~PEBS_EVTSEL_SELECT) {
			lib_errf(err, errlen, "'%s': perf term 'config=0x%llx':"
				 " bits 0x%llx are not event selection bits "
				 "(event 7:0, umask 15:8, edge 18, any 21, inv "
				 "23, cmask 31:24); USR/OS are the u and k "
				 "modifiers", text, (unsigned long long)s,
				 (unsigned long long)(s & ~PEBS_EVTSEL_SELECT));
			return -PEBS_E_PARSE;
		}
		if (!(t.have & 1u << PT_FRONTEND)) {
			/* edge, inv, any, cmask make another event: in the
			 * raw value, as perf's config has them */
			r = out_add(out, len, &n, "r%llx",
				    (unsigned long long)s);
		} else if ((s & 0xffff) == PEBS_FE_EVTSEL_RWC) {
			/* perf's JSON for Redwood Cove and later gives this;
			 * turning it into 0x01C6 would reprogram what was
			 * asked for, so it is named and refused */
			lib_errf(err, errlen, "'%s': event=0xc6,umask=0x3 is "
				 "FRONTEND_RETIRED on Redwood Cove and later "
				 "(Meteor Lake, Granite Rapids); on every uarch "
				 "pebs-capture has (skl to spr) it is "
				 "event=0xc6,umask=0x1", text);
			return -PEBS_E_PARSE;
		} else if ((s & 0xffff) != PEBS_FE_EVTSEL) {
			lib_errf(err, errlen, "'%s': perf term 'frontend' "
				 "goes with FRONTEND_RETIRED (event=0xc6,"
				 "umask=0x1) only; event 0x%02llx umask 0x%02llx "
				 "is not it", text,
				 (unsigned long long)(s & 0xff),
				 (unsigned long long)(s >> 8 & 0xff));
			return -PEBS_E_PARSE;
		} else {
			r = out_add(out, len, &n, "frontend:");
			if (r == 0)
				r = frontend_mods(text, t.v[PT_FRONTEND], out,
						  len, &n, err, errlen);
			if (r == -PEBS_E_PARSE)
				return r;
			/* the portable name has no raw value: config='s
			 * other fields become modifiers */
			if (t.have & 1u << PT_CONFIG) {
				t.v[PT_CMASK] = s >> 24 & 0xff;
				t.v[PT_EDGE] = !!(s & PEBS_EVTSEL_EDGE);
				t.v[PT_INV] = !!(s & PEBS_EVTSEL_INV);
				t.v[PT_ANY] = !!(s & PEBS_EVTSEL_ANY);
				t.have |= 1u << PT_CMASK | 1u << PT_EDGE |
					  1u << PT_INV | 1u << PT_ANY;
			}
		}
		if (r < 0)
			goto too_long;
		if (!(t.have & 1u << PT_FRONTEND))
			t.have &= ~sel;
	}
	/* the rest as modifiers */
	char sep = strchr(out, ':') ? ',' : ':';
	for (unsigned i = 0; i < PT_COUNT; i++) {
		if (!(t.have & 1u << i) || i == PT_EVENT || i == PT_UMASK ||
		    i == PT_CONFIG || i == PT_FRONTEND)
			continue;
		if (perf_term_keys[i].flag && !t.v[i])
			continue;	/* edge=0: not set */
		if (i == PT_CMASK && !t.v[i])
			continue;	/* cmask=0: the field's default */
		r = perf_term_keys[i].flag ?
		    out_add(out, len, &n, "%c%s", sep, perf_term_keys[i].key) :
		    out_add(out, len, &n, "%c%s=%llu", sep,
			    perf_term_keys[i].key, (unsigned long long)t.v[i]);
		if (r < 0)
			goto too_long;
		sep = ',';
	}
	return 0;
too_long:
	lib_errf(err, errlen, "event specification longer than %d bytes",
		 PEBS_EVSPEC_MAX - 1);
	return -PEBS_E_PARSE;
}

/*
 * perf's "cpu/mem-loads,ldlat=30/P" or "cpu/event=0xcd,umask=0x1,
 * ldlat=30/P" rewritten into our spelling ("mem-loads:ldlat=30",
 * "r1cd:ldlat=30") in @out (@len bytes): the PMU must be cpu (the only
 * one PEBS samples on), the terms are those perf_terms_ours() takes; the
 * modifiers p and P are dropped (PEBS is precise anyway), u and k kept.
 * 0 or -PEBS_E_PARSE.
 */
static int perf_spelling(const char *text, char *out, size_t len,
			 char *err, size_t errlen)
{
	const char *s1 = strchr(text, '/');
	const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
	if (!s2 || strchr(s2 + 1, '/')) {
		lib_errf(err, errlen, "'%s': not perf's spelling %s", text,
			 PERF_SPELLING_HELP);
		return -PEBS_E_PARSE;
	}
	if (s1 - text != 3 || strncmp(text, "cpu", 3) != 0) {
		lib_errf(err, errlen, "'%s': PMU '%.*s': PEBS events are on "
			 "perf's 'cpu' PMU (%s)", text, (int)(s1 - text), text,
			 PERF_SPELLING_HELP);
		return -PEBS_E_PARSE;
	}
	if (s2 == s1 + 1) {
		lib_errf(err, errlen, "'%s': no event name between the "
			 "slashes (%s)", text, PERF_SPELLING_HELP);
		return -PEBS_E_PARSE;
	}
	int r = perf_terms_ours(text, s1 + 1, s2, out, len, err, errlen);
	if (r < 0)
		return r;
	size_t n = strlen(out);
	char sep = strchr(out, ':') ? ',' : ':';
	int np = 0;
	for (const char *m = s2 + 1; *m; m++) {
		/* perf takes p up to three times (precise_ip 0 to 3) */
		if (*m == 'p' && ++np > 3) {
			lib_errf(err, errlen, "'%s': more than three p "
				 "modifiers (perf's precision is p, pp, ppp "
				 "or P)", text);
			return -PEBS_E_PARSE;
		}
		if (*m == 'p' || *m == 'P')
			continue;
		if (*m != 'u' && *m != 'k') {
			lib_errf(err, errlen, "'%s': perf modifier '%c' is not "
				 "supported (p and P are accepted: PEBS is "
				 "precise; u, k)", text, *m);
			return -PEBS_E_PARSE;
		}
		if (out_add(out, len, &n, "%c%c", sep, *m) < 0) {
			lib_errf(err, errlen, "event specification longer "
				 "than %d bytes", PEBS_EVSPEC_MAX - 1);
			return -PEBS_E_PARSE;
		}
		sep = ',';
	}
	return 0;
}

/*
 * The store event of @u that "precise-store" (@perf 0) or perf's
 * "mem-stores" (@perf 1) stands for.  precise-store is the precise store,
 * else the DataLA store event.  mem-stores is the kernel's alias of the
 * core (core.c): event=0xcd,umask=0x2 on snb/ivb (mem_st_snb, the precise
 * store) and on Golden Cove (mem_st_spr in glc_events_attrs, the store
 * latency event), 0x82d0 on hsw to icl (mem_st_hsw, the DataLA store
 * event): the store-latency event first where the profile has one.
 */
static const struct pebs_uarch_event *store_event(const struct pebs_uarch *u,
						  int perf)
{
	const struct pebs_uarch_event *t = NULL;
	if (perf)
		t = pebs_uarch_event_by_kind(u, PEBS_EVK_STORE_LATENCY);
	if (!t)
		t = pebs_uarch_event_by_kind(u, PEBS_EVK_PRECISE_STORE);
	if (!t)
		t = pebs_uarch_event_by_kind(u, PEBS_EVK_DATALA_STORE);
	return t;
}

enum pebs_evspec_type pebs_event_stands_for(const char *name)
{
	/* perf's "cpu/event=0xcd,umask=0x1,ldlat=30/P": what our spelling
	 * of it ("r1cd:ldlat=30") stands for, whatever the PMU (cpu_core on
	 * hybrids) and the modifiers */
	const char *p = name;
	const char *slash = strchr(name, '/');
	const char *s2 = slash ? strchr(slash + 1, '/') : NULL;
	if (s2 && s2 > slash + 1) {
		char ours[PEBS_EVSPEC_MAX];
		if (perf_terms_ours(name, slash + 1, s2, ours, sizeof(ours),
				    NULL, 0) == 0)
			return pebs_event_stands_for(ours);
	}
	/* other perf spellings ("cpu/mem-loads,foo=1/"): the event is the
	 * first term; otherwise what precedes modifiers ("mem-loads:P",
	 * "r1cd:ldlat=3") */
	if (slash)
		p = slash + 1;
	size_t len = strcspn(p, slash ? ",/" : ":");
	enum pebs_evspec_type t = portable_type(p, len);
	if (t != PEBS_SPEC_NAME || len == 0 || len >= PEBS_EVNAME_MAX)
		return t == PEBS_SPEC_FRONTEND ? PEBS_SPEC_NAME : t;
	char n[PEBS_EVNAME_MAX];
	memcpy(n, p, len);
	n[len] = '\0';
	uint64_t raw = 0;
	int israw = is_raw_name(n);
	if (israw) {
		/* edge, inv, cmask...: another event than the table's */
		if (raw_value(n, len, &raw) < 0 || raw > 0xffff)
			return PEBS_SPEC_NAME;
	}
	/* the events the portable names map to on some profile, by name or
	 * by code: what a capture or a perf import records */
	for (unsigned i = 0; i < pebs_uarch_count(); i++) {
		const struct pebs_uarch *u = pebs_uarch_get(i);
		/* the store events of precise-store and of mem-stores
		 * (store latency on spr, store_event()) */
		const struct pebs_uarch_event *ev[3] = {
			pebs_uarch_event_by_kind(u, PEBS_EVK_LOAD_LATENCY),
			store_event(u, 0),
			store_event(u, 1),
		};
		for (int k = 0; k < 3; k++) {
			if (!ev[k])
				continue;
			if (israw ? raw == ((uint64_t)ev[k]->umask << 8 |
					    ev[k]->event) :
			    lib_strcasecmp(ev[k]->name, n) == 0)
				return k ? PEBS_SPEC_PRECISE_STORE :
				       PEBS_SPEC_LOAD_LATENCY;
		}
	}
	return PEBS_SPEC_NAME;
}

int pebs_event_parse(const char *text, struct pebs_event_spec *o, char *err,
		     size_t errlen)
{
	/* perf's spelling: a slash before any modifier colon */
	const char *slash = text ? strchr(text, '/') : NULL;
	const char *colon1 = text ? strchr(text, ':') : NULL;
	if (slash && (!colon1 || slash < colon1) &&
	    strnlen(text, PEBS_EVSPEC_MAX) < PEBS_EVSPEC_MAX) {
		char ours[PEBS_EVSPEC_MAX];
		int r = perf_spelling(text, ours, sizeof(ours), err, errlen);
		if (r == 0)
			r = pebs_event_parse(ours, o, err, errlen);
		if (r < 0) {
			memset(o, 0, sizeof(*o));
			return r;
		}
		/* messages and metadata show what the user wrote */
		snprintf(o->text, sizeof(o->text), "%s", text);
		return 0;
	}

	memset(o, 0, sizeof(*o));
	if (!text || !*text) {
		lib_errf(err, errlen, "empty event specification");
		return -PEBS_E_PARSE;
	}
	size_t tlen = strnlen(text, PEBS_EVSPEC_MAX);
	if (tlen >= PEBS_EVSPEC_MAX) {
		lib_errf(err, errlen, "event specification longer than %d "
		       "bytes", PEBS_EVSPEC_MAX - 1);
		return -PEBS_E_PARSE;
	}
	memcpy(o->text, text, tlen + 1);
	const char *colon = strchr(text, ':');
	size_t nlen = colon ? (size_t)(colon - text) : tlen;
	if (nlen == 0) {
		lib_errf(err, errlen, "'%s': no event name before ':'", o->text);
		return -PEBS_E_PARSE;
	}
	if (nlen >= PEBS_EVNAME_MAX) {
		lib_errf(err, errlen, "event name longer than %d bytes",
		       PEBS_EVNAME_MAX - 1);
		return -PEBS_E_PARSE;
	}
	for (size_t i = 0; i < nlen; i++) {
		unsigned char c = (unsigned char)text[i];
		/* '.' separates an SDM event from its umask; '-' is in the
		 * portable names.  Anything else would reach libpfm4's own
		 * syntax (':', '=') or is not a name at all. */
		if (!lib_isalnum(c) && c != '_' && c != '.' && c != '-') {
			if (lib_isprint(c))
				lib_errf(err, errlen, "'%s': character '%c' is "
				       "not allowed in an event name",
				       o->text, c);
			else
				lib_errf(err, errlen, "'%s': byte 0x%02x is not "
				       "allowed in an event name",
				       o->text, c);
			return -PEBS_E_PARSE;
		}
	}
	memcpy(o->name, text, nlen);
	o->name[nlen] = '\0';

	o->type = portable_type(o->name, nlen);
	if (o->type != PEBS_SPEC_NAME) {
		/* the type says it all */
	} else if (is_raw_name(o->name)) {
		o->type = PEBS_SPEC_RAW;
		if (raw_value(o->name, nlen, &o->raw) < 0) {
			lib_errf(err, errlen, "'%s': bad raw value", o->name);
			return -PEBS_E_PARSE;
		}
	} else {
		o->type = PEBS_SPEC_NAME;
		if (o->name[0] == '.' || o->name[0] == '-' ||
		    o->name[nlen - 1] == '.' || strstr(o->name, "..")) {
			lib_errf(err, errlen, "'%s': malformed event name",
			       o->name);
			return -PEBS_E_PARSE;
		}
	}

	if (colon) {
		const char *p = colon + 1;
		if (!*p) {
			lib_errf(err, errlen, "'%s': no modifier after ':'",
			       o->text);
			return -PEBS_E_PARSE;
		}
		for (;;) {
			const char *c = strchr(p, ',');
			size_t len = c ? (size_t)(c - p) : strlen(p);
			char m[192] = "";
			/* "sub=idq_bubbles, latency=2" as the contract's
			 * wrapped example reads: blanks around a modifier
			 * are not part of it. */
			while (len && (*p == ' ' || *p == '\t')) {
				p++;
				len--;
			}
			while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
				len--;
			int r = parse_mod(o, p, len, m, sizeof(m));
			if (r < 0) {
				lib_errf(err, errlen, "'%s': %s", o->text, m);
				return r;
			}
			if (!c)
				break;
			p = c + 1;
		}
	}

	/* Modifiers that can only mean something for one type. */
	unsigned fe = PEBS_MOD_SUB | PEBS_MOD_LATENCY | PEBS_MOD_WIDTH;
	if (o->type != PEBS_SPEC_FRONTEND && (o->mods & fe)) {
		lib_errf(err, errlen, "'%s': sub=, latency= and width= apply "
		       "only to the 'frontend' event", o->text);
		return -PEBS_E_PARSE;
	}
	if (o->type == PEBS_SPEC_FRONTEND) {
		if (!(o->mods & PEBS_MOD_SUB)) {
			lib_errf(err, errlen, "'%s': frontend needs sub=NAME "
			       "(" FE_SUB_NAMES ")", o->text);
			return -PEBS_E_PARSE;
		}
		int bub = o->sub == PEBS_FE_IDQ_BUBBLES;
		if (bub && (o->mods & (PEBS_MOD_LATENCY | PEBS_MOD_WIDTH)) !=
		    (PEBS_MOD_LATENCY | PEBS_MOD_WIDTH)) {
			lib_errf(err, errlen, "'%s': sub=idq_bubbles needs "
			       "latency=N and width=N", o->text);
			return -PEBS_E_PARSE;
		}
		if (!bub && (o->mods & (PEBS_MOD_LATENCY | PEBS_MOD_WIDTH))) {
			lib_errf(err, errlen, "'%s': latency= and width= apply "
			       "only to sub=idq_bubbles", o->text);
			return -PEBS_E_PARSE;
		}
	}
	if ((o->type == PEBS_SPEC_PRECISE_STORE ||
	     o->type == PEBS_SPEC_FRONTEND) && (o->mods & PEBS_MOD_LDLAT)) {
		lib_errf(err, errlen, "'%s': ldlat= applies only to a "
		       "load-latency event", o->text);
		return -PEBS_E_PARSE;
	}
	return 0;
}

/* ------------------------------------------------------------ libpfm4 */

/* libpfm4 4.13 PMU names of the profiles; glp has no table there. */
static const struct {
	const char *uarch, *pmu;
} pfm_pmus[] = {
	{ "core2", "core" }, { "nhm", "nhm" }, { "wsm", "wsm" },
	{ "snb", "snb" }, { "ivb", "ivb" }, { "hsw", "hsw" },
	{ "bdw", "bdw" }, { "skl", "skl" }, { "skx", "skx" },
	{ "glm", "glm" }, { "icl", "icl" }, { "icx", "icx" },
	{ "spr", "spr" },
};

const char *pebs_event_pfm_pmu(const struct pebs_uarch *u)
{
	for (size_t i = 0; i < sizeof(pfm_pmus) / sizeof(pfm_pmus[0]); i++)
		if (u && lib_strcasecmp(u->name, pfm_pmus[i].uarch) == 0)
			return pfm_pmus[i].pmu;
	return NULL;
}

/*
 * libpfm4 is loaded when an event name needs it, not linked: its event
 * tables take 41,000 relocations, which cost every program linked with it
 * about 5 ms and 290 page faults at start on the VMs measured
 * (bench/RESULTS.md, seventh session), while only names outside the
 * profiles' own tables use it.
 */
static struct {
	__typeof__(pfm_initialize) *initialize;
	__typeof__(pfm_strerror) *strerror;
	__typeof__(pfm_get_event_info) *get_event_info;
	__typeof__(pfm_get_event_attr_info) *get_event_attr_info;
	__typeof__(pfm_get_os_event_encoding) *get_os_event_encoding;
} pfm;

#define PFM_SONAME "libpfm.so.4"

/* What an unknown name could have been (the names that need no table). */
#define PORTABLE_HELP "portable names: load-latency, precise-store, " \
	"frontend:sub=NAME (perf's mem-loads, mem-stores, " \
	"cpu/mem-loads,ldlat=N/P), rHEX"

/* pfm.f from libpfm4's pfm_f: non-NULL when found. */
#define PFM_SYM(h, f) (pfm.f = (__typeof__(pfm.f))dlsym(h, "pfm_" #f))

static int pfm_load(char *err, size_t errlen)
{
	void *h = dlopen(PFM_SONAME, RTLD_NOW | RTLD_LOCAL);
	const char *why = NULL;
	if (!h) {
		why = dlerror();
	} else if (!PFM_SYM(h, initialize) || !PFM_SYM(h, strerror) ||
		   !PFM_SYM(h, get_event_info) ||
		   !PFM_SYM(h, get_event_attr_info) ||
		   !PFM_SYM(h, get_os_event_encoding)) {
		why = dlerror();
		dlclose(h);
	}
	if (why) {
		pfm.initialize = NULL;
		lib_errf(err, errlen, "libpfm4 is needed for this event name "
			 "and cannot be loaded (%s); " PORTABLE_HELP, why);
		return -PEBS_E_UNSUPPORTED;
	}
	return 0;
}

static int pfm_ready;

/*
 * libpfm4 reads its configuration once per process, so the first profile
 * looked up decides LIBPFM_FORCE_PMU; ENCODE_INACTIVE plus an explicit
 * "pmu::" prefix on every name make later lookups for other profiles
 * exact as well (and keep the host's own PMU out of it).
 */
static int pfm_init(const char *pmu, char *err, size_t errlen)
{
	if (pfm_ready)
		return 0;
	int r = pfm_load(err, errlen);
	if (r < 0)
		return r;
	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	r = pfm.initialize();
	if (r != PFM_SUCCESS) {
		lib_errf(err, errlen, "libpfm4: %s", pfm.strerror(r));
		return -PEBS_E_UNSUPPORTED;
	}
	pfm_ready = 1;
	return 0;
}

/* Is every umask chosen in @fstr ("pmu::EV:UM1:UM2:k=0:...") precise? */
static int pfm_precise(int idx, const char *fstr)
{
	pfm_event_info_t ei;
	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (pfm.get_event_info(idx, PFM_OS_NONE, &ei) != PFM_SUCCESS)
		return 0;
	const char *p = strstr(fstr, "::");
	p = p ? p + 2 : fstr;
	p = strchr(p, ':');	/* skip the event name */
	int any = 0;
	while (p) {
		p++;
		const char *e = strchr(p, ':');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (!memchr(p, '=', len)) {
			int found = 0;
			for (int a = 0; a < ei.nattrs; a++) {
				pfm_event_attr_info_t ai;
				memset(&ai, 0, sizeof(ai));
				ai.size = sizeof(ai);
				if (pfm.get_event_attr_info(idx, a, PFM_OS_NONE,
							    &ai) != PFM_SUCCESS)
					continue;
				if (ai.type == PFM_ATTR_UMASK &&
				    strlen(ai.name) == len &&
				    strncmp(ai.name, p, len) == 0) {
					found = 1;
					if (!ai.is_precise)
						return 0;
				}
			}
			if (!found)
				return 0;
			any = 1;
		}
		p = e;
	}
	return any ? 1 : ei.is_precise;
}

/* Display name "EVENT.UMASK" from libpfm4's fstr. */
static void pfm_display(const char *fstr, char *out, size_t len)
{
	const char *p = strstr(fstr, "::");
	p = p ? p + 2 : fstr;
	size_t n = 0;
	int first = 1;
	while (*p && n + 1 < len) {
		const char *e = strchr(p, ':');
		size_t tl = e ? (size_t)(e - p) : strlen(p);
		if (!memchr(p, '=', tl)) {
			if (!first && n + 1 < len)
				out[n++] = '.';
			for (size_t i = 0; i < tl && n + 1 < len; i++)
				out[n++] = p[i];
			first = 0;
		}
		if (!e)
			break;
		p = e + 1;
	}
	out[n] = '\0';
}

static int pfm_lookup(const struct pebs_uarch *u, const char *name,
		      struct pebs_event *o, char *err, size_t errlen)
{
	const char *pmu = pebs_event_pfm_pmu(u);
	if (!pmu) {
		lib_errf(err, errlen, "unknown event '%s' on %s (not in the "
		       "profile's table, and libpfm4 has no %s table); "
		       PORTABLE_HELP, name, u->name, u->name);
		return -PEBS_E_INVAL;
	}
	int r = pfm_init(pmu, err, errlen);
	if (r < 0)
		return r;
	char q[PEBS_EVNAME_MAX + 16];
	snprintf(q, sizeof(q), "%s::%s", pmu, name);
	for (char *c = q + strlen(pmu) + 2; *c; c++)
		if (*c == '.')
			*c = ':';
	pfm_pmu_encode_arg_t a;
	char *fstr = NULL;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.fstr = &fstr;
	r = pfm.get_os_event_encoding(q, PFM_PLM3, PFM_OS_NONE, &a);
	if (r != PFM_SUCCESS) {
		lib_errf(err, errlen, "unknown event '%s' on %s (libpfm4: "
		       "%s); " PORTABLE_HELP, name, u->name, pfm.strerror(r));
		free(a.codes);
		free(fstr);
		return -PEBS_E_INVAL;
	}
	uint64_t code = a.count > 0 ? a.codes[0] : 0;
	o->select = code & PEBS_EVTSEL_SELECT;
	o->src = PEBS_EVSRC_LIBPFM;
	o->counters = u->pebs_counters;
	pfm_display(fstr ? fstr : name, o->name, sizeof(o->name));
	o->precise = fstr ? pfm_precise(a.idx, fstr) : 0;
	int extra = a.count > 1;
	free(a.codes);
	free(fstr);
	const struct pebs_uarch_event *t = pebs_uarch_event_by_code(u,
		(unsigned)(o->select & 0xff),
		(unsigned)(o->select >> 8 & 0xff));
	/* libpfm4 adds a second code for an extra MSR (offcore response,
	 * load latency); only the load-latency one is ours to program. */
	if (extra && !(t && t->kind == PEBS_EVK_LOAD_LATENCY)) {
		lib_errf(err, errlen, "event '%s' needs an extra MSR that "
		       "PEBS plans do not program", name);
		return -PEBS_E_INVAL;
	}
	if (t && (o->select & ~(PEBS_EVTSEL_EVENT | PEBS_EVTSEL_UMASK)) == 0) {
		o->kind = (enum pebs_uarch_kind)t->kind;
		o->counters = t->counters;
		o->precise = t->precise;
	}
	return 0;
}

/* ------------------------------------------------------------ resolve */

static uint64_t gp_mask(const struct pebs_uarch *u)
{
	return u->n_gp >= 32 ? 0xffffffffull : ((1ull << u->n_gp) - 1);
}

static void from_table(const struct pebs_uarch *u,
		       const struct pebs_uarch_event *t, struct pebs_event *o)
{
	snprintf(o->name, sizeof(o->name), "%s", t->name);
	o->src = PEBS_EVSRC_BUILTIN;
	o->select = (uint64_t)t->event | (uint64_t)t->umask << 8;
	o->kind = (enum pebs_uarch_kind)t->kind;
	o->precise = t->precise;
	o->counters = t->counters;
	(void)u;
}

int pebs_event_resolve(const struct pebs_uarch *u,
		       const struct pebs_event_spec *s, struct pebs_event *o,
		       enum pebs_rule *rule, char *err, size_t errlen)
{
	enum pebs_rule dummy;
	const struct pebs_uarch_event *t = NULL;
	if (!rule)
		rule = &dummy;
	*rule = PEBS_RULE_NONE;
	memset(o, 0, sizeof(*o));
	o->spec = *s;
	if (!u) {
		lib_errf(err, errlen, "no microarchitecture profile");
		return -PEBS_E_INVAL;
	}

	switch (s->type) {
	case PEBS_SPEC_LOAD_LATENCY:
		t = pebs_uarch_event_by_kind(u, PEBS_EVK_LOAD_LATENCY);
		if (!t || !(u->features & PEBS_UF_LDLAT)) {
			*rule = PEBS_RULE_LDLAT_SUPPORT;
			if (u->pebs_fmt >= PEBS_FMT_NHM)
				/* Goldmont (and GLP, assumed alike): the
				 * record is there, its fields are not. */
				lib_errf(err, errlen, "rule ldlat-support: %s "
				       "has no load-latency facility: its "
				       "PEBS record (format %u) has the "
				       "data-source and latency fields, but "
				       "Goldmont keeps them reserved (SDM "
				       "18.7.1.1)", u->name, u->pebs_fmt);
			else
				lib_errf(err, errlen, "rule ldlat-support: %s "
				       "has no load-latency facility (it "
				       "needs the enhanced PEBS record of "
				       "Nehalem and later cores)", u->name);
			return -PEBS_E_RULE;
		}
		from_table(u, t, o);
		break;
	case PEBS_SPEC_PRECISE_STORE:
		t = store_event(u, lib_strcasecmp(s->name, "mem-stores") == 0);
		if (!t) {
			*rule = PEBS_RULE_PSTORE_SUPPORT;
			lib_errf(err, errlen, "rule pstore-support: %s has no "
			       "precise-store or DataLA store event (store "
			       "addresses are sampled from Sandy Bridge on)",
			       u->name);
			return -PEBS_E_RULE;
		}
		from_table(u, t, o);
		break;
	case PEBS_SPEC_FRONTEND:
		t = pebs_uarch_event_by_kind(u, PEBS_EVK_FRONTEND);
		if (!t || !(u->features & PEBS_UF_FRONTEND)) {
			*rule = PEBS_RULE_FRONTEND_SUPPORT;
			lib_errf(err, errlen, "rule frontend-support: %s has no "
			       "MSR_PEBS_FRONTEND (PEBS front-end events "
			       "start with Skylake)", u->name);
			return -PEBS_E_RULE;
		}
		/* A sub-event of a later core: MS_FLOWS (0x8, bit 3) is
		 * in the kernel's MSR mask on spr alone. */
		if (s->sub & ~pebs_plan_fe_valid_mask(u)) {
			*rule = PEBS_RULE_FRONTEND_MSR;
			lib_errf(err, errlen, "rule frontend-msr: '%s': "
			       "sub=%s (MSR_PEBS_FRONTEND 0x%02x) exists on "
			       "spr only, not on %s (MSR_PEBS_FRONTEND bits "
			       "0x%llx)", s->text,
			       pebs_event_fe_sub_name(s->sub), s->sub,
			       u->name, (unsigned long long)
			       pebs_plan_fe_valid_mask(u));
			return -PEBS_E_RULE;
		}
		from_table(u, t, o);
		break;
	case PEBS_SPEC_RAW:
		if (s->raw & ~PEBS_EVTSEL_SELECT) {
			lib_errf(err, errlen, "'%s': bits 0x%llx are not event "
			       "selection bits (event 7:0, umask 15:8, edge "
			       "18, any 21, inv 23, cmask 31:24); USR/OS/INT/"
			       "EN are set by the plan (use :u or :k)",
			       s->name, (unsigned long long)
			       (s->raw & ~PEBS_EVTSEL_SELECT));
			return -PEBS_E_INVAL;
		}
		o->src = PEBS_EVSRC_RAW;
		o->select = s->raw;
		o->precise = -1;
		o->counters = u->pebs_counters;
		snprintf(o->name, sizeof(o->name), "r%llx",
			 (unsigned long long)s->raw);
		t = pebs_uarch_event_by_code(u, (unsigned)(s->raw & 0xff),
					     (unsigned)(s->raw >> 8 & 0xff));
		/* Redwood Cove's FRONTEND_RETIRED encoding (perf's later
		 * event lists) on a profile whose own is 0x01C6: an
		 * undocumented umask here, and without MSR_PEBS_FRONTEND
		 * anyway */
		if (!t && (s->raw & 0xffff) == PEBS_FE_EVTSEL_RWC &&
		    (u->features & PEBS_UF_FRONTEND)) {
			lib_errf(err, errlen, "'%s': 0x03C6 is FRONTEND_RETIRED "
			       "on Redwood Cove and later; on %s it is 0x01C6 "
			       "and needs MSR_PEBS_FRONTEND: use "
			       "frontend:sub=NAME", s->text, u->name);
			return -PEBS_E_INVAL;
		}
		if (t) {
			/* Known code: the SDM name, unless edge/inv/any/
			 * cmask make it a different event. */
			if (!(s->raw & ~(PEBS_EVTSEL_EVENT |
					 PEBS_EVTSEL_UMASK)))
				snprintf(o->name, sizeof(o->name), "%s",
					 t->name);
			o->kind = (enum pebs_uarch_kind)t->kind;
			o->precise = t->precise;
			o->counters = t->counters;
		}
		break;
	case PEBS_SPEC_NAME:
		t = pebs_uarch_event_by_name(u, s->name);
		if (t) {
			from_table(u, t, o);
		} else {
			int r = pfm_lookup(u, s->name, o, err, errlen);
			if (r < 0)
				return r;
		}
		break;
	}

	/* Whole-event constraints cover umasks the table does not list
	 * (raw and libpfm4 events too). */
	o->counters &= pebs_uarch_event_code_counters(u,
					(unsigned)(o->select & 0xff),
					(unsigned)(o->select >> 8 & 0xff));
	if ((o->counters & gp_mask(u) & u->pebs_counters) == 0) {
		if (o->counters & PEBS_UARCH_FIXED_MASK) {
			unsigned j = 0;
			while (!(o->counters >> (32 + j) & 1))
				j++;
			*rule = PEBS_RULE_PEBS_COUNTER;
			lib_errf(err, errlen, "rule pebs-counter: %s samples "
			       "only on fixed counter %u on %s; PEBS plans use "
			       "general-purpose counters only", o->name, j,
			       u->name);
			return -PEBS_E_RULE;
		}
		/* A table entry with no counter at all: nothing to use. */
		*rule = PEBS_RULE_PEBS_COUNTER;
		lib_errf(err, errlen, "rule pebs-counter: %s has no PEBS "
		       "counter on %s", o->name, u->name);
		return -PEBS_E_RULE;
	}
	o->counters &= gp_mask(u) & u->pebs_counters;
	/*
	 * Event code 0x00 is no event of a general-purpose counter: the
	 * kernel's pseudo-encodings 0x0100, 0x0300 and 0x0400 name fixed
	 * counters.  libpfm4 4.13 also gives it for Goldmont's
	 * CPU_CLK_UNHALTED.CORE_P (SDM: 0x3C), which would count nothing.
	 */
	if ((o->select & 0xff) == 0) {
		lib_errf(err, errlen, "'%s': %s has event code 0x00 (umask "
		       "0x%02x)%s, which no general-purpose counter counts "
		       "(0x00 encodings name fixed counters); give the SDM's "
		       "event code as rHEX", s->text, o->name,
		       (unsigned)(o->select >> 8 & 0xff),
		       o->src == PEBS_EVSRC_LIBPFM ? " from libpfm4" : "");
		return -PEBS_E_INVAL;
	}

	/* Which rule narrows the counters (for messages). */
	o->counter_rule = PEBS_RULE_PEBS_COUNTER;
	if (o->kind == PEBS_EVK_PRECISE_STORE &&
	    (u->features & PEBS_UF_PSTORE))
		o->counter_rule = PEBS_RULE_PSTORE_PMC3;
	else if (lib_strcasecmp(u->name, "glm") == 0)
		o->counter_rule = PEBS_RULE_GLM_PMC0;

	if ((s->mods & PEBS_MOD_LDLAT) && o->kind != PEBS_EVK_LOAD_LATENCY) {
		lib_errf(err, errlen, "'%s': ldlat= applies only to a "
		       "load-latency event, and %s is not one on %s", s->text,
		       o->name, u->name);
		return -PEBS_E_INVAL;
	}
	if (o->kind == PEBS_EVK_FRONTEND && s->type != PEBS_SPEC_FRONTEND) {
		/* MSR_PEBS_FRONTEND is chosen with sub=: only the portable
		 * spelling carries it. */
		lib_errf(err, errlen, "'%s': %s needs MSR_PEBS_FRONTEND; use "
		       "frontend:sub=NAME", s->text, o->name);
		return -PEBS_E_INVAL;
	}

	if (s->mods & PEBS_MOD_EDGE)
		o->select |= PEBS_EVTSEL_EDGE;
	if (s->mods & PEBS_MOD_INV)
		o->select |= PEBS_EVTSEL_INV;
	if (s->mods & PEBS_MOD_ANY)
		o->select |= PEBS_EVTSEL_ANY;
	if (s->mods & PEBS_MOD_CMASK)
		o->select = (o->select & ~PEBS_EVTSEL_CMASK) |
			    (uint64_t)s->cmask << 24;
	return 0;
}
