/*
 * frame.h: the client wire protocol (docs/PROTOCOL.md).  Used by the
 * relay (untrusted input) and the client helper; never included by the
 * root parent, which needs only the facts in wire.h.  All integers are
 * big-endian on the wire.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_FRAME_H
#define OPTY_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "proto/wire.h"

#define FRAME_MAGIC		"OPTY"
#define FRAME_VERSION		1
#define FRAME_HDR_LEN		12
#define FRAME_MAX_INPUT		32768u	/* input and output payloads */

#define START_FIXED_LEN		22	/* dev 8, ino 8, runtime 4, argc 2 */

#define EXIT_FIXED_LEN		9	/* code 1, status 4, result length 4 */
#define ERROR_FIXED_LEN		4	/* code 2, text length 2 */
#define ERROR_MAX_TEXT		256

#define RESIZE_LEN		4	/* rows 2, cols 2 */
#define WINSIZE_ROWS_DEFAULT	24	/* without a resize before start */
#define WINSIZE_COLS_DEFAULT	80
#define SIGNAL_LEN		1	/* one signal number */

enum frame_type {
	FRAME_START = 1,
	FRAME_INPUT = 2,
	FRAME_OUTPUT = 3,
	FRAME_EXIT = 4,
	FRAME_ERROR = 5,
	FRAME_RESIZE = 6,
	FRAME_SIGNAL = 7,
};

struct frame_hdr {
	uint8_t		type;
	uint32_t	len;
};

struct start_req {
	uint64_t	 dev;
	uint64_t	 ino;
	uint32_t	 runtime;		/* seconds, 0 = no limit */
	uint16_t	 argc;
	const uint8_t	*argv[START_MAX_ARGS];	/* not NUL-terminated */
	uint16_t	 arglen[START_MAX_ARGS];
	uint16_t	 rows;		/* not on the wire: from RESIZE */
	uint16_t	 cols;
};

struct winsize_req {
	uint16_t	rows;		/* 1..WINSIZE_MAX */
	uint16_t	cols;
};

struct exit_info {
	uint8_t		code;		/* ExecMainCode (CLD_*) */
	uint32_t	status;		/* ExecMainStatus */
	char		result[EXIT_MAX_RESULT + 1];	/* systemd Result */
};

/* Header: decode checks magic, version, reserved, type and cap. */
int	frame_hdr_decode(const uint8_t *, size_t, struct frame_hdr *);
void	frame_hdr_encode(uint8_t [FRAME_HDR_LEN], uint8_t, uint32_t);

/* Payload codecs; encoders return the length written or FRAME_E_SPACE. */
int	start_decode(const uint8_t *, size_t, struct start_req *);
int	start_encode(const struct start_req *, uint8_t *, size_t);
/* The IMSG_START_REQ payload (imsg.h) of a checked start (startenc.c). */
int	msg_start_encode(const struct start_req *, uint8_t *, size_t);
int	exit_encode(const struct exit_info *, uint8_t *, size_t);
int	error_encode(uint16_t, const char *, uint8_t *, size_t);
int	resize_decode(const uint8_t *, size_t, struct winsize_req *);
int	resize_encode(const struct winsize_req *, uint8_t *, size_t);
int	signal_decode(const uint8_t *, size_t, uint8_t *);
const char *frame_strerror(int);	/* text of an enum frame_status */

/*
 * Incremental reader for a non-blocking stream: feed it whatever bytes
 * arrived; it returns how many it consumed and sets *ready once one
 * whole, valid frame is in fr->hdr / fr->payload.  Call
 * frame_reader_next() after handling that frame.  A negative return is
 * an enum frame_status and the stream is then unusable.
 */
struct frame_reader {
	uint8_t			hbuf[FRAME_HDR_LEN];
	size_t			hhave;
	struct frame_hdr	hdr;
	size_t			have;	/* payload bytes held */
	int			ready;
	uint8_t			payload[FRAME_MAX_PAYLOAD];
};

void	frame_reader_init(struct frame_reader *);
long	frame_reader_feed(struct frame_reader *, const uint8_t *, size_t);
void	frame_reader_next(struct frame_reader *);

#endif
