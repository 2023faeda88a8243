#!/usr/bin/env bash
# A PyPy 3.11 on Debian 12, for PyOpenCL's Python layer (PyOpenCL 2026.1 and
# pytools need Python 3.10 or newer; Debian 12's PyPy is a 3.9):
#   tools/pypy311.sh DIR
# downloads Debian 13's PyPy 7.3.19 and the libraries it needs (among them
# Debian 13's C library: it needs glibc 2.38) with apt-get download, unpacks
# them into DIR/root without installing anything, and writes
# DIR/root/usr/bin/pypy3.11-run, which starts that PyPy through Debian 13's
# dynamic loader. The wrapper is the interpreter's sys.executable, so venvs
# and subprocesses use it too. Needs root (a temporary apt source list).
set -euo pipefail
dir=$(mkdir -p "$1" && cd "$1" && pwd)
root=$dir/root
run=$root/usr/bin/pypy3.11-run
if [ -x "$run" ]; then echo "$run"; exit 0; fi
packages="pypy3 pypy3-lib pypy3-dev pypy3-venv libc6 libffi8 libexpat1 libssl3t64 libsqlite3-0 zlib1g libbz2-1.0
  liblzma5 libncursesw6 libtinfo6 libgdbm6t64 libgcc-s1 libzstd1 libmpdec4"
list=/etc/apt/sources.list.d/pycl-trixie-download.list
trap 'rm -f "$list"; apt-get update -qq >/dev/null 2>&1 || true' EXIT
echo "deb http://deb.debian.org/debian trixie main" > "$list"
apt-get update -qq >/dev/null
mkdir -p "$dir/debs" && cd "$dir/debs"
chmod 777 "$dir/debs"  # apt-get download writes as _apt where it can
for package in $packages; do
  version=$(apt-cache madison "$package" | awk -F'|' '$3 ~ /trixie/ {gsub(/ /, "", $2); print $2; exit}')
  apt-get download -q "$package=$version" >/dev/null 2>&1
done
mkdir -p "$root"
for deb in "$dir"/debs/*.deb; do dpkg-deb -x "$deb" "$root"; done
lib=$root/usr/lib/x86_64-linux-gnu
cat > "$run" <<WRAPPER
#!/bin/sh
# Debian 13's PyPy 3.11 through Debian 13's dynamic loader and libraries.
exec $lib/ld-linux-x86-64.so.2 --library-path $lib --argv0 "\$0" $root/usr/bin/pypy3.11 "\$@"
WRAPPER
chmod +x "$run"
"$run" -c "import sys; assert sys.version_info[:2] == (3, 11), sys.version" >&2
echo "$run"
