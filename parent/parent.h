/*
 * parent.h: the root parent of opencode-pty-supervisor.  Runs as root,
 * holds the systemd bus connection, and never reads a client byte: all
 * it learns from clients comes from the kernel (peer credentials) and
 * from messages of the relay, which it treats as hostile.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_PARENT_H
#define OPTY_PARENT_H

#include <sys/types.h>

#include <stdint.h>
#include <time.h>

#include "proto/config.h"
#include "proto/imsg.h"
#include "dbusd/dbusd.h"
#include "parent/session.h"

struct event;
struct event_base;

#define POLL_FAST_USEC	20000		/* a job queued, stopping */
/*
 * While the start job runs its end is told by JobRemoved; the poll only
 * covers a lost signal.  Reading the unit meanwhile would take PID 1
 * away from starting it (a GetAll of .Service reads the cgroup's
 * counters).
 */
#define POLL_START_USEC	200000

struct parent {
	struct event_base	*base;
	struct dbusd		*bus;
	int			 relay_fd;	/* SEQPACKET channel */
	pid_t			 relay_pid;
	struct event		*relay_ev;
	struct session		 sessions[OPTY_MAX_SLOTS];
	int			 stopping;	/* shutting down */
	uint64_t		 auth_seq;	/* admission arrival order */
	int			 allow_dumpable; /* OPTY_ALLOW_DUMPABLE_ENV=1 */
	uid_t			 user_uid;	/* OPTY_USER */
	gid_t			 user_gid;
	gid_t			 tty_gid;	/* group of session terminals */
	/* features.c: what each session's Landlock domain holds */
	char			 landlock[192];
	int			 landlock_unscoped; /* below ABI 6, opted in */
};

extern struct parent *parent;

/* features.c: the operator's opt-in to Landlock below ABI 6. */
#define OPTY_ALLOW_UNSCOPED_ENV	"OPENCODE_PTY_ALLOW_LANDLOCK_UNSCOPED"

/* Refuses to start (fatalx) without what sessions need; before the relay. */
void	features_check(void);

/* privdrop.c */
void	parent_drop_privileges(void);

/*
 * pty.c: a session's terminal, from its devpts instance; the master
 * (non-blocking), *peerp the terminal for the unit, *whatp the failed
 * step.  pty_check(): start-up's probe, the group of terminals.
 */
struct pty_spec {
	uint16_t	rows;
	uint16_t	cols;
	uid_t		uid;		/* the session user */
	gid_t		tty_gid;
	const char	*pts_dir;	/* the session's devpts instance */
};
int	pty_open(const struct pty_spec *, int *, const char **);
gid_t	pty_check(void);

/* relayproc.c */
void	relayproc_start(int);
void	relayproc_lost(const char *) __attribute__((noreturn));

/* auth.c: each check ends in PEV_AUTH_DONE. */
void	auth_begin(struct session *, int);
void	auth_read(struct session *);
void	auth_drop(struct session *);

/* start.c: a failed call is PEV_START_FAILED. */
void	start_prepare(struct session *, struct imsg *);
int	start_send(struct session *, int);
int	start_unit(struct session *);
void	start_drop(struct session *);

/* pts.c: posts PEV_PTS_READY or PEV_START_FAILED. */
int	pts_begin(struct session *);
void	pts_end(struct session *);
void	pts_timer(int, short, void *);
void	pts_stop_all(void);

/*
 * What can happen to a unit.  From U_JOB_DONE on they come from one
 * state read, in this order (unit_seen()), so each decision rests on
 * facts read in the same pair of GetAll calls (Unit, then Service, which
 * PID 1 answers in that order).
 */
enum unit_input {
	U_CALLED,		/* start.c: StartTransientUnit sent */
	U_ACCEPTED,		/* PID 1 took it: a start job runs */
	U_REFUSED,		/* PID 1 refused it or did not answer */
	U_STOP,			/* the session no longer wants the command */
	U_JOB_DONE,		/* no job pending (or our job's JobRemoved) */
	U_MAIN_EXITED,		/* the main process was reaped, or never ran */
	U_QUIET,		/* no process of the unit is left */
	U_BUSY,			/* processes again, after it was quiet */
	U_ENDED,		/* gone, or inactive past the stop budget */
};

/* unit.c: posts PEV_JOB_DONE, PEV_EXITED, PEV_GONE, PEV_START_FAILED. */
void	unit_step(struct session *, enum unit_input);
void	unit_stop(struct session *);
int	unit_exited(const struct session *);
void	unit_timer(int, short, void *);
int	unit_hint(const struct hint *);

/* signal.c */
void	signal_request(struct session *, struct imsg *);
void	signal_late(struct session *, struct imsg *);
void	signal_end(struct session *);

/* shutdown.c: posts PEV_EXIT_CHECKED (parent_exit_check). */
void	parent_failclosed(void);
void	parent_shutdown(int, short, void *);
void	parent_shutdown_done(void);
void	parent_self_job(const char *);
int	parent_exit_check(struct session *);

/* status.c: the STATUS= line; a session's journal record */
void	parent_status(void);
void	journal_session(const struct session *);
void	argv_digest(const struct start_args *, char [65]);

/* CLOCK_MONOTONIC in microseconds. */
static inline uint64_t
now_usec(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

#endif
