/*
 * session.h: one session of the root parent, owned by parent/session.c
 * (root).  Its state is the relay channel's enum sess_state
 * (proto/imsg.h), so the state the message table checks is the one
 * the transition table moves; only session.c assigns it.  The other
 * files keep the fields of their own step and tell session.c what
 * happened through parent_session_event() alone.
 */
#ifndef OPTY_PARENT_SESSION_H
#define OPTY_PARENT_SESSION_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "proto/imsg.h"
#include "dbusd/dbusd.h"

struct event;

/* What may happen to a session: the columns of session.c's table. */
enum parent_session_ev {
	PEV_NONE = 0,
	PEV_AUTH_REQ,		/* relay: a connection to admit */
	PEV_START_REQ,		/* relay: the start request */
	PEV_CLOSE_REQ,		/* relay: the client is gone */
	PEV_SIGNAL_REQ,		/* relay: a signal for the command */
	PEV_AUTH_DONE,		/* auth.c: an identity check ended (code) */
	PEV_UNIT_UP,		/* start.c: StartTransientUnit accepted */
	PEV_START_FAILED,	/* start.c: StartTransientUnit failed */
	PEV_JOB_DONE,		/* watch.c: the unit's start job ended */
	PEV_EXITED,		/* watch.c: main process reaped, unit quiet */
	PEV_GONE,		/* watch.c: the unit no longer exists */
};

struct session {
	uint32_t		 sid;
	enum sess_state		 state;		/* session.c only */
	/* session.c: events posted while a transition runs wait here. */
	int			 in_event;
	enum parent_session_ev	 ev_pending;
	int			 ev_code;
	int			 relay_end;	/* PTY master for the relay */
	pid_t			 client_pid;
	uint8_t			 invocation[16];	/* client's, at admission */
	char			 unit[64];
	char			 job[128];
	struct dbusd_req	*req;		/* the request to PID 1 in flight */

	/*
	 * The unit's own progress (start.c, watch.c).  A close may cross
	 * any of it, so it is not the session's state: a CLOSING session
	 * still has to see its start call answered, its start job end,
	 * its main process reaped and its unit gone.
	 */
	int			 unit_made;	/* a unit of that name may exist */
	int			 start_job;	/* its start job still runs */
	int			 exited;	/* main exit recorded in result */
	int			 stopping;	/* stop or reset requested */
	int			 stop_late;	/* the late stop was logged */
	int			 recheck;	/* state wanted again meanwhile */
	uint64_t		 stop_deadline;	/* CLOCK_MONOTONIC usec */
	struct unit_state	 result;	/* read once the main exited */
	struct event		*timer;		/* the next state read */

	/* start.c: built before the re-check, sent after it. */
	struct dbusd_req	*start_call;
	int			 start_code;	/* directory check, told after auth */

	/* auth.c: the identity checks. */
	int			 pidfd;		/* the admitted peer's */
	int			 auth_round;	/* which identity read is in flight */
	uint64_t		 auth_waiting;	/* queued admission's turn, or 0 */
	int			 auth_counted;	/* holds an admission read */
	pid_t			 auth_pid;	/* the peer being authenticated */
	struct client_ident	 auth_id;	/* its admission read */

	/* signal.c: one KillUnit in flight, the rest queued. */
	struct dbusd_req	*kill_req;
	uint8_t			 sigq[8];
	size_t			 sigq_n;

	/* journal.c: the session's record. */
	uint32_t		 runtime;
	uint32_t		 argc;
	char			 argv_hash[65];
	uint64_t		 started_usec;
	uint64_t		 bytes_in;
	uint64_t		 bytes_out;
};

void	parent_session_init(struct session *, uint32_t);
int	parent_session_event(struct session *, enum parent_session_ev,
	    struct imsg *, int);

#endif
