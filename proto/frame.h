/*
 * frame.h: the client wire protocol (docs/PROTOCOL.md).  Used by the
 * relay (untrusted input) and the client helper; never linked into the
 * root parent.  All integers are big-endian on the wire.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_FRAME_H
#define OPTY_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_MAGIC		"OPTY"
#define FRAME_VERSION		1
#define FRAME_HDR_LEN		12
#define FRAME_MAX_PAYLOAD	65536u
#define FRAME_MAX_INPUT		32768u	/* input and output payloads */

#define START_FIXED_LEN		22	/* dev 8, ino 8, runtime 4, argc 2 */
#define START_MAX_ARGS		128
#define START_MAX_ARGLEN	4096
#define START_MAX_RUNTIME	3600

#define EXIT_FIXED_LEN		9	/* code 1, status 4, result length 4 */
#define EXIT_MAX_RESULT		64
#define ERROR_FIXED_LEN		4	/* code 2, text length 2 */
#define ERROR_MAX_TEXT		256

#define RESIZE_LEN		4	/* rows 2, cols 2 */
#define WINSIZE_MAX		4096	/* rows and cols are 1..4096 */
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

/* Decoder results: 0 is success, each rule its own negative code. */
enum frame_status {
	FRAME_OK = 0,
	FRAME_E_MAGIC = -1,
	FRAME_E_VERSION = -2,
	FRAME_E_RESERVED = -3,
	FRAME_E_TYPE = -4,
	FRAME_E_TOOLARGE = -5,	/* payload length over the type's cap */
	FRAME_E_TRUNCATED = -6,
	FRAME_E_TRAILING = -7,
	FRAME_E_ARGC = -8,
	FRAME_E_ARGLEN = -9,
	FRAME_E_EMPTYARG0 = -10,
	FRAME_E_NUL = -11,
	FRAME_E_RUNTIME = -12,
	FRAME_E_STRING = -13,	/* result/text string over its bound */
	FRAME_E_SPACE = -14,	/* encoder: output buffer too small */
	FRAME_E_WINSIZE = -15,	/* rows or cols not 1..4096 */
	FRAME_E_SIGNAL = -16,	/* signal not in the allowed set */
};

/*
 * Error frame codes: stable numbers a client may act on.  The text is
 * for people; see docs/PROTOCOL.md for the meaning of each code.
 */
enum frame_error {
	ERR_PROTOCOL = 1,	/* malformed frame */
	ERR_UNEXPECTED = 2,	/* valid frame not allowed in this state */
	ERR_BUSY = 3,		/* 16 sessions live */
	ERR_AUTH_PEER = 4,	/* no SO_PEERCRED / SO_PEERPIDFD */
	ERR_AUTH_PID = 5,	/* peer is not the client service's MainPID */
	ERR_AUTH_STATE = 6,	/* client service not active/running */
	ERR_AUTH_CGROUP = 7,	/* client service cgroup not the expected one */
	ERR_AUTH_CHANGED = 8,	/* client identity changed while checked */
	ERR_FD_MISSING = 9,	/* start frame without a descriptor */
	ERR_FD_EXTRA = 10,	/* more than one descriptor */
	ERR_NOTDIR = 11,	/* descriptor is not a directory */
	ERR_DIR_MISMATCH = 12,	/* st_dev/st_ino differ from the frame */
	ERR_START = 13,		/* systemd refused or failed the unit */
	ERR_INTERNAL = 14,	/* supervisor-side failure (e.g. bus down) */
	ERR_SHUTDOWN = 15,	/* supervisor is stopping */
	ERR_AUTH_DUMPABLE = 16,	/* client attachable by any same-uid process */
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
int	exit_encode(const struct exit_info *, uint8_t *, size_t);
int	error_encode(uint16_t, const char *, uint8_t *, size_t);
int	resize_decode(const uint8_t *, size_t, struct winsize_req *);
int	resize_encode(const struct winsize_req *, uint8_t *, size_t);
int	signal_decode(const uint8_t *, size_t, uint8_t *);
int	winsize_valid(uint32_t, uint32_t);
int	signal_allowed(uint32_t);	/* the fixed set of frame type 7 */
const char *frame_strerror(int);	/* text of an enum frame_status */
const char *frame_error_text(uint16_t); /* default text of an ERR_ code */

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
