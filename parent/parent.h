/*
 * parent.h: the root parent of opencode-pty-supervisor.  Runs as root,
 * holds the systemd bus connection, and never reads a client byte: all
 * it learns from clients comes from the kernel (peer credentials) and
 * from messages of the relay, which it treats as hostile.
 */
#ifndef OPTY_PARENT_H
#define OPTY_PARENT_H

#include <sys/types.h>

#include <stdint.h>

#include "proto/config.h"
#include "proto/imsg.h"
#include "dbusd/dbusd.h"

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

struct session {
	uint32_t		 sid;
	enum sess_state		 state;
	int			 relay_end;	/* PTY master for the relay */
	pid_t			 client_pid;
	uint8_t			 invocation[16];	/* client's, at admission */
	char			 unit[64];
	char			 job[128];
	int			 unit_made;	/* StartTransientUnit accepted */
	int			 start_job;	/* its start job still runs */
	int			 exited;	/* main process exit recorded */
	int			 stopping;	/* stop or reset requested */
	int			 stop_late;	/* budget passed, still waiting */
	uint64_t		 stop_deadline;	/* CLOCK_MONOTONIC usec */
	struct unit_state	 result;	/* read once the main exited */
	struct dbusd_req	*req;		/* the request to PID 1 in flight */
	struct dbusd_req	*start_call;	/* sent once re-authenticated */
	struct dbusd_req	*kill_req;	/* KillUnit in flight */
	uint8_t			 sigq[8];	/* signals waiting for it */
	size_t			 sigq_n;
	int			 start_code;	/* directory check, told after auth */
	int			 recheck;	/* state wanted again meanwhile */
	int			 pidfd;		/* the admitted peer's */
	int			 auth_round;	/* which identity read is in flight */
	uint64_t		 auth_waiting;	/* queued admission's turn, or 0 */
	int			 auth_counted;	/* holds an admission read */
	pid_t			 auth_pid;	/* the peer being authenticated */
	struct client_ident	 auth_id;	/* its admission read */
	uint32_t		 runtime;
	uint32_t		 argc;
	char			 argv_hash[65];
	uint64_t		 started_usec;
	uint64_t		 bytes_in;
	uint64_t		 bytes_out;
	struct event		*timer;
};

struct parent {
	struct event_base	*base;
	struct dbusd		*bus;
	int			 relay_fd;	/* SEQPACKET channel */
	pid_t			 relay_pid;
	struct event		*relay_ev;
	struct session		 sessions[OPTY_MAX_SLOTS];
	int			 stopping;	/* shutting down */
	int			 auth_inflight;	/* admission reads, all uid user_uid */
	uint64_t		 auth_seq;	/* admission arrival order */
	int			 allow_dumpable; /* OPTY_ALLOW_DUMPABLE_ENV=1 */
	uid_t			 user_uid;	/* OPTY_USER */
	gid_t			 user_gid;
	gid_t			 tty_gid;	/* group of session terminals */
};

extern struct parent *parent;

/* listen.c */
int	parent_listen(void);
void	parent_make_rundir(void);

/* relayproc.c */
pid_t	relay_spawn(int, int, int);
void	relay_reap(int, short, void *);
void	relay_lost(const char *) __attribute__((noreturn));

/* dispatch.c */
void	parent_dispatch_relay(int, short, void *);
void	parent_send(struct session *, uint32_t, int, const void *, size_t);

/* auth.c */
void	auth_begin(struct session *, int);
void	auth_revalidate(struct session *);
void	auth_drop(struct session *);

/* admit.c, start.c, watch.c */
void	session_auth_req(struct session *, struct imsg *);
void	session_authed(struct session *, int);
void	session_start_req(struct session *, struct imsg *);
void	start_authed(struct session *, int);
void	session_close_req(struct session *, struct imsg *);
void	session_signal_req(struct session *, struct imsg *);
void	session_hint(const struct hint *, void *);
void	session_arm(struct session *, uint64_t);
void	session_check(struct session *);
void	session_reset(struct session *);
void	session_init(struct session *, uint32_t);
void	session_stop(struct session *);
void	session_closed(struct session *);
int	session_live_count(void);

/* shutdown.c */
void	parent_stop_all(void);
void	parent_failclosed(void);
void	parent_shutdown(int, short, void *);
void	parent_shutdown_done(struct session *, struct imsg *);
void	parent_self_job(const char *);

/* status.c */
void	parent_status(void);

/* journal.c */
void	journal_session(const struct session *);
void	argv_digest(const struct start_args *, char [65]);

uint64_t now_usec(void);

#endif
