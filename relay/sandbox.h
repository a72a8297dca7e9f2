/*
 * sandbox.h: the relay's privilege drop and system call allowlist
 * (docs/SANDBOX.md).  Called as root, returns unprivileged for good.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef RELAY_SANDBOX_H
#define RELAY_SANDBOX_H

#include <sys/types.h>

#include "proto/config.h"

#define SANDBOX_NOFILE	(3 * OPTY_MAX_SESSIONS + OPTY_MAX_AUTH + 16)

void	relay_sandbox(const char *root, uid_t uid, gid_t gid);

#endif
