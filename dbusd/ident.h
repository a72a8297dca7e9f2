/*
 * ident.h: client identity decoding (root parent), exposed for the unit
 * tests: the table of exact interfaces and the pure decoder.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_DBUSD_IDENT_H
#define OPTY_DBUSD_IDENT_H

#include "dbusd/priv.h"

extern const struct prop_want	ident_want[];
extern const size_t		ident_nwant;

/* 0, or -EBADMSG when a property is missing, doubled, mistyped or long. */
int	ident_decode(const struct prop_value *, size_t, struct client_ident *);

#endif
