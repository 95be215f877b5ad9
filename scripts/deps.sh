#!/bin/sh
# Installs the Debian packages pebs-tools needs, when missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
#   deps.sh          to build, run and demo the tools
#   deps.sh --test   and to run make test (clang for make replay-clang;
#                    python3-yaml and python3-jsonschema for make schema;
#                    groff-base for the man page check, tests/cli;
#                    locales-all for tests/unit/locale_host.c, which
#                    runs libpebs under de_DE.UTF-8 and tr_TR.UTF-8)
#   deps.sh --bench  and to run make bench (/usr/bin/time, which the
#                    benchmarks read CPU time and peak memory from, and
#                    python3, which writes c2c-bench's data)
set -eu
PKGS="build-essential pkg-config libzstd-dev libyaml-dev libcsv-dev \
libcriterion-dev libxxhash-dev libpfm4-dev libelf-dev libdw-dev zstd"
tests=0
for a in "$@"; do
	case $a in
	--test) tests=1
		PKGS="$PKGS clang python3-yaml python3-jsonschema groff-base \
locales-all" ;;
	--bench) PKGS="$PKGS time python3" ;;
	*) echo "usage: deps.sh [--test] [--bench]" >&2; exit 2 ;;
	esac
done
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
# clang's sanitizer runtimes (make replay-clang) are in a package of its
# version, libclang-rt-N-dev, which the clang package only recommends.
clang_rt() {
	[ $tests = 1 ] || return 0
	command -v clang >/dev/null 2>&1 || return 0
	echo 'int main(void) { return 0; }' |
		clang -x c -fsanitize=address,undefined -o /dev/null - \
		>/dev/null 2>&1 && return 0
	v=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
	if [ -n "$v" ]; then
		echo "libclang-rt-$v-dev"
	fi
}
missing="$missing $(clang_rt)"
missing=$(echo $missing)
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: missing packages: $missing" >&2
	echo "deps.sh: run: sudo apt-get install -y $missing" >&2
	exit 1
fi
echo "deps.sh: installing: $missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq $missing >/dev/null
# clang was just installed, without its recommended runtimes perhaps
rt=$(clang_rt)
if [ -n "$rt" ]; then
	echo "deps.sh: installing: $rt" >&2
	apt-get install -y -qq "$rt" >/dev/null
fi
