#!/bin/sh
# Installs the Debian packages pebs-tools needs, when missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
set -eu
PKGS="build-essential pkg-config libzstd-dev libyaml-dev libcsv-dev \
libcriterion-dev libxxhash-dev libpfm4-dev libelf-dev libdw-dev zstd"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: missing packages:$missing" >&2
	echo "deps.sh: run: sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "deps.sh: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq $missing >/dev/null
