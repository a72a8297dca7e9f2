/*
 * dbusd.h: the root parent's only link to systemd.  Runs as root inside
 * opencode-pty-supervisor.service; everything it reads comes from PID 1
 * over the system bus and is type-checked before use.  Signals are hints
 * that make the parent ask again; they are never proof of anything.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_DBUSD_H
#define OPTY_DBUSD_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

struct event_base;
struct dbusd;

struct client_ident {
	uint32_t	main_pid;
	char		active[32];
	char		sub[32];
	uint8_t		invocation[16];
	char		cgroup[256];
};

struct unit_state {
	int		loaded;		/* 0 = NoSuchUnit: gone */
	char		active[32];
	char		sub[32];
	char		result[64];
	int32_t		exec_code;
	int32_t		exec_status;
	uint64_t	exec_start_usec;	/* main process forked, or 0 */
	uint32_t	job_id;			/* pending job, or 0 */
};

struct unit_spec {
	const char		*name;
	/* the session unit its devpts instance is named from: its own,
	 * or the one of the slot's earlier session that made it */
	const char		*pts_of;
	uint32_t		 runtime_sec;	/* 0 = no limit */
	/* the PTY peer: stdin, stdout */
	int			 tty_fd;
	int			 dirsock_fd;	/* stderr: carries the cwd */
	uint32_t		 argc;
	const char *const	*argv;		/* NUL-terminated strings */
};

enum hint_kind {
	HINT_JOB_REMOVED,
	HINT_UNIT_CHANGED,
	HINT_SELF_JOB,		/* a job for the supervisor's own unit */
};

struct hint {
	enum hint_kind	kind;
	char		unit[128];
	char		job[128];	/* HINT_JOB_REMOVED, HINT_SELF_JOB */
	char		result[32];	/* HINT_JOB_REMOVED only */
};

typedef void (*dbusd_hint_cb)(const struct hint *, void *arg);
/*
 * Called after each request's callback and each hint, before the next
 * is delivered: the owner acts on what that one told it (or NULL).
 */
typedef void (*dbusd_settle_cb)(void *arg);

enum unit_method {
	UM_STOP,		/* StopUnit(name, "replace") */
	UM_RESET_FAILED,	/* ResetFailedUnit(name) */
	UM_UNREF,		/* UnrefUnit(name): AddRef's reference */
	UM_KILL,		/* KillUnit(name, "main", sig) */
	UM_PTS_STOP,		/* StopUnit of its devpts mount unit */
};

/*
 * A request to PID 1 that does not block the event loop: a _begin (or
 * dbusd_start, dbusd_unit_call) call sends it; once complete, its
 * callback gets it from the bus's event handler, never from inside the
 * call that sent it; the matching _end reads the answer.
 * dbusd_req_free() at any time, which cancels what is still pending.
 */
struct dbusd_req;
typedef void (*dbusd_req_cb)(struct dbusd_req *, void *arg);

/* Every int-returning call gives 0 (or a count) on success, -errno. */
int	dbusd_open(struct event_base *, dbusd_hint_cb, dbusd_settle_cb,
	    void *, struct dbusd **);
void	dbusd_req_free(struct dbusd_req *);
int	dbusd_client_ident_begin(struct dbusd *, dbusd_req_cb, void *,
	    struct dbusd_req **);
int	dbusd_client_ident_end(struct dbusd_req *, struct client_ident *);
int	dbusd_unit_state_begin(struct dbusd *, const char *, dbusd_req_cb,
	    void *, struct dbusd_req **);
int	dbusd_unit_state_end(struct dbusd_req *, struct unit_state *);
int	dbusd_start(struct dbusd *, const struct unit_spec *, dbusd_req_cb,
	    void *, struct dbusd_req **);
int	dbusd_start_end(struct dbusd_req *, char *, size_t);
int	dbusd_self_job_begin(struct dbusd *, dbusd_req_cb, void *,
	    struct dbusd_req **);
int	dbusd_self_job_end(struct dbusd_req *, char *, size_t);
/*
 * A method of a session unit (sig: UM_KILL's).  Without a request to
 * hand out it is not waited for: a failure other than "no such unit"
 * is logged.
 */
int	dbusd_unit_call(struct dbusd *, enum unit_method, const char *, int,
	    dbusd_req_cb, void *, struct dbusd_req **);
int	dbusd_unit_call_end(struct dbusd_req *);
/*
 * The devpts instance of a session unit: a transient mount unit whose
 * devices belong to uid and gid; answered as a start call
 * (dbusd_start_end).
 */
int	dbusd_pts_start(struct dbusd *, const char *, uid_t, gid_t,
	    dbusd_req_cb, void *, struct dbusd_req **);

/* Blocking forms: start-up sweep and shutdown only. */
int	dbusd_unit_state(struct dbusd *, const char *, struct unit_state *);
int	dbusd_unit_wait(struct dbusd *, enum unit_method, const char *);
int	dbusd_sweep_orphans(struct dbusd *);
void	dbusd_hint_stats(struct dbusd *, unsigned *, unsigned *, uint64_t *);
/* Manager.Version, read at open (dbusd/ident.c). */
const char *dbusd_pid1_version(const struct dbusd *);

/* The host paths a session sees under its private /run, "-" prefixed
 * (dbusd/props.c). */
extern const char *const	props_run_allow[];

/* Strict ^opencode-pty-[0-9a-f]{32}\.service$; 1 if valid, else 0. */
int	unit_name_valid(const char *);
/* A fresh random valid name; 0 or -errno. */
int	unit_name_new(char [64]);

/* A session's devpts mount: its unit and mount point (dbusd/name.c). */
struct pts_names {
	char	unit[64];
	char	where[96];
};
/* From a valid session unit name; 0 or -EINVAL. */
int	unit_pts_names(const char *, struct pts_names *);

#endif
