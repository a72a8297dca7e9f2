/*
 * opty-msgtab.c: test only, never installed.  Prints the parent-relay
 * message table the channel reads (proto/msgtab.c), one row per type,
 * in the words docs/IMSG.md uses, so regress/host/tables.sh can hold
 * the document to the code:
 *
 *	TYPE|DIRECTION|LENGTH|FD|RECEIVER STATES
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdint.h>
#include <stdio.h>

#include "proto/imsg.h"

static void
print_states(uint32_t states)
{
	const char	*sep = "";
	int		 s;

	if (states == SS_ANY) {
		printf("any (channel-wide)");
		return;
	}
	for (s = 0; s < SS_NSTATES; s++)
		if (states & SS_BIT(s)) {
			printf("%s%s", sep, sess_state_names[s]);
			sep = ", ";
		}
}

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
		print_states(e->states);
		printf("\n");
	}
	return ferror(stdout) ? 1 : 0;
}
