# man/build.mk: the manual pages (mdoc) and their installation.  Lint:
# regress/host/mandoc-lint.sh, run by `make check-unit`.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

# The pages in man/ carry @LIBEXECDIR@... (the GNUmakefile's settings):
# the filled-in copies under $(BUILD)/man are installed.
MAN8		+= $(BUILD)/man/opencode-pty-supervisor.8 \
		   $(BUILD)/man/opencode-pty-launcher.8 \
		   $(BUILD)/man/opencode-pty-client.8 \
		   $(BUILD)/man/opencode-pty-verify-readiness.8
MAN5		+= $(BUILD)/man/opencode-pty.5
GENERATED	+= $(patsubst $(BUILD)/%,%,$(MAN8) $(MAN5))
INSTALL_TARGETS	+= install-man
SCRIPT_TESTS	+= regress/host/mandoc-lint.sh

.PHONY: install-man
install-man: $(MAN8) $(MAN5)
	install -d -m 0755 $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man5
	install -o root -g root -m 0644 $(MAN8) $(DESTDIR)$(MANDIR)/man8/
	install -o root -g root -m 0644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/
