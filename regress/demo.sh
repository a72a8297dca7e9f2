#!/bin/sh
# demo.sh: `make demo`.  Runs as root on the host: boots the disposable
# systemd of regress/harness.sh, installs the built binaries and units into
# it, shows the system at work and tears everything down.  Never installed.
#
#	BUILD=build	build directory (relative to the repository)
#	DEMO_KEEP=1	leave the container running afterwards
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

. "$(cd "$(dirname "$0")" && pwd -P)/harness.sh"

cd "$REPO" || exit 1

# The demo proper (regress/demo-session.sh) runs inside the container.
demo_body()
{
	harness_exec BUILD="$BUILD" TOOLS="$BUILD/tools" REPO="$REPO" \
	    /bin/sh regress/demo-session.sh
}

harness_trap
harness_start || exit 1
harness_install || exit 1
demo_body
rc=$?
if [ "${DEMO_KEEP:-0}" = 1 ]; then
	harness_keep
elif ! harness_stop; then
	echo "demo: FAIL: the harness left something behind" >&2
	rc=1
fi
exit $rc
