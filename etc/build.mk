# etc/build.mk: installs the systemd units, the readiness drop-in and the
# sysusers.d file (root, at install time), and declares the deployment
# checks: install-check (acceptance gate 3), repro (gate 1) and the
# host-level unit verification.  See docs/UNITS.md.
#
# Everything outside $(PREFIX) goes below /etc: the units (UNITDIR, from
# the GNUmakefile) and the sysusers.d file are the administrator's local
# configuration, not the distribution's, so /usr/lib is left alone.  No
# tmpfiles.d file is needed: systemd creates /run/opencode-pty itself
# (RuntimeDirectory=) and the parent makes the relay's empty root in it.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

# The files in etc/ carry @LIBEXECDIR@, @SESSION_USER@... (the
# GNUmakefile's settings): the copies `make all` fills in under
# $(BUILD)/etc are the ones installed (and bound by the readiness
# verifier).  UNITDIR and SYSUSERSDIR are set in the GNUmakefile.
OPTY_UNITS	:= $(BUILD)/etc/opencode-pty-supervisor.service \
		   $(BUILD)/etc/opencode-pty.slice
OPTY_DROPIN_DIR	:= opencode-v2.service.d
OPTY_DROPINS	:= $(BUILD)/etc/$(OPTY_DROPIN_DIR)/10-opencode-pty-readiness.conf \
		   $(BUILD)/etc/$(OPTY_DROPIN_DIR)/20-opencode-pty-loopback.conf
# Root's helper scripts, installed next to the programs (LIBEXECDIR):
# the loopback table's loader, run by PID 1 from the drop-in above.
OPTY_SCRIPTS	:= $(BUILD)/etc/opencode-pty-loopback
# Written by the relay's engineer; whatever is there is installed.
OPTY_SYSUSERS	:= $(addprefix $(BUILD)/,\
		     $(sort $(wildcard etc/sysusers.d/*.conf)))
GENERATED	+= $(patsubst $(BUILD)/%,%,$(OPTY_UNITS) $(OPTY_DROPINS) \
		     $(OPTY_SYSUSERS) $(OPTY_SCRIPTS))

# The installed copies, as install-check sees them.
OPTY_INSTALLED_CONF := \
	$(addprefix $(DESTDIR)$(UNITDIR)/,$(notdir $(OPTY_UNITS))) \
	$(addprefix $(DESTDIR)$(UNITDIR)/$(OPTY_DROPIN_DIR)/,\
	    $(notdir $(OPTY_DROPINS))) \
	$(addprefix $(DESTDIR)$(SYSUSERSDIR)/,$(notdir $(OPTY_SYSUSERS)))

INSTALL_TARGETS	+= install-units

# The session units' journald instance (LogNamespace=opencode-pty): no
# wall, bounded.  systemd reads a namespace's main file from /etc/systemd
# only, whatever PREFIX says; the package ships it there, a conffile.
JOURNALDDIR	:= /etc/systemd
OPTY_JOURNALD	:= $(BUILD)/etc/journald@opencode-pty.conf
GENERATED	+= $(patsubst $(BUILD)/%,%,$(OPTY_JOURNALD))
OPTY_INSTALLED_CONF += $(DESTDIR)$(JOURNALDDIR)/$(notdir $(OPTY_JOURNALD))
INSTALL_TARGETS	+= install-journald
SCRIPT_TESTS	+= regress/host/units-verify.sh

.PHONY: install-units install-journald install-check repro

# Files only: nothing is enabled, started or reloaded (gate 2).  The one
# exception is the relay's system user, created on a real install (no
# DESTDIR) because the supervisor cannot start without it.
install-units: $(OPTY_UNITS) $(OPTY_DROPINS) $(OPTY_SYSUSERS) \
    $(OPTY_SCRIPTS)
	install -d -o root -g root -m 0755 $(DESTDIR)$(UNITDIR) \
	    $(DESTDIR)$(UNITDIR)/$(OPTY_DROPIN_DIR) $(DESTDIR)$(LIBEXECDIR)
	install -o root -g root -m 0755 $(OPTY_SCRIPTS) $(DESTDIR)$(LIBEXECDIR)/
	install -o root -g root -m 0644 $(OPTY_UNITS) $(DESTDIR)$(UNITDIR)/
	install -o root -g root -m 0644 $(OPTY_DROPINS) \
	    $(DESTDIR)$(UNITDIR)/$(OPTY_DROPIN_DIR)/
ifneq ($(OPTY_SYSUSERS),)
	install -d -o root -g root -m 0755 $(DESTDIR)$(SYSUSERSDIR)
	install -o root -g root -m 0644 $(OPTY_SYSUSERS) \
	    $(DESTDIR)$(SYSUSERSDIR)/
ifeq ($(DESTDIR),)
	systemd-sysusers $(addprefix $(SYSUSERSDIR)/,$(notdir $(OPTY_SYSUSERS)))
endif
endif

# Gate 3 on what `make install` wrote (honours DESTDIR).
install-check:
	sh build-aux/install-check.sh \
	    $(foreach f,$(OPTY_INSTALLED_CONF),-f $(f)) \
	    $(DESTDIR)$(LIBEXECDIR) $(PROGS) $(notdir $(OPTY_SCRIPTS))

# Gate 1: two builds of HEAD in two fresh clones, byte-identical.
repro:
	BUILD=$(BUILD) sh build-aux/repro.sh

# A file only: the instance reads it when it next starts (a session
# starts it), nothing is restarted here.
install-journald: $(OPTY_JOURNALD)
	install -d -o root -g root -m 0755 $(DESTDIR)$(JOURNALDDIR)
	install -o root -g root -m 0644 $(OPTY_JOURNALD) $(DESTDIR)$(JOURNALDDIR)/
