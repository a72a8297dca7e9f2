/*
 * fuzz_argdecode.c: libFuzzer harness of the launcher's argument codec
 * (proto/argdecode.c, proto/argcodec.c).  arg_decode() runs in the
 * launcher, as the session user, on whatever systemd put on its command
 * line.  Test code only.
 *
 * The input is used twice.  As a string (cut at its first NUL, as argv
 * would be) it goes to arg_decode(); whatever is accepted must
 *  - be at most 4096 bytes, NUL-terminated, with no NUL inside;
 *  - re-encode with arg_encode() to the very same string (canonical:
 *    one spelling per byte string);
 *  - need exactly its length plus one of output space, no less.
 * A string not starting with 'a' must be refused as ARG_E_PREFIX.
 * As bytes it goes to arg_encode(): up to 4096 bytes with no NUL must
 * encode to the documented length and decode back to themselves; more
 * must be ARG_E_TOOLONG, a NUL must be ARG_E_NUL.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "proto/argcodec.h"

static char	out[START_MAX_ARGLEN + 1];
static char	enc[ARG_ENC_MAX + 1];

static void
check_decode(const char *s)
{
	int	r, e;

	r = arg_decode(s, out, sizeof(out));
	if (s[0] != 'a')
		PROP(r == ARG_E_PREFIX);
	if (r < 0) {
		/* The buffer holds any argument: never ARG_E_SPACE. */
		PROP(r >= ARG_E_NUL);
		return;
	}
	PROP(r <= START_MAX_ARGLEN);
	PROP(out[r] == '\0');
	PROP(r == 0 || memchr(out, '\0', (size_t)r) == NULL);

	e = arg_encode((const uint8_t *)out, (size_t)r, enc, sizeof(enc));
	PROP(e >= 0 && (size_t)e == strlen(s));
	PROP(strcmp(enc, s) == 0);

	PROP(arg_decode(s, out, (size_t)r + 1) == r);
	PROP(arg_decode(s, out, (size_t)r) == ARG_E_SPACE);
}

static void
check_encode(const uint8_t *data, size_t size)
{
	size_t	need;
	int	e, r;

	e = arg_encode(data, size, enc, sizeof(enc));
	if (size > START_MAX_ARGLEN) {
		PROP(e == ARG_E_TOOLONG);
		return;
	}
	if (size > 0 && memchr(data, '\0', size) != NULL) {
		PROP(e == ARG_E_NUL);
		return;
	}
	need = 1 + (size * 4 + 2) / 3;
	PROP(e >= 0 && (size_t)e == need && enc[need] == '\0');
	PROP(arg_encode(data, size, enc, need) == ARG_E_SPACE);
	PROP(arg_encode(data, size, enc, need + 1) == e);
	r = arg_decode(enc, out, sizeof(out));
	PROP(r >= 0 && (size_t)r == size);
	PROP(size == 0 || memcmp(out, data, size) == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char	*s;

	/* An exact-size copy, so reading past the NUL is an ASan error. */
	if ((s = malloc(size + 1)) == NULL)
		abort();
	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	check_decode(s);
	free(s);

	check_encode(data, size);
	return 0;
}
