# client/node/build.mk: the Node client module (client/node/, plain
# JavaScript, nothing to build).  Its unit tests run under the exact Node
# release NODE_VERSION and again under Bun BUN_VERSION, each taken from
# the npm registry's binary package (build-aux/node.sh, bun.sh) and
# cached outside the tree.  make bench compares with node-pty
# NODEPTY_VERSION, built by build-aux/node-pty.sh with npm NPM_VERSION.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

NODE_VERSION		?= 26.4.0
BUN_VERSION		?= 1.4.4
NODEPTY_VERSION		?= 1.1.0
NPM_VERSION		?= 12.2.2
export NODE_VERSION BUN_VERSION NODEPTY_VERSION NPM_VERSION

SCRIPT_TESTS		+= regress/host/npmpkg.sh regress/host/node-unit.sh
