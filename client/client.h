/*
 * client.h: opencode-pty-client, the helper the Node service (user byk)
 * spawns to hand one start frame and the approved directory descriptor
 * to the supervisor.  Runs unprivileged as byk; trusts nothing it was
 * given (argv, descriptors) beyond what it checks here.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_CLIENT_H
#define OPTY_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "proto/frame.h"

#define CLIENT_FD_SOCK		3	/* connected supervisor socket */
#define CLIENT_FD_DIR		4	/* the approved directory */
#define CLIENT_FD_FIRST_EXTRA	5	/* anything from here up is a leak */

/*
 * Descriptor scan bounds (docs/CLIENT.md explains them): fcntl() sees
 * every descriptor, O_PATH ones included, but costs one system call per
 * number; poll() checks 1024 numbers per call but is blind to O_PATH.
 */
#define CLIENT_FD_EXACT_END	4096
#define CLIENT_FD_POLL_END	(1 << 20)	/* default fs.nr_open */
#define CLIENT_FD_POLL_CHUNK	1024

/* Exit statuses, documented in docs/CLIENT.md. */
#define CLIENT_EXIT_OK		0
#define CLIENT_EXIT_FDS		1	/* descriptor environment refused */
#define CLIENT_EXIT_USAGE	2	/* command line refused */
#define CLIENT_EXIT_SANDBOX	3	/* seccomp filter not installed */
#define CLIENT_EXIT_SEND	4	/* the frame could not be sent */
/* a descriptor above 4 was inherited: one another thread of the caller
 * had open for a moment may have leaked into this process (a caller
 * may run the helper once more: client/node/index.js) */
#define CLIENT_EXIT_EXTRA_FD	5

#define CLIENT_ERRLEN		256
/* An optional RESIZE frame (-s), then the start frame. */
#define CLIENT_RESIZE_FRAME	(FRAME_HDR_LEN + RESIZE_LEN)
#define CLIENT_FRAME_MAX	(CLIENT_RESIZE_FRAME + FRAME_HDR_LEN + \
				 FRAME_MAX_PAYLOAD)

struct client_opts {
	uint32_t	  runtime;	/* seconds, 0 = no -t given */
	uint16_t	  rows;		/* window size, 0 = no -s given */
	uint16_t	  cols;
	int		  argc;		/* command words */
	char *const	 *argv;		/* points into main()'s argv */
	uint16_t	  arglen[START_MAX_ARGS];
};

struct client_dir {
	uint64_t	dev;
	uint64_t	ino;
};

/* fdcheck.c */
/* 0; -2: a descriptor above 4 is open; -1: another refusal */
int	fd_check_all(struct client_dir *, char *, size_t);

/* cli.c */
int	cli_parse(int, char *const *, struct client_opts *, char *, size_t);

/* send.c */
int	client_frame(const struct client_opts *, const struct client_dir *,
	    uint8_t *, size_t, char *, size_t);

int	client_send(int, int, const uint8_t *, size_t, char *, size_t);

/* sandbox.c */
int	sandbox_enter(char *, size_t);

#endif
