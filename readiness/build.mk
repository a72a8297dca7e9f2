# readiness/build.mk: the root readiness verifier
# opencode-pty-verify-readiness and its tests.  The reviewed revision line
# is generated into $(BUILD)/gen/opty-revision.h and seen by one object
# only, readiness/revision.o, through the dedicated rule below.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

PROGS		+= opencode-pty-verify-readiness
opencode-pty-verify-readiness_SRCS := readiness/main.c readiness/verify.c \
		   readiness/marker.c proto/sha256.c readiness/revision.c \
		   readiness/confs.c
opencode-pty-verify-readiness_LIBS :=

TESTS		+= test_sha256 test_marker
test_sha256_SRCS := regress/unit/test_sha256.c proto/sha256.c
test_sha256_LIBS :=
# marker.c is compiled into its test.
test_marker_SRCS := regress/unit/test_marker.c
test_marker_LIBS :=

READINESS_GEN	:= $(BUILD)/gen/opty-revision.h

# Recomputed on every build; rewritten only when the value changes, so
# revision.o is recompiled exactly when the commit or source tree does.
# No git, no revision: the build fails rather than embed a guess.
$(READINESS_GEN): readiness-revision-always
	@mkdir -p $(@D)
	@set -e; \
	command -v git >/dev/null 2>&1 || { \
	    echo "readiness: git is required to embed the reviewed" \
	        "revision in opencode-pty-verify-readiness" >&2; exit 1; }; \
	commit=$$(git -C $(CURDIR) rev-parse --verify HEAD) || { \
	    echo "readiness: git rev-parse HEAD failed in $(CURDIR)" >&2; \
	    exit 1; }; \
	case $$commit in \
	*[!0-9a-f]*) echo "readiness: bad commit id '$$commit'" >&2; exit 1;; \
	esac; \
	[ $${#commit} -eq 40 ] || { \
	    echo "readiness: commit id '$$commit' is not 40 hex" >&2; exit 1; }; \
	src=$$(sh $(CURDIR)/build-aux/review-source-hash) || { \
	    echo "readiness: build-aux/review-source-hash failed" >&2; \
	    exit 1; }; \
	printf '#define OPTY_REVISION "revision=opencode-v2-pilot:git:%s;%s"\n' \
	    "$$commit" "pty-source:sha256:$$src" > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(BUILD)/obj/readiness/revision.o: readiness/revision.c $(READINESS_GEN) \
    $(PATHS_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(BUILD)/gen -MMD -MP -c -o $@ readiness/revision.c

# The configuration `make install` writes (etc/build.mk): each file's
# installed path and the SHA-256 of the copy in this tree, generated into
# $(BUILD)/gen/opty-confs.h and seen by readiness/confs.o only.  The
# verifier refuses when an installed copy differs (readiness/main.c).
READINESS_CONFS	= $(foreach f,$(OPTY_UNITS),$(UNITDIR)/$(notdir $(f))=$(f)) \
		  $(foreach f,$(OPTY_DROPINS),\
		    $(UNITDIR)/$(OPTY_DROPIN_DIR)/$(notdir $(f))=$(f)) \
		  $(foreach f,$(OPTY_SYSUSERS),$(SYSUSERSDIR)/$(notdir $(f))=$(f)) \
		  $(foreach f,$(OPTY_SCRIPTS),$(LIBEXECDIR)/$(notdir $(f))=$(f))
READINESS_CONF_GEN := $(BUILD)/gen/opty-confs.h

# Rewritten only when a digest or an installed path changes.
$(READINESS_CONF_GEN): readiness-revision-always $(OPTY_UNITS) \
    $(OPTY_DROPINS) $(OPTY_SYSUSERS) $(OPTY_SCRIPTS)
	@mkdir -p $(@D)
	@set -e; \
	{ echo '#define OPTY_CONF_RECORDS \'; \
	for p in $(READINESS_CONFS); do \
	    dst=$${p%%=*}; src=$${p#*=}; \
	    case $$dst in /*) ;; *) echo "readiness: '$$dst' is not" \
	        "absolute" >&2; exit 1;; esac; \
	    case $$dst in *[!A-Za-z0-9/._-]*) echo "readiness: bad" \
	        "path '$$dst'" >&2; exit 1;; esac; \
	    d=$$(sha256sum < $$src | cut -c1-64); \
	    [ $${#d} -eq 64 ] || { echo "readiness: no digest of" \
	        "$$src" >&2; exit 1; }; \
	    printf '\t{ "%s", "%s" }, \\\n' "$$dst" "$$d"; \
	done; echo; } > $@.tmp; \
	if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(BUILD)/obj/readiness/confs.o: readiness/confs.c $(READINESS_CONF_GEN) \
    $(PATHS_H)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(BUILD)/gen -MMD -MP -c -o $@ readiness/confs.c

.PHONY: readiness-revision-always
