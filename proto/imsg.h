/*
 * imsg.h: the parent-relay message channel.  One message per
 * SOCK_SEQPACKET packet: a fixed header, a payload, at most one
 * descriptor.  Every received message is checked (imsg.c) against the
 * one table, the data in msgtab.c, before anybody looks at it.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_IMSG_H
#define OPTY_IMSG_H

#include <stddef.h>
#include <stdint.h>

#include "proto/wire.h"

#define IMSG_HDR_LEN		12
/* The largest START_REQ. */
#define IMSG_MAX_PAYLOAD	(32 + FRAME_MAX_PAYLOAD)

struct imsg_hdr {
	uint32_t	type;
	uint32_t	len;		/* payload bytes after the header */
	uint32_t	sid;		/* slot id, 0..OPTY_MAX_SLOTS-1 */
};

struct imsg {
	struct imsg_hdr	hdr;
	int		fd;		/* -1 when none */
	uint8_t		data[IMSG_MAX_PAYLOAD];
};

/* Message types; requests and their answers are named in pairs. */
enum imsg_type {
	IMSG_AUTH_REQ = 1,	/* relay->parent, fd: accepted connection */
	IMSG_AUTH_OK,		/* parent->relay */
	IMSG_AUTH_DENY,		/* parent->relay, struct imsg_code */
	IMSG_START_REQ,		/* relay->parent, fd: directory, msg_start */
	IMSG_START_OK,		/* parent->relay, fd: the PTY's master */
	IMSG_START_FAIL,	/* parent->relay, struct imsg_code */
	IMSG_EXIT,		/* parent->relay, struct imsg_exit */
	IMSG_CLOSE_REQ,		/* relay->parent, struct imsg_close */
	IMSG_CLOSED,		/* parent->relay */
	IMSG_SIGNAL_REQ,	/* relay->parent, struct imsg_signal */
	IMSG_SHUTDOWN,		/* parent->relay, session 0: end every client */
	/* relay->parent, session 0: every client told */
	IMSG_SHUTDOWN_DONE,
	IMSG_TYPE_MAX
};

enum imsg_dir {
	TO_PARENT = 1,
	TO_RELAY = 2,
};

enum imsg_fdrule {
	FD_NONE = 0,
	FD_REQUIRED = 1,
};

/* A channel-wide message names no session: its session id is 0. */
enum imsg_scope {
	SCOPE_SESSION = 0,
	SCOPE_CHANNEL = 1,
};

/*
 * The channel's facts about one type.  Which session state allows it
 * is each receiver's own table (parent/session.c, relay/slot.c).
 */
struct msgtab_ent {
	const char		*name;
	enum imsg_dir		 dir;
	uint32_t		 minlen;	/* == maxlen for fixed-size */
	uint32_t		 maxlen;
	enum imsg_fdrule	 fd;
	enum imsg_scope		 scope;
};

/* Fixed payloads (host byte order: both ends are one machine). */
struct imsg_code {
	uint32_t	code;		/* enum frame_error */
};

struct imsg_exit {
	uint32_t	code;		/* ExecMainCode */
	uint32_t	status;		/* ExecMainStatus */
	char		result[EXIT_MAX_RESULT];	/* NUL-terminated */
};

struct imsg_signal {
	uint32_t	signo;		/* signal_allowed() */
};

struct imsg_close {
	uint64_t	bytes_in;	/* client -> command */
	uint64_t	bytes_out;	/* command -> client */
};

/*
 * IMSG_START_REQ payload: this fixed part, then argc NUL-terminated
 * strings (each <= START_MAX_ARGLEN bytes, the first non-empty), and
 * nothing after the last NUL.
 */
struct msg_start {
	uint64_t	dev;
	uint64_t	ino;
	uint32_t	runtime;
	uint32_t	argc;
	uint16_t	rows;		/* the PTY's first size, 1..4096 */
	uint16_t	cols;
	uint32_t	zero;		/* must be 0 */
};

struct start_args {
	struct msg_start	 fixed;
	const char		*argv[START_MAX_ARGS];	/* into the payload */
};

/* Receive results: 1 = a message, 0 = EOF, negative = the reason. */
enum imsg_status {
	IMSG_E_IO = -1,		/* recvmsg failed; errno is set */
	IMSG_E_TRUNC = -2,	/* MSG_TRUNC: packet larger than the max */
	IMSG_E_CTRUNC = -3,	/* MSG_CTRUNC: control data cut */
	IMSG_E_CMSG = -4,	/* control message not SCM_RIGHTS */
	IMSG_E_NFDS = -5,	/* more than one descriptor */
	IMSG_E_SHORT = -6,	/* shorter than the header */
	IMSG_E_LENGTH = -7,	/* header length != packet payload */
	IMSG_E_TYPE = -8,	/* unknown type */
	IMSG_E_DIR = -9,	/* type not sent in this direction */
	IMSG_E_SIZE = -10,	/* payload length not allowed for type */
	IMSG_E_FD_UNEXPECTED = -11,
	IMSG_E_FD_MISSING = -12,
	IMSG_E_SID = -13,	/* session id out of range */
};

/* The table (msgtab.c, data only), indexed by type. */
extern const struct msgtab_ent	msgtab[IMSG_TYPE_MAX];

const char *imsg_type_name(uint32_t);
const char *imsg_strerror(int);

int	imsg_send(int, uint32_t, uint32_t, int, const void *, size_t);
int	imsg_recv(int, enum imsg_dir, struct imsg *);

/* The root parent's decoder; the relay's encoder is in frame.h. */
int	msg_start_decode(const uint8_t *, size_t, struct start_args *);

#endif
