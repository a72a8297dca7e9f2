#!/bin/sh
# install-deps.sh: installs the Debian 12 packages opencode-pty needs to
# build, test and demo.  Idempotent; runs apt-get only when something is
# missing, and `apt-get update` only then.  Node itself is not a Debian
# package here: build-aux/node.sh fetches the exact release (npm
# registry binary package) with curl; libatomic1 and libstdc++6 are
# what that binary links against.  python3 and g++ are node-gyp's, for
# make bench's node-pty (build-aux/node-pty.sh).  tmux and vim-tiny run
# inside a session in regress/it/79-programs.sh (vim-tiny and less in
# 87-xterm.sh, through xterm.js's headless terminal), as do ssh and an sshd
# (openssh-server is installed without being started or enabled on the
# host: the tests start it in their container).  nftables and iproute2:
# the loopback table (regress/it/81-loopback.sh).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -eu

PKGS="gcc make pkg-config libc6-dev libsystemd-dev libevent-dev
libseccomp-dev libcmocka-dev systemd systemd-container dbus dbus-bin
util-linux bsdutils mandoc strace procps dbus-user-session debootstrap
clang-14 libclang-rt-14-dev llvm-14 clang clang-tidy clang-tools cppcheck
valgrind curl ca-certificates libatomic1 libstdc++6 python3 g++
tmux vim-tiny less debhelper lintian openssh-client openssh-server nftables
iproute2"

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing (run as root)" >&2
	exit 1
fi
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# No daemon is started by the install (policy-rc.d's 101: "action
# forbidden"); an sshd this script brought is not enabled either.
# An existing policy-rc.d is the machine's own and is left as it is.
policy=/usr/sbin/policy-rc.d
if [ ! -e $policy ]; then
	printf '#!/bin/sh\nexit 101\n' > $policy
	chmod 0755 $policy
	trap 'rm -f $policy' EXIT
fi
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
case " $missing " in
*" openssh-server "*)
	systemctl disable -q ssh.service ssh.socket 2>/dev/null || true ;;
esac
