/*
 * cpulist.h - CPU lists of the topology metadata (internal to lib/): the
 * syntax of topology.node.N.cpus (formats/pebs-format.md section 9),
 * checked by pebs_meta_check() and read by pebs-c2c.
 */
#ifndef PEBS_CPULIST_H
#define PEBS_CPULIST_H

#define META_MAX_NODE 4095u	/* highest NUMA node of a topology */
#define META_MAX_CPU 65535u	/* highest CPU of a CPU list */

/*
 * Parses a perf CPU list such as "0-3,8" (leading spaces allowed, empty
 * = no CPU), calling @cb for each CPU in order; a non-zero return from
 * @cb stops it.  0, or -1 for a malformed list or a stop.
 */
int meta_parse_cpulist(const char *s, int (*cb)(void *, unsigned),
		       void *ctx);

#endif
