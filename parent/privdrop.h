/*
 * privdrop.h: the root parent's capability drop once the relay runs
 * (parent/privdrop.c).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef PARENT_PRIVDROP_H
#define PARENT_PRIVDROP_H

/* Every securebit the parent sets, each with its lock; KEEP_CAPS off. */
#define PARENT_SECUREBITS	0xefUL

void	parent_drop_privileges(void);

#endif
