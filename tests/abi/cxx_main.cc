/*
 * A C++ program using libpebs: every public header is included (by
 * cxx_headers.h, which tests/abi/run.sh writes from lib/include) and
 * functions of the library are called, so a header without extern "C"
 * leaves an unresolved C++-mangled name at link time.
 */
#include "cxx_headers.h"

#include <cstdio>

int main()
{
	const char *e = pebs_strerror(-PEBS_E_PARSE);
	struct pebs_meta *m = pebs_meta_new();
	if (!e || !m)
		return 1;
	pebs_meta_free(m);
	std::printf("C++: %s\n", e);
	return 0;
}
