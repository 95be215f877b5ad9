/*
 * backend_perf.c - capture through perf_event_open(2): the kernel
 * programs the PMU and drains the DS area (Linux ds.c) and hands us
 * samples in a ring buffer.  One event per plan event and CPU, raw
 * config = the plan's PERFEVTSEL event selection, config1 = the load
 * latency threshold (format "ldlat") or MSR_PEBS_FRONTEND (format
 * "frontend"), precise_ip 2 (falling back to 1 where the kernel
 * refuses 2: EOPNOTSUPP above the PMU's maximum, EINVAL), sample_type
 * IP|TID|TIME|ADDR|CPU|WEIGHT|DATA_SRC, a 64 KiB ring per event.  A
 * plan's auxiliary event (SPR load latency, pebs_plan_aux) is opened
 * first on each CPU, counting, as the leader of a group whose member is
 * the load-latency event (bk_perf_opens).  Events are opened with
 * use_clockid CLOCK_MONOTONIC: sample times are in the clock of
 * pebs_backend_now(), as the capture's lost records and -d are.  With
 * a pid (a -- COMMAND) the events are opened per CPU on that process,
 * inherited by the threads and children it creates and enabled by the
 * kernel at its exec (enable_on_exec), as perf record does: the caller
 * holds it before its exec until pebs_backend_program() returns.
 * Without a PMU (virtual machines) perf_event_open fails: the message
 * says so.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "backend_int.h"

#define RING_PAGES	16	/* data pages, a power of two */
#define SAMPLE_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_WEIGHT | \
			 PERF_SAMPLE_DATA_SRC)

struct pf_ev {
	int fd;
	void *ring;
	size_t ringlen;
	size_t cpu_i;		/* CPU index */
	const char *name;	/* plan event name */
	int wlat;		/* its WEIGHT is a latency (bk_perf_wlat) */
	struct bk_perf_tally tally;
};

struct bk_perf {
	int pid;
	struct pf_ev *ev;
	size_t nev;
};

/* The u64 at byte @off of record @rec (@size bytes), or 0 when short. */
static uint64_t rec_u64(const uint8_t *rec, size_t size, size_t off)
{
	uint64_t v = 0;
	if (off + 8 <= size)
		memcpy(&v, rec + off, 8);
	return v;
}

int bk_perf_wlat(enum pebs_uarch_kind k)
{
	return k == PEBS_EVK_LOAD_LATENCY || k == PEBS_EVK_STORE_LATENCY;
}

size_t bk_perf_parse(const uint8_t *data, size_t size, uint64_t *tail,
		     uint64_t head, struct pebs_batch *out, int ev, int wlat,
		     struct bk_perf_tally *t)
{
	size_t n = 0;

	while (*tail + sizeof(struct perf_event_header) <= head) {
		uint8_t rec[512];
		struct perf_event_header h;
		size_t off = (size_t)(*tail % size), len;
		for (size_t i = 0; i < sizeof(h); i++)
			((uint8_t *)&h)[i] = data[(off + i) % size];
		if (h.size < sizeof(h) || *tail + h.size > head)
			break;	/* damaged or not yet complete */
		if (h.type == PERF_RECORD_SAMPLE && out->n >= out->cap)
			break;	/* caller flushes first */
		/* Longer records are of no type read here: skipped. */
		len = h.size <= sizeof(rec) ? h.size : 0;
		for (size_t i = 0; i < len; i++)
			rec[i] = data[(off + i) % size];
		if (h.type == PERF_RECORD_SAMPLE && len >= 8 + 56) {
			struct pebs_sample s;
			uint64_t v[7];
			memcpy(v, rec + 8, sizeof(v));
			memset(&s, 0, sizeof(s));
			s.ip = v[0];
			s.pid = (uint32_t)v[1];
			s.tid = (uint32_t)(v[1] >> 32);
			s.time = v[2];
			s.addr = v[3];
			s.cpu = (uint32_t)v[4];
			/* The kernel's WEIGHT is the record's latency only
			 * for latency events; of the others (PEBS format 2
			 * on) it is intel_get_tsx_weight(): the cycles of
			 * the last transactional block, bits 31:0 of the
			 * TSX tuning field, which the tsx column holds. */
			if (wlat)
				s.lat = (uint32_t)v[5];
			else
				s.tsx = v[5] & 0xffffffffu;
			s.dsrc = v[6];
			s.event = (uint32_t)ev;
			/* The kernel's word that ip is the instruction
			 * that caused the event, as pebs-import -f perf
			 * reads it (perfdata.c exact_flag). */
			if (h.misc & PERF_RECORD_MISC_EXACT_IP)
				s.flags |= PEBS_SF_EVENTING_IP;
			if (pebs_batch_push(out, &s) == 0)
				n++;
		} else if (h.type == PERF_RECORD_LOST) {
			/* { id, lost }: the ring was full. */
			t->lost += rec_u64(rec, len, 16);
		} else if (h.type == PERF_RECORD_LOST_SAMPLES) {
			/* { lost }: PEBS records the kernel dropped
			 * (perf_log_lost_samples: collisions, records it
			 * could not attribute). */
			t->lost += rec_u64(rec, len, 8);
		} else if (h.type == PERF_RECORD_THROTTLE && len >= 16) {
			/* { time, id, stream_id }: the kernel stopped
			 * sampling this event until its next tick
			 * (perf_event_max_sample_rate); a second one before
			 * the UNTHROTTLE keeps the first time. */
			t->throttles++;
			if (!t->throttled)
				t->throttled_at = rec_u64(rec, len, 8);
			t->throttled = 1;
		} else if (h.type == PERF_RECORD_UNTHROTTLE && len >= 16) {
			uint64_t at = rec_u64(rec, len, 8);
			if (t->throttled && at > t->throttled_at)
				t->throttled_ns += at - t->throttled_at;
			t->throttled = 0;
		}
		*tail += h.size;
	}
	return n;
}

long (*bk_perf_syscall)(struct perf_event_attr *a, int pid, int cpu,
			int group_fd, unsigned long flags);

static long pf_open(struct perf_event_attr *a, int pid, int cpu,
		    int group_fd)
{
	if (bk_perf_syscall)
		return bk_perf_syscall(a, pid, cpu, group_fd,
				       PERF_FLAG_FD_CLOEXEC);
	return syscall(SYS_perf_event_open, a, pid, cpu, group_fd,
		       PERF_FLAG_FD_CLOEXEC);
}

/* A disabled raw event @select with @evtsel's privilege levels. */
static void raw_attr(struct perf_event_attr *a, uint64_t select,
		     uint64_t evtsel)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_RAW;
	a->config = select;
	a->disabled = 1;
	a->exclude_kernel = !(evtsel & PEBS_EVTSEL_OS);
	a->exclude_user = !(evtsel & PEBS_EVTSEL_USR);
	a->exclude_hv = 1;
}

size_t bk_perf_opens(const struct pebs_plan *p, struct bk_perf_open *o,
		     size_t max)
{
	size_t n = 0;
	int aux = -1;	/* the open of the auxiliary event, once opened */

	for (size_t e = 0; e < pebs_plan_nevents(p); e++) {
		const struct pebs_plan_event *pe = pebs_plan_event(p, e);
		int leader = -1;
		for (size_t a = 0; a < pebs_plan_naux(p); a++) {
			const struct pebs_plan_aux *ax = pebs_plan_aux(p, a);
			if (ax->event != e)
				continue;
			if (n == max)
				return 0;
			/* A counting leader: only that it runs matters
			 * (Linux intel_pmu_hw_config looks for it in front
			 * of the load-latency event). */
			raw_attr(&o[n].attr, ax->select, ax->evtsel);
			o[n].leader = -1;
			o[n].plan_ev = -1;
			aux = (int)n++;
			leader = aux;
		}
		/*
		 * The auxiliary event serves the plan's first load-latency
		 * event, and is opened in front of it; the kernel refuses
		 * every load-latency event that is not in a group with it
		 * (ENODATA), so a later one joins the same group.
		 */
		if (leader < 0 && aux >= 0 &&
		    pe->ev.kind == PEBS_EVK_LOAD_LATENCY)
			leader = aux;
		if (n == max)
			return 0;
		struct perf_event_attr *a = &o[n].attr;
		raw_attr(a, pe->ev.select, pe->evtsel);
		if (pe->ev.kind == PEBS_EVK_LOAD_LATENCY)
			a->config1 = pe->ldlat;
		else if (pe->ev.kind == PEBS_EVK_FRONTEND)
			a->config1 = pe->frontend;
		a->sample_period = pe->period;
		a->sample_type = SAMPLE_TYPE;
		a->precise_ip = 2;
		/* Sample times on the clock of pebs_backend_now() (lost
		 * records, -d), not perf's own local_clock. */
		a->use_clockid = 1;
		a->clockid = CLOCK_MONOTONIC;
		o[n].leader = leader;
		o[n].plan_ev = (int)e;
		n++;
	}
	return n;
}

static int p_program(struct pebs_backend *b, const struct pebs_plan *p)
{
	struct bk_perf *pp = b->priv;
	size_t no, k = 0;
	long page = sysconf(_SC_PAGESIZE);
	struct bk_perf_open *op;
	/* Lowered to 1 once the kernel refused 2: the PMU's maximum is the
	 * same for every later open. */
	unsigned precise = 2;
	int pid = pp->pid > 0 ? pp->pid : -1;

	no = pebs_plan_nevents(p) + pebs_plan_naux(p);
	op = calloc(no, sizeof(*op));
	pp->ev = calloc(no * b->ncpus, sizeof(*pp->ev));
	if (!op || !pp->ev) {
		free(op);
		return -PEBS_E_NOMEM;
	}
	no = bk_perf_opens(p, op, no);
	for (size_t i = 0; i < b->ncpus; i++) {
		size_t first = k;	/* this CPU's opens: pp->ev[first..] */
		for (size_t j = 0; j < no; j++, k++) {
			struct perf_event_attr a = op[j].attr;
			struct pf_ev *fe = &pp->ev[k];
			const char *name = op[j].plan_ev < 0 ?
				pebs_plan_aux(p, 0)->name :
				pebs_plan_event(p, (size_t)op[j].plan_ev)->
					ev.name;
			int gfd = op[j].leader < 0 ? -1 :
				  pp->ev[first + (size_t)op[j].leader].fd;
			long fd;
			fe->fd = -1;
			if (a.precise_ip > precise)
				a.precise_ip = precise;
			/* A process's events follow its threads and
			 * children and start at its exec. */
			a.inherit = pid > 0;
			a.enable_on_exec = pid > 0;
			fd = pf_open(&a, pid, b->cpus[i], gfd);
			/* x86_pmu_hw_config: EOPNOTSUPP above
			 * x86_pmu_max_precise() (1 on some PMUs and
			 * hypervisors); older kernels said EINVAL. */
			if (fd < 0 && (errno == EINVAL ||
				       errno == EOPNOTSUPP) &&
			    a.precise_ip == 2) {
				a.precise_ip = 1;
				fd = pf_open(&a, pid, b->cpus[i], gfd);
				if (fd >= 0)
					precise = 1;
			}
			if (fd < 0) {
				int en = errno;
				bk_err(b, "perf_event_open %s on CPU %d: %s%s",
				       name, b->cpus[i], strerror(en),
				       en == ENOENT || en == EOPNOTSUPP ||
				       en == ENODEV ? " (no PEBS-capable PMU "
				       "here: virtual machine?)" :
				       en == EACCES || en == EPERM ?
				       " (perf_event_paranoid too high; "
				       "run as root)" : "");
				pp->nev = k;
				free(op);
				return en == ENOENT || en == EOPNOTSUPP ||
				       en == ENODEV || en == EACCES ||
				       en == EPERM ? -PEBS_E_UNSUPPORTED :
				       -PEBS_E_IO;
			}
			fe->fd = (int)fd;
			fe->cpu_i = i;
			pp->nev = k + 1;
			if (op[j].plan_ev < 0)
				continue;	/* counts only: no ring */
			fe->name = name;
			fe->wlat = bk_perf_wlat(pebs_plan_event(p,
				(size_t)op[j].plan_ev)->ev.kind);
			fe->ringlen = (size_t)page * (RING_PAGES + 1);
			fe->ring = mmap(NULL, fe->ringlen,
					PROT_READ | PROT_WRITE, MAP_SHARED,
					fe->fd, 0);
			if (fe->ring == MAP_FAILED) {
				fe->ring = NULL;
				bk_err(b, "perf ring mmap: %s",
				       strerror(errno));
				free(op);
				return -PEBS_E_IO;
			}
		}
	}
	free(op);
	/* A process's events wait for its exec (enable_on_exec). */
	if (pid > 0)
		return 0;
	/* Leaders first: a group runs only while its leader is enabled. */
	for (size_t i = 0; i < pp->nev; i++)
		ioctl(pp->ev[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	return 0;
}

static int p_stop(struct pebs_backend *b)
{
	struct bk_perf *pp = b->priv;
	for (size_t i = 0; i < pp->nev; i++)
		if (pp->ev[i].fd >= 0)
			ioctl(pp->ev[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	return 0;
}

static int p_wait(struct pebs_backend *b, int timeout_ms)
{
	(void)b;
	/* The kernel wakes readers per watermark; a plain sleep of the
	 * timeout keeps this simple and drains at least 10 times a
	 * second. */
	usleep((useconds_t)(timeout_ms > 100 ? 100 : timeout_ms) * 1000);
	return PEBS_BK_PMI;
}

static long p_read(struct pebs_backend *b, size_t ci, struct pebs_batch *o)
{
	struct bk_perf *pp = b->priv;
	long page = sysconf(_SC_PAGESIZE), n = 0;

	for (size_t i = 0; i < pp->nev; i++) {
		struct pf_ev *fe = &pp->ev[i];
		struct perf_event_mmap_page *mp = fe->ring;
		uint64_t head, tail;
		int ev;
		if (fe->cpu_i != ci || !mp)
			continue;
		ev = pebs_batch_intern(o, fe->name);
		if (ev < 0)
			return ev;
		head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
		tail = mp->data_tail;
		n += (long)bk_perf_parse((uint8_t *)mp + page,
					 (size_t)page * RING_PAGES, &tail,
					 head, o, ev, fe->wlat, &fe->tally);
		__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	}
	return n;
}

static uint64_t p_lost(const struct pebs_backend *b, size_t ci)
{
	const struct bk_perf *pp = b->priv;
	uint64_t l = 0;
	for (size_t i = 0; i < pp->nev; i++)
		if (pp->ev[i].cpu_i == ci)
			l += pp->ev[i].tally.lost;
	return l;
}

static uint64_t p_throttled(const struct pebs_backend *b, size_t ci,
			    uint64_t *ns)
{
	const struct bk_perf *pp = b->priv;
	uint64_t n = 0, now = b->ops->now(b);

	*ns = 0;
	for (size_t i = 0; i < pp->nev; i++) {
		const struct bk_perf_tally *t = &pp->ev[i].tally;
		if (pp->ev[i].cpu_i != ci)
			continue;
		n += t->throttles;
		*ns += t->throttled_ns;
		/* Still throttled: until now, on the same clock. */
		if (t->throttled && now > t->throttled_at)
			*ns += now - t->throttled_at;
	}
	return n;
}

static uint64_t p_now(const struct pebs_backend *b)
{
	struct timespec ts;

	(void)b;
	/* The clock the events were opened with (use_clockid). */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void p_free(struct pebs_backend *b)
{
	struct bk_perf *pp = b->priv;
	if (!pp)
		return;
	for (size_t i = 0; i < pp->nev; i++) {
		if (pp->ev[i].ring)
			munmap(pp->ev[i].ring, pp->ev[i].ringlen);
		if (pp->ev[i].fd >= 0)
			close(pp->ev[i].fd);
	}
	free(pp->ev);
	free(pp);
}

static const struct bk_ops perf_ops = {
	.name = "perf",
	.caps = PEBS_BK_SAMPLES,
	.wait = p_wait,
	.lost = p_lost,
	.throttled = p_throttled,
	.now = p_now,
	.program = p_program,
	.stop = p_stop,
	.read = p_read,
	.free = p_free,
};

int pebs_backend_open_perf(struct pebs_backend **out,
			   const struct pebs_uarch *u, const int *cpus,
			   size_t n, int pid, char *err, size_t errlen)
{
	struct pebs_backend *b;
	struct bk_perf *pp;
	int *all = NULL;
	int r;

	*out = NULL;
	/* Per CPU also for a process: the kernel maps no ring of an
	 * inherited event opened on any CPU (perf_mmap). */
	if (!cpus) {
		r = pebs_backend_online_cpus(NULL, &all, &n, err, errlen);
		if (r < 0)
			return r;
		cpus = all;
	}
	b = bk_new(&perf_ops, u, cpus, n);
	free(all);
	pp = calloc(1, sizeof(*pp));
	if (!b || !pp) {
		free(pp);
		pebs_backend_close(b);
		snprintf(err, errlen, "out of memory");
		return -PEBS_E_NOMEM;
	}
	pp->pid = pid;
	b->priv = pp;
	*out = b;
	return 0;
}
