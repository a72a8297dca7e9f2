/*
 * opty-dbusprobe.c: test-only tool, never installed.  Runs as root inside
 * the disposable test container and trusts its command line.  Drives the
 * root parent's D-Bus layer (dbusd/) against the real PID 1 so that
 * regress/it/30-dbusd.sh can compare what it does with what systemd says.
 *
 *	opty-dbusprobe ident
 *	opty-dbusprobe state UNIT
 *	opty-dbusprobe stop UNIT		(StopUnit, then ResetFailedUnit)
 *	opty-dbusprobe sweep
 *	[OPTY_PROBE_RUNTIME=SEC] [OPTY_PROBE_INPUT=LINE] [OPTY_PROBE_HOLD=FILE]
 *	    opty-dbusprobe start-launcher DIR ARG...
 *
 * start-launcher gives the unit a terminal made as the parent makes one
 * (parent/pty.c) in a devpts instance mounted as the parent has it
 * mounted (parent/pts.c; stopped again before the probe exits), writes $OPTY_PROBE_INPUT and a newline to its master
 * once the start job is over (systemd 252 discards earlier input when it
 * sets the terminal up) if set, prints "unit=NAME", waits (in the libevent loop, woken
 * by hints and a poll timer) until the main process has exited and the
 * unit is inactive or failed, copies the stream to stdout meanwhile,
 * prints the state and the hint counts.  The unit was started with the
 * parent's AddRef=yes: it stays loaded for inspection while this process
 * lives, which with OPTY_PROBE_HOLD is until FILE exists (at most 60 s).
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

/* NOLINTNEXTLINE(bugprone-suspicious-include): bus_free() is static */
#include "dbusd/bus.c"
#include "dbusd/dbusd.h"
#include "parent/parent.h"
#include "proto/cmsgfd.h"
#include "proto/config.h"
#include "proto/log.h"

#define WAIT_SEC	30

struct probe {
	struct event_base	*base;
	struct dbusd		*d;
	const char		*unit;
	char			 name[64];	/* start-launcher's unit */
	char			 job[128];
	struct event		*ev_poll, *ev_stream;
	int			 stream;
	int			 done;
	int			 req_done;
	int			 polls;
	char			 last;		/* last byte copied */
	unsigned		 hints_job, hints_changed;
	struct unit_state	 st;
};

static void
usage(void)
{
	fprintf(stderr, "usage: opty-dbusprobe ident | state UNIT | "
	    "stop UNIT | sweep |\n"
	    "       start-launcher DIR ARG...   (env OPTY_PROBE_RUNTIME=SEC)\n");
	exit(2);
}

static void
print_state(const char *unit, const struct unit_state *st)
{
	printf("unit=%s loaded=%d active=%s sub=%s result=%s exec_code=%d "
	    "exec_status=%d\n", unit, st->loaded, st->active,
	    st->sub, st->result, st->exec_code, st->exec_status);
}

static void
probe_req_done(struct dbusd_req *req, void *arg)
{
	struct probe	*p = arg;

	(void)req;
	p->req_done = 1;
}

/*
 * The loop runs until the request has its answer: the supervisor ships
 * no blocking form of these calls, so the probe waits as its loop would.
 */
static int
probe_wait(struct probe *p)
{
	p->req_done = 0;
	while (!p->req_done)
		if (event_base_loop(p->base, EVLOOP_ONCE) == -1)
			return -EIO;
	return 0;
}

static int
cmd_ident(struct probe *p)
{
	struct client_ident	id;
	struct dbusd_req	*req;
	int			r, i;

	memset(&id, 0, sizeof(id));
	if ((r = dbusd_client_ident_begin(p->d, probe_req_done, p,
	    &req)) == 0) {
		if ((r = probe_wait(p)) == 0)
			r = dbusd_client_ident_end(req, &id);
		dbusd_req_free(req);
	}
	if (r < 0) {
		printf("error=%d %s\n", r, strerror(-r));
		return 1;
	}
	printf("main_pid=%u active=%s sub=%s cgroup=%s invocation=",
	    id.main_pid, id.active, id.sub, id.cgroup);
	for (i = 0; i < 16; i++)
		printf("%02x", id.invocation[i]);
	printf("\n");
	return 0;
}

static int
cmd_state(struct dbusd *d, const char *unit)
{
	struct unit_state	st;
	int			r;

	if ((r = dbusd_unit_state(d, unit, &st)) < 0) {
		printf("error=%d %s\n", r, strerror(-r));
		return 1;
	}
	print_state(unit, &st);
	return 0;
}

static int
cmd_stop(struct dbusd *d, const char *unit)
{
	int	r;

	if ((r = dbusd_unit_wait(d, UM_STOP, unit)) < 0 ||
	    (r = dbusd_unit_wait(d, UM_RESET_FAILED, unit)) < 0) {
		printf("error=%d %s\n", r, strerror(-r));
		return 1;
	}
	printf("stopped=%s\n", unit);
	return 0;
}

static int
cmd_sweep(struct dbusd *d)
{
	int	r;

	if ((r = dbusd_sweep_orphans(d)) < 0) {
		printf("error=%d %s\n", r, strerror(-r));
		return 1;
	}
	printf("stopped=%d\n", r);
	return 0;
}

/* The main process has exited and the unit is over (or gone): results
 * are final. */
static void
probe_check(struct probe *p)
{
	if (dbusd_unit_state(p->d, p->unit, &p->st) < 0)
		return;
	if (!p->st.loaded || strcmp(p->st.active, "failed") == 0 ||
	    (p->st.exec_code != 0 && strcmp(p->st.active, "inactive") == 0)) {
		p->done = 1;
		event_base_loopexit(p->base, NULL);
	}
}

static void
on_hint(const struct hint *h, void *arg)
{
	struct probe	*p = arg;

	if (p->unit == NULL || strcmp(h->unit, p->unit) != 0)
		return;
	if (h->kind == HINT_JOB_REMOVED) {
		p->hints_job++;
		fprintf(stderr, "hint: job %s %s %s\n", h->job, h->unit,
		    h->result);
	} else
		p->hints_changed++;
	/* Before the start's answer only counted: the wait ends first. */
	if (p->job[0] != '\0')
		probe_check(p);
}

static void
on_poll(evutil_socket_t fd, short ev, void *arg)
{
	struct probe	*p = arg;
	struct timeval	 tv = { 0, 100000 };

	(void)fd;
	(void)ev;
	if (++p->polls > WAIT_SEC * 10) {
		fprintf(stderr, "timed out waiting for %s\n", p->unit);
		event_base_loopexit(p->base, NULL);
		return;
	}
	probe_check(p);
	if (!p->done)
		evtimer_add(p->ev_poll, &tv);
}

static void
on_stream(evutil_socket_t fd, short ev, void *arg)
{
	struct probe	*p = arg;
	char		 buf[4096];
	ssize_t		 n;

	(void)ev;
	if ((n = read(fd, buf, sizeof(buf))) <= 0) {
		event_del(p->ev_stream);
		return;
	}
	(void)fwrite(buf, 1, (size_t)n, stdout);
	p->last = buf[n - 1];
}

/* Until the start job is over (or 2 s): systemd has set the PTY up. */
static void
wait_start_job(struct probe *p)
{
	struct unit_state	 st;
	int			 i;

	for (i = 0; i < 100; i++) {
		memset(&st, 0, sizeof(st));
		if (dbusd_unit_state(p->d, p->unit, &st) < 0 || !st.loaded ||
		    st.job_id == 0)
			return;
		usleep(20000);
	}
}

/*
 * The unit is over: what the command wrote last is read until EIO (PID 1
 * let its copy of the terminal go) or until the master has been quiet
 * for 300 ms.
 */
static void
drain(struct probe *p)
{
	struct pollfd	 pfd;
	char		 buf[4096];
	ssize_t		 n;

	pfd.fd = p->stream;
	pfd.events = POLLIN;
	while (poll(&pfd, 1, 300) == 1 && (pfd.revents & POLLIN)) {
		if ((n = read(p->stream, buf, sizeof(buf))) <= 0)
			return;
		(void)fwrite(buf, 1, (size_t)n, stdout);
		p->last = buf[n - 1];
	}
}

/* OPTY_PROBE_HOLD: our reference keeps the unit until FILE exists. */
static void
hold(void)
{
	const char	*file;
	int		 i;

	if ((file = getenv("OPTY_PROBE_HOLD")) == NULL)
		return;
	for (i = 0; i < 1200 && access(file, F_OK) == -1; i++)
		usleep(50000);
}

/* The unit's devpts instance, mounted by PID 1; its path in *pn. */
static void
probe_pts(struct probe *p, uid_t uid, gid_t gid, struct pts_names *pn)
{
	struct dbusd_req	*req;
	struct statfs		 sf;
	char			 job[128];
	int			 i, r;

	if ((r = unit_pts_names(p->name, pn)) < 0)
		fatalx("devpts mount: %s", strerror(-r));
	if ((r = dbusd_pts_start(p->d, p->name, uid, gid, probe_req_done, p,
	    &req)) == 0 && (r = probe_wait(p)) == 0)
		r = dbusd_start_end(req, job, sizeof(job));
	dbusd_req_free(req);
	if (r < 0)
		fatalx("StartTransientUnit %s: %s", pn->unit, strerror(-r));
	for (i = 0; i < 1000; i++) {
		if (statfs(pn->where, &sf) == 0 && sf.f_type == 0x1cd1)
			return;
		usleep(10000);
	}
	fatalx("%s: not mounted after 10 s", pn->where);
}

static int
cmd_start(struct probe *p, int argc, char **argv)
{
	struct unit_spec	 spec;
	struct dbusd_req	*req;
	struct timeval		 tv = { 0, 100000 };
	const char		*input, *rt;
	char			*end;
	unsigned long		 rts;
	struct pty_spec		 ps;
	struct pts_names	 pn;
	struct passwd		*pw;
	const char		*what;
	int			 sp[2], dir, ds, r;

	if (argc < 2)
		usage();
	if ((dir = open(argv[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		fatal("%s", argv[0]);
	/* The launcher takes its directory as the supervisor sends it. */
	ds = dirsock_make(dir);
	close(dir);
	if ((dir = ds) == -1)
		fatal("directory socket");
	if ((pw = getpwnam(OPTY_USER)) == NULL)
		fatalx("user %s not found", OPTY_USER);
	ps.rows = 24;
	ps.cols = 80;
	ps.uid = pw->pw_uid;
	ps.tty_gid = pty_check();
	if ((r = unit_name_new(p->name)) < 0)
		fatalx("unit_name_new: %s", strerror(-r));
	probe_pts(p, ps.uid, ps.tty_gid, &pn);
	ps.pts_dir = pn.where;
	if ((sp[0] = pty_open(&ps, &sp[1], &what)) == -1)
		fatal("terminal: %s", what);
	p->unit = p->name;
	p->stream = sp[0];
	spec = (struct unit_spec){ .name = p->name, .pts_of = p->name,
	    .runtime_sec = 0,
	    .tty_fd = sp[1], .dirsock_fd = dir, .argc = (uint32_t)(argc - 1),
	    .argv = (const char *const *)(argv + 1) };
	if ((rt = getenv("OPTY_PROBE_RUNTIME")) != NULL) {
		errno = 0;
		rts = strtoul(rt, &end, 10);
		if (errno != 0 || end == rt || *end != '\0' || rts > UINT32_MAX)
			fatalx("bad OPTY_PROBE_RUNTIME '%s'", rt);
		spec.runtime_sec = (uint32_t)rts;
	}
	if ((r = dbusd_start(p->d, &spec, probe_req_done, p, &req)) == 0 &&
	    (r = probe_wait(p)) == 0)
		r = dbusd_start_end(req, p->job, sizeof(p->job));
	dbusd_req_free(req);
	close(sp[1]);
	close(dir);
	if (r < 0) {
		printf("error=%d %s\n", r, strerror(-r));
		(void)dbusd_unit_call(p->d, UM_PTS_STOP, p->name, 0, NULL,
		    NULL, NULL);
		return 1;
	}
	printf("unit=%s\njob=%s\n", p->name, p->job);
	(void)fflush(stdout);
	p->ev_poll = evtimer_new(p->base, on_poll, p);
	p->ev_stream = event_new(p->base, p->stream, EV_READ | EV_PERSIST,
	    on_stream, p);
	if (p->ev_poll == NULL || p->ev_stream == NULL)
		fatalx("event_new");
	evtimer_add(p->ev_poll, &tv);
	event_add(p->ev_stream, NULL);
	if ((input = getenv("OPTY_PROBE_INPUT")) != NULL)
		wait_start_job(p);
	if (input != NULL &&
	    (write(p->stream, input, strlen(input)) == -1 ||
	    write(p->stream, "\n", 1) == -1))
		fatal("write input");
	event_base_dispatch(p->base);
	drain(p);
	/* Results always start on a line of their own. */
	if (p->last != '\0' && p->last != '\n')
		printf("\n");
	print_state(p->name, &p->st);
	printf("hints_job=%u hints_changed=%u\n", p->hints_job,
	    p->hints_changed);
	(void)fflush(stdout);
	hold();
	event_free(p->ev_poll);
	event_free(p->ev_stream);
	close(p->stream);
	/* Sent when the bus is closed and flushed, as main() ends. */
	if ((r = dbusd_unit_call(p->d, UM_PTS_STOP, p->name, 0, NULL, NULL,
	    NULL)) < 0)
		fatalx("StopUnit %s: %s", pn.unit, strerror(-r));
	return p->done ? 0 : 1;
}

int
main(int argc, char **argv)
{
	struct probe	p = { .stream = -1 };
	unsigned	depth, bound;
	uint64_t	dropped;
	int		r, rc;

	log_init("opty-dbusprobe", getenv("OPTY_PROBE_DEBUG") != NULL);
	if (argc < 2)
		usage();
	if ((p.base = event_base_new()) == NULL)
		fatalx("event_base_new");
	/* p.d too: the analyzer lets calloc fail with errno 0. */
	if ((r = dbusd_open(p.base, on_hint, NULL, &p, &p.d)) < 0 ||
	    p.d == NULL)
		fatalx("dbusd_open: %s", strerror(-r));
	if (strcmp(argv[1], "ident") == 0 && argc == 2)
		rc = cmd_ident(&p);
	else if (strcmp(argv[1], "state") == 0 && argc == 3)
		rc = cmd_state(p.d, argv[2]);
	else if (strcmp(argv[1], "stop") == 0 && argc == 3)
		rc = cmd_stop(p.d, argv[2]);
	else if (strcmp(argv[1], "sweep") == 0 && argc == 2)
		rc = cmd_sweep(p.d);
	else if (strcmp(argv[1], "start-launcher") == 0)
		rc = cmd_start(&p, argc - 2, argv + 2);
	else
		usage();
	dbusd_hint_stats(p.d, &depth, &bound, &dropped);
	fprintf(stderr, "hintq depth=%u bound=%u dropped=%llu\n", depth,
	    bound, (unsigned long long)dropped);
	bus_free(p.d);		/* flushes what was queued */
	event_base_free(p.base);
	return rc;
}
