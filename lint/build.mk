# lint/build.mk: the hardening evidence: static analysis (`make lint`,
# also run by `make check-unit` through regress/host/lint.sh), valgrind
# over the unit tests (`make check-valgrind`) and the whole suite with
# ASan and UBSan (`make check-asan`, not part of `make check`: slow).
# See docs/ANALYSIS.md.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

SCRIPT_TESTS	+= regress/host/lint.sh regress/host/hygiene.sh \
		   regress/host/no-registry-host.sh \
		   regress/host/shipped-symbols.sh

# The client is linked static-pie and the sanitizer runtimes link only
# dynamically into a PIE: under SAN it is built without them.
opencode-pty-client_NOSAN := 1

# Unit tests that cannot run under valgrind, run natively instead (and
# under ASan and LSan by check-asan).  Both load a seccomp filter in a
# forked child, and valgrind 3.19 does not implement seccomp(2) (ENOSYS);
# test_sandbox's children also set RLIMIT_NOFILE, which valgrind
# refuses (EPERM: it keeps descriptors of its own above the limit).
# test_dircheck's and test_launcher's children load a filter too.
VALGRIND_NATIVE	:= test_sandbox test_client test_dircheck test_launcher

# The two daemons (and the forged relay and its supervisor, installed in
# their place by 60-forged-relay) run where no ASAN_OPTIONS reaches
# them: under SAN they link their sanitizer defaults
# (regress/asan/sanopts.c says which and why).
ifneq ($(strip $(SAN)),)
$(BUILD)/bin/opencode-pty-supervisor $(BUILD)/bin/opencode-pty-relay \
    $(BUILD)/tools/opty-supervisor-forgedrelay \
    $(BUILD)/tools/opty-forgedrelay: $(BUILD)/obj/regress/asan/sanopts.o
endif

ASAN_BUILD	?= build-asan
ASAN_SAN	:= -fsanitize=address,undefined -fno-sanitize-recover=all

.PHONY: lint check-valgrind check-asan shipped-objs

# For regress/host/shipped-symbols.sh: a line per shipped program, its
# name, its objects and what its link adds (flags, libraries), by tabs.
shipped-objs:
	@$(foreach p,$(PROGS),printf '%s\t%s\t%s\n' '$(p)' \
	    '$(strip $(call PROG_OBJ,$(p)))' \
	    '$(strip $(call PROG_LDFLAGS,$(p)) $($(p)_LDFLAGS) $($(p)_LIBS))';)

lint:
	sh build-aux/lint.sh

check-valgrind: tests
	BUILD=$(BUILD) sh build-aux/check-valgrind.sh \
	    $(addprefix -n ,$(filter $(VALGRIND_NATIVE),$(TESTS))) $(TESTS)

check-asan:
	ASAN_BUILD=$(ASAN_BUILD) ASAN_SAN="$(ASAN_SAN)" \
	    SCRIPT_TESTS="$(filter-out regress/host/lint.sh,$(SCRIPT_TESTS))" \
	    sh build-aux/check-asan.sh

# The dead-code check (build-aux/deadcode.sh, run by `make lint`): each
# shipped program linked again with the linker's list of the function
# sections no path of that program reaches, and its object list.  The
# linker prints that list as warnings: --fatal-warnings (the relay's)
# stays for the real link only.
comma		:= ,
define dead_rule
$(BUILD)/dead/$(1): $$(call PROG_OBJ,$(1))
	@mkdir -p $$(@D)
	$$(CC) $$(call PROG_LDFLAGS,$(1)) \
	    $$(filter-out -Wl$$(comma)--fatal-warnings,$$($(1)_LDFLAGS)) \
	    -Wl,--print-gc-sections -o $$@ $$^ $$($(1)_LIBS) 2> $$@.gc
	@printf '%s\n' $$^ > $$@.objs
endef
# (Instantiated in GNUmakefile, once every fragment has added its PROGS.)
