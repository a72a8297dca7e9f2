/*
 * seedreq.h: the seed's start request (Device=12, Inode=34,
 * RuntimeSec=60, argv printf, %s, hello world), shared by the cmocka
 * tests of the two codecs that carry it (test only, no privilege).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_SEEDREQ_H
#define OPTY_SEEDREQ_H

#include <stddef.h>

#include "proto/frame.h"

void	set_arg(struct start_req *, unsigned int, const void *, size_t);
void	seed_req(struct start_req *);

#endif
