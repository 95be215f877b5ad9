/*
 * prog.c - the program of the symbol CLI cases (tests/cli/cases/*-sym*),
 * built there with -g.  Run, it prints on its first line the pebs-import
 * options that describe its own executable mappings (maps.N.* of pid 100),
 * then a CSV of samples at known places: worker and helper (code), table
 * and static_var (data), and one sample of pid 200, which has no maps.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

long table[16];
static int static_var = 7;

int helper(int x)
{
	return x * static_var;
}

int worker(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += table[i % 16] + helper(i);
	return (int)s;
}

static void sample(int t, int pid, const void *ip, unsigned off,
		   const void *addr, unsigned lat)
{
	printf("%d,1,%d,%d,load-latency,0x%llx,0x%llx,%u\n", t, pid, pid,
	       (unsigned long long)(uintptr_t)ip + off,
	       (unsigned long long)(uintptr_t)addr, lat);
}

int main(void)
{
	char self[4096], line[4352];
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (k <= 0)
		return 1;
	self[k] = 0;
	FILE *m = fopen("/proc/self/maps", "r");
	int n = 0;
	while (m && fgets(line, sizeof(line), m)) {
		unsigned long long lo, hi, off;
		char path[4096] = "";
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &lo,
			   &hi, &off, path) < 4 || strcmp(path, self))
			continue;
		printf("%s--meta maps.%d.pid=100 --meta maps.%d.start=0x%llx "
		       "--meta maps.%d.end=0x%llx --meta maps.%d.pgoff=0x%llx "
		       "--meta maps.%d.path=%s", n ? " " : "", n, n, lo, n,
		       hi, n, off, n, self);
		n++;
	}
	printf("\ntime,cpu,pid,tid,event,ip,addr,lat\n");
	sample(1, 100, (const void *)worker, 0, &table[1], 10);
	sample(2, 100, (const void *)worker, 4, &table[2], 20);
	sample(3, 100, (const void *)helper, 0, &static_var, 300);
	sample(4, 100, (const void *)helper, 4, &table[0], 400);
	sample(5, 100, (const void *)main, 0, NULL, 5);
	sample(6, 200, (const void *)worker, 0, &table[1], 60);
	return worker(3) < 0;
}
