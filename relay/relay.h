/*
 * relay.h: the slot of the opencode-pty relay, the unprivileged,
 * sandboxed process that parses every client frame and moves bytes
 * between client sockets and PTY masters (docs/RELAY.md), and the
 * functions of each of its files.  Layers, each calling only those
 * below it: relay.c (main) -> slot.c (the table, every state
 * change) -> pump.c (bytes) -> conn.c (the client socket); chan.c (the
 * channel to the root parent) is below slot.c and pump.c.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef RELAY_RELAY_H
#define RELAY_RELAY_H

#include <stddef.h>
#include <stdint.h>

#include "proto/config.h"
#include "proto/frame.h"
#include "proto/imsg.h"
#include "relay/intake.h"
#include "relay/outbuf.h"

struct event_base;
struct event;

#define RELAY_RAW_SIZE		4096	/* client bytes read at once */
#define RELAY_START_TIMEOUT	10	/* seconds from admission */
#define RELAY_MAX_RECV_FDS	4	/* room to see surplus descriptors */

/*
 * A slot's states, the relay's own: only slot.c assigns them.  The
 * relay has no ENDED (the parent's state after it told an exit): a
 * slot stays RUNNING until the exit frame is out, then goes CLOSING.
 */
enum slot_state {
	SLOT_FREE = 0,		/* no connection */
	SLOT_AUTH,		/* connection handed to the parent, no answer */
	SLOT_ADMITTED,		/* admitted, waiting for the start frame */
	SLOT_STARTING,		/* start requested, no master yet */
	SLOT_RUNNING,		/* master here, bytes flowing */
	SLOT_CLOSING,		/* close requested, waiting for CLOSED */
	SLOT_NSTATES
};

/* For log lines; inline so that pump.c need not call up into slot.c. */
static inline const char *
slot_state_name(enum slot_state st)
{
	static const char *const names[SLOT_NSTATES] = {
		[SLOT_FREE] = "FREE",
		[SLOT_AUTH] = "AUTH",
		[SLOT_ADMITTED] = "ADMITTED",
		[SLOT_STARTING] = "STARTING",
		[SLOT_RUNNING] = "RUNNING",
		[SLOT_CLOSING] = "CLOSING",
	};

	if ((unsigned int)st >= SLOT_NSTATES)
		return "unknown";
	return names[st];
}

/* One slot of the table in slot.c; its index is the session id. */
struct slot {
	uint32_t		 id;		/* == slot index */
	enum slot_state		 state;
	int			 cfd;		/* client connection or -1 */
	int			 sfd;		/* PTY master or -1 */

	struct event		*ev_cread;
	struct event		*ev_cwrite;
	struct event		*ev_cgone;	/* peer hung up */
	struct event		*ev_sread;
	struct event		*ev_swrite;
	struct event		*ev_timer;	/* start frame deadline */

	/* imsg queued in chan.c, or 0 */
	uint32_t		 pending;
	int			 start_sent;	/* START_REQ reached parent */
	/* pump the client input again */
	int			 resume;

	int			 got_exit;
	struct exit_info	 exit;
	int			 stream_eof;
	int			 stream_dead;	/* writes fail: drop input */
	int			 exit_queued;	/* exit frame in outbuf */
	/* supervisor stopping: flush, end */
	int			 shutdown;
	struct winsize_req	 ws;		/* the terminal's size */
	/* apply once the master is here */
	int			 ws_pending;
	uint8_t			 sigq[8];	/* signals for the parent */
	size_t			 sigq_n;
	size_t			 in_off;	/* input payload bytes sent */

	uint64_t		 bytes_in;
	uint64_t		 bytes_out;

	size_t			 raw_off;
	size_t			 raw_len;
	uint8_t			 raw[RELAY_RAW_SIZE];
	struct outbuf		 out;
	struct intake		 in;
};

/* slot.c: the slot table and every change of a session's state */
void	 slot_init(struct event_base *, int);
void	 slot_listen(void);
void	 slot_handle(struct imsg *);
void	 slot_start_sent(struct slot *);

/*
 * pump.c: bytes between a session's client and its PTY master.  It
 * changes no state; its result, for slot.c, is PUMP_WAIT, PUMP_START
 * or, >= 0, the end of the session with that error code for the client
 * (0: none).
 */
#define PUMP_WAIT	(-1)	/* nothing more to do now */
#define PUMP_START	(-2)	/* a valid start frame in ADMITTED */
int	 pump_input(struct slot *);
int	 pump_output(struct slot *);
int	 pump_master_read(struct slot *);
int	 pump_master_write(struct slot *);
int	 pump_exit(struct slot *);
void	 pump_resize(struct slot *, const struct winsize_req *);
void	 pump_watch(struct slot *);

/* conn.c: one client connection: reads, the held frame, last words */
int	 conn_read(struct slot *, uint16_t *);
int	 conn_flush(struct slot *);
void	 conn_send_frame(int, uint8_t, const uint8_t *, size_t);
void	 conn_send_error(int, uint16_t);

/* chan.c: the channel to the root parent (fd RELAY_FD_PARENT) */
typedef void	chan_msg_fn(struct imsg *);
typedef void	chan_sent_fn(struct slot *);
void	 chan_init(struct event_base *, int, chan_msg_fn *, chan_sent_fn *);
void	 chan_open(void);
void	 chan_queue(struct slot *, uint32_t);
void	 chan_shutdown_done(void);
uint16_t chan_code(const struct imsg *);
void	 chan_exit(const struct imsg *, struct exit_info *);

#endif
