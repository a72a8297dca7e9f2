/*
 * revision.c: the reviewed revision line embedded in the root readiness
 * verifier.  OPTY_REVISION comes from $(BUILD)/gen/opty-revision.h,
 * written by readiness/build.mk from `git rev-parse HEAD` and
 * build-aux/review-source-hash; only this object sees it.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include "readiness/readiness.h"

#include "opty-revision.h"

#ifndef OPTY_REVISION
#error "OPTY_REVISION is not defined: build through readiness/build.mk"
#endif

_Static_assert(sizeof(OPTY_REVISION) - 1 == REV_LEN,
    "OPTY_REVISION does not have the length of a revision line");

const char	opty_revision[] = OPTY_REVISION;
