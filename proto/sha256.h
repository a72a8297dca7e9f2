/*
 * sha256.h: SHA-256 (FIPS 180-4), written for this project because no
 * library it may link exports one.  Pure computation on caller memory;
 * used by the root readiness verifier and the root parent (the relay's
 * binding, the journal's argv digest).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_SHA256_H
#define OPTY_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_BLOCK_LEN	64
#define SHA256_DIGEST_LEN	32

struct sha256_ctx {
	uint32_t	h[8];
	uint64_t	nbytes;		/* message length so far, in bytes */
	uint8_t		buf[SHA256_BLOCK_LEN];
	size_t		have;		/* bytes held in buf */
};

void	sha256_init(struct sha256_ctx *);
void	sha256_update(struct sha256_ctx *, const void *, size_t);
void	sha256_final(struct sha256_ctx *, uint8_t [SHA256_DIGEST_LEN]);

#define SHA256_HEX_LEN		(2 * SHA256_DIGEST_LEN)
/* The digest as 64 lowercase hex digits and a NUL. */
void	sha256_hex(const uint8_t [SHA256_DIGEST_LEN],
	    char [SHA256_HEX_LEN + 1]);

#endif
