/*
 * dirtake.h: the launcher's side of the directory message (cmsgfd.h):
 * taking the approved directory from the socket on its fd 2.  The root
 * parent, which only sends, does not include it.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_DIRTAKE_H
#define OPTY_DIRTAKE_H

enum dirsock_status {
	DS_OK = 0,
	DS_E_NOTSOCK = -1,	/* the descriptor is not a socket (err) */
	DS_E_PEER = -2,		/* its peer is not root (err) */
	DS_E_RECV = -3,		/* recvmsg failed or hit EOF (err) */
	DS_E_TRUNC = -4,	/* control data truncated (MSG_CTRUNC) */
	DS_E_BYTE = -5,		/* not exactly the one expected byte */
	DS_E_NOFD = -6,		/* no descriptor came with it */
	DS_E_FDS = -7,		/* more than one descriptor, or foreign data */
	DS_E_NOTDIR = -8,	/* the descriptor is not a directory */
};

/*
 * Launcher: takes the directory from sock.  The directory (close-on-exec)
 * or an enum dirsock_status; *errp is the errno where one applies, else 0.
 * Nothing received is kept on failure.
 */
int	dirsock_take(int, int *);
const char *dirsock_strerror(int);

#endif
