/*
 * A C++ program using libpebs: every public header is included (by
 * cxx_headers.h, which tests/abi/run.sh writes from lib/include), and
 * every symbol the library exports is referenced (cxx_fns.h and
 * cxx_objs.h, written by run.sh from the library's dynamic symbols), so a
 * header without extern "C" leaves an unresolved C++-mangled name at link
 * time, whichever header it is.
 */
#include "cxx_headers.h"

#include <cstdio>

#define FN(f) reinterpret_cast<void (*)()>(&f),
static void (*const fns[])() = {
#include "cxx_fns.h"
};
#undef FN
#define OBJ(o) static_cast<const volatile void *>(&o),
static const volatile void *const objs[] = {
#include "cxx_objs.h"
	nullptr
};
#undef OBJ

int main()
{
	const char *e = pebs_strerror(-PEBS_E_PARSE);
	struct pebs_meta *m = pebs_meta_new();
	if (!e || !m)
		return 1;
	pebs_meta_free(m);
	size_t n = sizeof(fns) / sizeof(fns[0]) + sizeof(objs) /
		   sizeof(objs[0]) - 1;
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (!fns[i])
			return 1;
	std::printf("C++: %zu symbols\n", n);
	return 0;
}
