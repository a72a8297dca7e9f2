# readiness/build.mk: the root readiness verifier
# opencode-pty-verify-readiness and its tests.  The reviewed revision line
# is generated into $(BUILD)/gen/opty-revision.h and seen by one object
# only, readiness/revision.o, through the dedicated rule below.

PROGS		+= opencode-pty-verify-readiness
opencode-pty-verify-readiness_SRCS := readiness/main.c readiness/verify.c \
		   readiness/marker.c proto/sha256.c readiness/revision.c
opencode-pty-verify-readiness_LIBS :=

TESTS		+= test_sha256 test_marker
test_sha256_SRCS := regress/unit/test_sha256.c proto/sha256.c
test_sha256_LIBS :=
test_marker_SRCS := regress/unit/test_marker.c readiness/marker.c
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

$(BUILD)/obj/readiness/revision.o: readiness/revision.c $(READINESS_GEN)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(BUILD)/gen -MMD -MP -c -o $@ readiness/revision.c

.PHONY: readiness-revision-always
