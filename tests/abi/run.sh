#!/bin/sh
# Checks of libpebs.so and libpebs.a as other programs see them (make
# abi, part of make check):
#   - the .so exports only pebs_* names of the public headers, none of its
#     internals (pebs_outfmt_* included), and has the soname libpebs.so.0;
#   - the installed libpebs.a defines as global exactly the names the .so
#     exports (its internals were global: fmt_checksum, hist_sort, ...);
#   - a program defining one of the internal names (fmt_checksum) still
#     reads a valid file through the .so and linked with the installed
#     libpebs.a (interpose.c; it failed to link: multiple definition);
#   - every public header compiles as C++ (-Wpedantic) and a C++ program
#     links against the library (cxx_main.cc), built with the flags of the
#     pkg-config file of a `make install PREFIX=...`;
#   - `make install DESTDIR=... PREFIX=...` lays out the library and its
#     links.
#   run.sh BUILDDIR
set -eu
B=${1:?usage: run.sh BUILDDIR}
CC=${CC:-cc}
CXX=${CXX:-c++}
MAKE=${MAKE:-make}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
so=$B/libpebs.so
fail() { echo "abi: $*" >&2; exit 1; }

ver=$(sed -n 's/^VERSION := //p' Makefile)
major=${ver%%.*}
readelf -d "$so" | grep -q "Library soname: \[libpebs.so.$major\]" ||
	fail "$so: soname is not libpebs.so.$major"
[ "$(readlink "$so")" = "libpebs.so.$ver" ] || fail "$so: not a link"
[ "$(readlink "$B/libpebs.so.$major")" = "libpebs.so.$ver" ] ||
	fail "$B/libpebs.so.$major: not a link"

nm -D --defined-only "$so" | awk 'NF == 3 { print $3 }' | sort >"$tmp/exp"
bad=$(grep -v '^pebs_' "$tmp/exp" || true)
[ -z "$bad" ] || fail "$so exports internal symbols:" $bad
bad=$(grep '^pebs_outfmt_' "$tmp/exp" || true)
[ -z "$bad" ] || fail "$so exports internal symbols:" $bad
grep -qx pebs_reader_open "$tmp/exp" || fail "$so: pebs_reader_open missing"

# Interposition: link the program against the .so by its path, so that it
# is the library under test that runs.
$CC -std=gnu11 -Wall -Wextra -Werror -Ilib/include -o "$tmp/interpose" \
	tests/abi/interpose.c -L"$B" -lpebs
LD_LIBRARY_PATH=$B "$tmp/interpose" testdata/good/filter-hist-2k.pebs \
	>"$tmp/out" || fail "interpose: reading through $so failed"
grep -qx '2000 samples' "$tmp/out" ||
	fail "interpose: $(cat "$tmp/out"), not 2000 samples"

# Install under a prefix, and by DESTDIR.
$MAKE -s --no-print-directory B="$B" PREFIX="$tmp/p" install >/dev/null
$MAKE -s --no-print-directory B="$B" DESTDIR="$tmp/d" PREFIX=/opt/pebs \
	install >/dev/null
for d in "$tmp/p" "$tmp/d/opt/pebs"; do
	[ -f "$d/lib/libpebs.so.$ver" ] && [ ! -L "$d/lib/libpebs.so.$ver" ] ||
		fail "$d/lib/libpebs.so.$ver not installed"
	for l in libpebs.so.$major libpebs.so; do
		[ "$(readlink "$d/lib/$l")" = "libpebs.so.$ver" ] ||
			fail "$d/lib/$l: not a link to libpebs.so.$ver"
	done
	[ -f "$d/include/pebs.h" ] || fail "$d/include/pebs.h not installed"
done
grep -qx "prefix=/opt/pebs" "$tmp/d/opt/pebs/lib/pkgconfig/libpebs.pc" ||
	fail "DESTDIR install: libpebs.pc names the wrong prefix"

# C++: every public header, with the installed copy's pkg-config flags.
for h in lib/include/*.h; do
	echo "#include <${h##*/}>"
done >"$tmp/cxx_headers.h"
# ... and a reference to every symbol the library exports, so that a header
# without extern "C" leaves its C++-mangled names unresolved at link time.
nm -D --defined-only "$so" | awk '$2 == "T" { print "FN(" $3 ")" }' \
	>"$tmp/cxx_fns.h"
nm -D --defined-only "$so" | awk 'NF == 3 && $2 != "T" { print "OBJ(" $3 ")" }' \
	>"$tmp/cxx_objs.h"
export PKG_CONFIG_PATH="$tmp/p/lib/pkgconfig"
flags=$(pkg-config --cflags --libs libpebs) || fail "pkg-config failed"
$CXX -std=c++11 -Wall -Wextra -Wpedantic -Werror -I"$tmp" \
	-o "$tmp/cxx" tests/abi/cxx_main.cc $flags ||
	fail "a C++ program cannot use the public headers"
LD_LIBRARY_PATH=$tmp/p/lib "$tmp/cxx" >"$tmp/out" || fail "C++ program failed"
grep -qx "C++: $(wc -l <"$tmp/exp") symbols" "$tmp/out" ||
	fail "C++ program: $(cat "$tmp/out")"

# The installed static library: the .so's names global, nothing else.
a=$tmp/p/lib/libpebs.a
[ -f "$a" ] || fail "$a not installed"
nm -g --defined-only "$a" | awk 'NF == 3 { print $3 }' | sort >"$tmp/exp_a"
cmp -s "$tmp/exp" "$tmp/exp_a" || fail "$a: global names differ from" \
	"$so's:" $(diff "$tmp/exp" "$tmp/exp_a" | sed -n 's/^[<>] //p')
# ... so a program with a function of an internal name links with it (by
# the installed pkg-config file's flags for a static link), keeps its own
# function and reads through the library's.
$CC -std=gnu11 -Wall -Wextra -Werror -Ilib/include -o "$tmp/interpose_a" \
	tests/abi/interpose.c $(pkg-config --static --libs libpebs |
	sed "s|-lpebs|$a|") ||
	fail "interpose: cannot link statically with $a"
"$tmp/interpose_a" testdata/good/filter-hist-2k.pebs >"$tmp/out" ||
	fail "interpose: reading through $a failed"
grep -qx '2000 samples' "$tmp/out" ||
	fail "interpose ($a): $(cat "$tmp/out"), not 2000 samples"
echo "abi: libpebs.so $ver and libpebs.a ($(wc -l <"$tmp/exp") symbols): all checks passed"
