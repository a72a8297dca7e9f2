/*
 * confs.c: the configuration files `make install` writes (the units,
 * the readiness drop-in, the sysusers.d entry), as they were when this
 * verifier was built: installed path and SHA-256, generated from etc/
 * into $(BUILD)/gen/opty-confs.h (readiness/build.mk).  Data only.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include "opty-confs.h"	/* generated: OPTY_CONF_RECORDS */
#include "readiness/readiness.h"

const struct readiness_conf	readiness_confs[] = { OPTY_CONF_RECORDS };
const size_t			readiness_nconfs =
    sizeof(readiness_confs) / sizeof(readiness_confs[0]);
