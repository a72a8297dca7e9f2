/*
 * session.h: a session of the root parent, owned by parent/session.c
 * (root).  Its one state is the parent's own enum sess_state, which only
 * session.c assigns; session.c's table is the parent's one gate on which
 * relay request a state allows.  The files session.c calls keep their
 * own fields below and tell it what happened by parent_session_post()
 * only.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_PARENT_SESSION_H
#define OPTY_PARENT_SESSION_H

#include <sys/types.h>

#include <stdint.h>

#include "proto/imsg.h"
#include "dbusd/dbusd.h"

struct event;

/* A session's states, as the parent sees them. */
enum sess_state {
	SS_FREE = 0,		/* no session */
	SS_AUTH,		/* connection handed over, no answer yet */
	SS_ADMITTED,		/* admitted, waiting for the start frame */
	SS_STARTING,		/* start requested, unit not yet running */
	SS_RUNNING,		/* unit running, bytes flowing */
	SS_ENDED,		/* exit or start failure sent */
	SS_CLOSING,		/* close requested, unit being stopped */
	SS_NSTATES
};

/* The columns of session.c's table: what may happen to a session. */
enum parent_session_ev {
	PEV_NONE = 0,
	PEV_AUTH_REQ,		/* relay: a connection to admit */
	PEV_START_REQ,		/* relay: the start request */
	PEV_CLOSE_REQ,		/* relay: the client is gone */
	PEV_SIGNAL_REQ,		/* relay: a signal for the command */
	PEV_AUTH_DONE,		/* auth.c: an identity check ended (code) */
	PEV_START_FAILED,	/* unit.c, pts.c: a StartTransientUnit failed */
	PEV_PTS_READY,		/* pts.c: the session's devpts is mounted */
	PEV_JOB_DONE,		/* unit.c: the unit's start job ended */
	PEV_EXITED,		/* unit.c: main process reaped, unit quiet */
	PEV_GONE,		/* unit.c: the unit no longer exists */
	PEV_EXIT_CHECKED,	/* shutdown.c: our own unit's jobs read */
};

/* The phases of unit.c's table, in the order a unit goes through. */
enum unit_phase {
	UP_NONE = 0,		/* no unit of the name can exist */
	UP_CALLED,		/* StartTransientUnit in flight */
	UP_CALLED_STOP,		/* ... and a stop asked meanwhile */
	UP_JOB,			/* accepted: its start job runs */
	UP_RUNNING,		/* the command runs */
	UP_EXITED,		/* it ended; the reference dropped */
	UP_OVER,		/* and no process is left: PID 1 collects it */
	UP_STOPPING,		/* stopped on the session's wish */
	U_NPHASES
};

struct unit {
	enum unit_phase		 phase;
	char			 name[64];
	char			 job[128];	/* its start job */
	struct dbusd_req	*read;		/* the state read in flight */
	int			 reread;	/* a read asked meanwhile */
	struct unit_state	 seen;		/* the last read */
	struct unit_state	 result;	/* read once the main exited */
	uint64_t		 deadline;	/* once released: stop budget */
	uint64_t		 resend_at;	/* monotonic, us */
	int			 late;		/* overdue stop logged */
};

struct session {
	enum sess_state		 state;
	int			 relay_end;	/* PTY master for the relay */
	/* the peer's (SO_PEERCRED); its unit's invocation, at admission */
	pid_t			 client_pid;
	uint8_t			 invocation[16];
	/*
	 * unit.c: the session's transient unit, whose life is its own
	 * (a close may cross any of it, and a CLOSING session still waits
	 * for its start's answer, its job, its exit and its end).
	 */
	struct unit		 u;
	/*
	 * start.c: the request and directory kept from START_REQ until the
	 * terminal's instance is mounted; then the call, built and sent,
	 * in flight until PID 1 answers it.
	 */
	struct dbusd_req	*start_call;
	uint8_t			*start_msg;
	size_t			 start_len;
	int			 dirfd;
	/* directory check, told after auth */
	int			 start_code;
	/* pts.c: its instance's mount unit's start in flight, its wait */
	struct dbusd_req	*pts_req;
	uint64_t		 pts_deadline;	/* CLOCK_MONOTONIC usec */
	uint32_t		 pts_wait_usec;
	/* auth.c; a read outside an admission's turn is the start's. */
	int			 pidfd;		/* the admitted peer's */
	struct dbusd_req	*auth_req;	/* its identity read */
	uint64_t		 auth_admission; /* till its end; or 0 */
	/* SO_COOKIE of the connection the relay handed over for it */
	uint64_t		 conn_cookie;
	/* signal.c: one KillUnit in flight, the rest queued. */
	struct dbusd_req	*kill_req;
	uint8_t			 sigq[8];
	size_t			 sigq_n;
	/* status.c: the journal record */
	uint32_t		 runtime;
	uint32_t		 argc;
	char			 argv_hash[65];
	uint64_t		 bytes_in;
	uint64_t		 bytes_out;
	/*
	 * The slot's, kept by session_clear() (which zeroes all above):
	 * its id, unit.c's timer (the unit's next state read), pts.c's
	 * timer and devpts instance, which serves the next session: named
	 * from the unit that made it (pts_of, "" while no mount unit may
	 * exist).
	 */
	uint32_t		 sid;
	struct event		*u_timer;
	struct event		*pts_timer;
	struct pts_names	 pts;
	char			 pts_of[64];
	int			 pts_ready;	/* seen mounted by statfs */
	/* the slot's instance given up, removed at its next start */
	char			 pts_old[96];
};

/* session.c: the table, and the relay's door to it. */
void	parent_session_init(void);
void	parent_session_drain(void);
void	parent_dispatch_relay(int, short, void *);

/* sessq.c: the steps' news, queued for the table. */
struct sess_news {
	uint32_t		 sid;
	enum parent_session_ev	 ev;
	int			 code;
};
void	sessq_init(struct event_base *, void (*)(int, short, void *));
void	parent_session_post(struct session *, enum parent_session_ev, int);
const struct sess_news	*sessq_pop(void);

#endif
