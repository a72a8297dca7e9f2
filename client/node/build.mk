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

# The module as installed (make install, and the .deb's node-opencode-pty:
# docs/PACKAGING.md): $(BUILD)/nodejs/opencode-pty/, the files of
# package.json's "files" and package.json itself, with index.js's
# HELPER_PATH line set to this build's LIBEXECDIR, so that the module
# finds the helper of its own install.  Installed under NODEDIR, the
# directory Debian's Node searches for modules (/usr/share/nodejs) below
# PREFIX.  regress/host/node-paths.sh checks both settings.
NODE_NAME		:= opencode-pty
NODEDIR			?= $(PREFIX)/share/nodejs
NODE_FILES		:= package.json codec.js index.d.mts index.d.ts index.js \
			   index.mjs node-pty.d.ts node-pty.js
NODE_OUT		:= $(BUILD)/nodejs/$(NODE_NAME)
NODE_HELPER		= $(LIBEXECDIR)/opencode-pty-client
NODE_LINE		= const HELPER_PATH = '$(NODE_HELPER)';
GENERATED		+= $(addprefix nodejs/$(NODE_NAME)/,$(NODE_FILES))
INSTALL_TARGETS		+= install-node
SCRIPT_TESTS		+= regress/host/node-paths.sh regress/host/node-pack.sh

.PHONY: nodejs-module install-node

nodejs-module: $(addprefix $(NODE_OUT)/,$(NODE_FILES))

# Exactly one line is rewritten, or the build stops.
$(NODE_OUT)/index.js: client/node/index.js $(PATHS_H)
	@mkdir -p $(@D)
	@sed "s|^const HELPER_PATH = '[^']*';\$$|$(NODE_LINE)|" $< > $@.tmp
	@n=$$(grep -c "^$(NODE_LINE)\$$" $@.tmp); \
	[ "$$n" = 1 ] || { echo "nodejs: $<: $$n HELPER_PATH lines" \
	    "set, not 1" >&2; rm -f $@.tmp; exit 1; }
	@mv -f $@.tmp $@

$(NODE_OUT)/%: client/node/%
	@mkdir -p $(@D)
	@cp $< $@.tmp && mv -f $@.tmp $@

install-node: nodejs-module
	install -d -o root -g root -m 0755 $(DESTDIR)$(NODEDIR)/$(NODE_NAME)
	install -o root -g root -m 0644 $(addprefix $(NODE_OUT)/,$(NODE_FILES)) \
	    $(DESTDIR)$(NODEDIR)/$(NODE_NAME)/
