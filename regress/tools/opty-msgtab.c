/*
 * opty-msgtab.c: test only, never installed.  Prints the parent-relay
 * message table the channel reads (proto/msgtab.c), one row per type,
 * in the words docs/IMSG.md uses, so regress/host/tables.sh can hold
 * the document to the code:
 *
 *	TYPE|DIRECTION|LENGTH|FD|SESSION ID
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdint.h>
#include <stdio.h>

#include "proto/imsg.h"

int
main(void)
{
	const struct msgtab_ent	*e;
	uint32_t		 t;

	for (t = 0; t < IMSG_TYPE_MAX; t++) {
		e = &msgtab[t];
		if (e->name == NULL)
			continue;
		printf("%s|%s|", e->name,
		    e->dir == TO_PARENT ? "relay→parent" : "parent→relay");
		if (e->minlen == e->maxlen)
			printf("%u|", e->minlen);
		else
			printf("%u..%u|", e->minlen, e->maxlen);
		printf("%s|", e->fd == FD_REQUIRED ? "required" : "none");
		printf("%s\n", e->scope == SCOPE_CHANNEL ?
		    "0 (channel-wide)" : "the session's");
	}
	return ferror(stdout) ? 1 : 0;
}
