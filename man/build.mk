# man/build.mk: the manual pages (mdoc) and their installation.  Lint:
# regress/host/mandoc-lint.sh, run by `make check-unit`.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

MAN8		+= man/opencode-pty-supervisor.8 man/opencode-pty-launcher.8 \
		   man/opencode-pty-client.8 \
		   man/opencode-pty-verify-readiness.8
MAN5		+= man/opencode-pty.5
INSTALL_TARGETS	+= install-man
SCRIPT_TESTS	+= regress/host/mandoc-lint.sh

.PHONY: install-man
install-man: $(MAN8) $(MAN5)
	install -d -m 0755 $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man5
	install -o root -g root -m 0644 $(MAN8) $(DESTDIR)$(MANDIR)/man8/
	install -o root -g root -m 0644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/
