/*
 * priv.h: the inside of the root parent's D-Bus layer, shared by the
 * dbusd/ files only.  Nothing here is visible to the rest of the parent.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#ifndef OPTY_DBUSD_PRIV_H
#define OPTY_DBUSD_PRIV_H

#include <sys/queue.h>
#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include <systemd/sd-bus.h>

#include "dbusd/dbusd.h"

/* match.c: the bounded queue of signal hints, empty when all zero. */
#define HINTQ_BOUND	32

struct hintq {
	struct hint	ring[HINTQ_BOUND];
	unsigned	head;		/* index of the oldest hint */
	unsigned	depth;
	uint64_t	dropped;	/* arrived while full */
};

#define SD_DEST		"org.freedesktop.systemd1"
#define SD_PATH		"/org/freedesktop/systemd1"
#define SD_MANAGER	"org.freedesktop.systemd1.Manager"
#define SD_UNIT		"org.freedesktop.systemd1.Unit"
#define SD_SERVICE	"org.freedesktop.systemd1.Service"
#define SD_UNIT_PATH	"/org/freedesktop/systemd1/unit"
#define SD_NOSUCHUNIT	"org.freedesktop.systemd1.NoSuchUnit"
#define SD_NOTREFERENCED "org.freedesktop.systemd1.NotReferenced"
#define DBUS_PROPS	"org.freedesktop.DBus.Properties"

/* A hung PID 1 must not freeze the parent's event loop for 25 s. */
#define DBUSD_CALL_USEC	(10ULL * 1000000)

struct event;

#define REQ_MAX_CALLS	10	/* one Get per property of a read */

/*
 * Calls of ours waiting for a reply, at most.  The system bus refuses a
 * call outright (LimitsExceeded) from a connection that already waits
 * for max_replies_per_connection replies: 128 in Debian's system.conf.
 * The rest is for the calls made outside requests (the AddMatch calls
 * at open) and for calls of freed requests: the bus counts those until
 * PID 1 answers them, the budget from the moment they are cancelled.
 * A bus set up lower teaches the budget its own limit (req.c).
 */
#define REQ_INFLIGHT_MAX	100

enum req_kind {
	REQ_CALL,		/* a method call */
	REQ_GETALL,		/* Properties.GetAll, one per interface */
	REQ_GET,		/* Properties.Get, one per property */
};

/* One request to PID 1 (req.c); the owner frees it, which cancels it. */
struct dbusd_req {
	struct dbusd		*d;
	TAILQ_ENTRY(dbusd_req)	 entry;		/* on d->done once complete */
	/* on d->waiting while it holds calls not sent (nsent < ncalls) */
	TAILQ_ENTRY(dbusd_req)	 wentry;
	enum req_kind		 kind;
	sd_bus_message		*call[REQ_MAX_CALLS];	/* until sent */
	sd_bus_slot		*slot[REQ_MAX_CALLS];
	sd_bus_message		*reply[REQ_MAX_CALLS];
	int			 err[REQ_MAX_CALLS];	/* send failed */
	size_t			 ncalls;
	size_t			 nsent;
	size_t			 nreplies;
	int			 complete;
	int			 delivered;
	dbusd_req_cb		 cb;		/* NULL: log a failure, free */
	void			*arg;
	char			 what[96];	/* for that log line */
};

TAILQ_HEAD(req_list, dbusd_req);

struct dbusd {
	sd_bus			*bus;
	struct event_base	*base;
	struct event		*ev_read;
	struct event		*ev_write;
	struct event		*ev_timer;	/* sd_bus_get_timeout() */
	struct event		*ev_kick;	/* run sd_bus_process() soon */
	dbusd_hint_cb		 cb;
	dbusd_settle_cb		 settle;
	void			*cb_arg;
	struct hintq		 q;
	struct req_list		 done;		/* complete, not delivered */
	struct req_list		 waiting;	/* calls held for the budget */
	size_t			 inflight;	/* calls waiting for a reply */
	size_t			 budget;	/* inflight at most */
	char			 owner[64];	/* unique name of systemd1 */
	char			 pid1_version[64]; /* read once at open */
};

/*
 * One property as PID 1 sent it: the interface and name that were asked
 * for, and the value with the type it actually had.  Pointers refer into
 * the reply message, which must outlive the value.
 */
struct prop_value {
	const char	*iface;
	const char	*name;
	char		 sig[16];	/* signature inside the variant */
	union {
		const char	*s;	/* "s", "o" */
		uint32_t	 u;	/* "u", "(uo)": the job id */
		int32_t		 i;	/* "i" */
		uint64_t	 t;	/* "t" */
		const void	*ay;	/* "ay" */
	}		 val;		/* read by its type code */
	size_t		 aylen;
};

/* Where a decoded property lands in a result structure. */
struct prop_want {
	const char	*iface;
	const char	*name;
	const char	*sig;		/* "s", "u", "i", "t", "ay", "(uo)" */
	size_t		 off;
	size_t		 size;		/* "s": buffer; "ay": exact length */
};

/*
 * props.c: the transient unit property sets, built; a complete
 * StartTransientUnit call, ready to send, for a session unit or its
 * devpts mount unit.  And the decoding of properties read back.  No bus
 * I/O.
 */
int	props_start_message(sd_bus *, const struct unit_spec *,
	    sd_bus_message **);
int	props_pts_message(sd_bus *, const struct pts_names *, uid_t, gid_t,
	    sd_bus_message **);
int	props_decode(const struct prop_want *, size_t,
	    const struct prop_value *, size_t, void *);
int	prop_read_variant(sd_bus_message *, const char *, const char *,
	    struct prop_value *);

/* req.c: the request layer, below bus.c; and the calls built on it */
void	req_init(struct dbusd *);
void	req_kick(struct dbusd *);
struct dbusd_req *req_new(struct dbusd *, dbusd_req_cb, void *);
int	req_call(struct dbusd_req *, sd_bus_message *);
int	req_result(const struct dbusd_req *, size_t, sd_bus_message **);
void	req_deliver(struct dbusd *);
int	req_wait(struct dbusd_req *, sd_bus_message **);
int	call_add(struct dbusd_req *, const char *, const char *, const char *,
	    const char *, ...);
int	call_done(struct dbusd_req *, int, struct dbusd_req **);
int	call_get_begin(struct dbusd *, const char *, const struct prop_want *,
	    size_t, enum req_kind, dbusd_req_cb, void *, struct dbusd_req **);
int	call_get_values(struct dbusd_req *, const struct prop_want *,
	    size_t, struct prop_value [REQ_MAX_CALLS * 2], size_t *);

/* ident.c: Manager.Version, at open */
int	pid1_probe(struct dbusd *);

/* match.c */
int	match_add_all(struct dbusd *);
int	match_owner_lookup(struct dbusd *);
void	match_deliver(struct dbusd *);

#endif
