# regress/node/build.mk: the exact Node release (NODE_VERSION, from
# client/node/build.mk) staged into the build directory for the
# integration tests, which run a real Node service inside the disposable
# systemd (regress/it/76-node.sh, 77-node-probe.sh, and every session of
# regress/itlib.sh's client but forged ones: regress/node/), and
# the inheritance probe built from it as a single executable application.
# node-stage also stages xterm.js's headless terminal (build-aux/xterm.sh)
# for regress/it/87-xterm.sh.
#
#	make node-probe			the probe alone, in the disposable
#					systemd over the host's / (ROOT=trixie:
#					over that tree); report in
#					$(BUILD)/node/probe-report-*.txt
#	make node-probe NODE_PROBE_NODE=/path/to/node
#					the probe built from that Node binary
#					(the operator's own: docs/NODE.md)
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

.PHONY: node-stage node-sea node-probe

node-stage:
	@BUILD=$(BUILD) sh regress/node/stage.sh

node-sea: node-stage
	@BUILD=$(BUILD) sh regress/node/sea.sh

check-integration check-matrix: node-sea

node-probe: all tools node-sea
	IT_ONLY=77-node-probe sh regress/integration.sh
