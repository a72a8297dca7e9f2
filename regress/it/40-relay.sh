#!/bin/sh
# 40-relay.sh: the installed relay driven by a forged root parent
# (regress/tools/opty-forgedparent.c).  Runs as root inside the
# disposable systemd container: the relay is exec'd exactly as the
# parent does it and must run as opencode-pty-relay, with no
# capabilities, NoNewPrivs, seccomp and the empty chroot, and follow
# every client flow of docs/RELAY.md.  The tool prints a PASS or FAIL
# line per assertion itself; its status is one more.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
ITLIB_BASE=1
. "$REPO/regress/itlib.sh"

tool="${TOOLS:?TOOLS is not set}/opty-forgedparent"
relay=$INST_LIBEXEC/opencode-pty-relay
if [ ! -x "$tool" ]; then
	echo "FAIL: $tool is missing (make tools)"
	exit 1
fi
if [ ! -x "$relay" ]; then
	echo "FAIL: $relay is not installed"
	exit 1
fi
if ! id -u opencode-pty-relay >/dev/null 2>&1; then
	echo "FAIL: user opencode-pty-relay missing (etc/sysusers.d not applied)"
	exit 1
fi
if systemctl is-active --quiet opencode-pty-supervisor.service 2>/dev/null
then
	echo "FAIL: the supervisor is running; it owns the socket path"
	exit 1
fi

check "opty-forgedparent: every flow as expected" "$tool" "$relay"
rm -f /run/opencode-pty/supervisor.sock
finish
