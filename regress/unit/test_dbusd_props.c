/*
 * test_dbusd_props.c: cmocka tests of the transient unit property set
 * (dbusd/props.c).  The StartTransientUnit message is built on a bus
 * object that is never connected to a daemon (one end of a socketpair),
 * sealed, rewound and read back, so the test sees exactly the bytes PID 1
 * would get.  The expected set below is written out by hand, not taken
 * from the table under test.  Runs unprivileged.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dbusd/priv.h"
#include "proto/config.h"

#define NAME	"opencode-pty-0123456789abcdef0123456789abcdef.service"
#define MAXP	64

struct fixture {
	sd_bus		*bus;
	int		 sp[2];		/* the bus "connection" */
	int		 stream[2];	/* stands for the session stream */
	int		 dir;
	char		*got[MAXP];	/* "Name=sig:value" as read back */
	size_t		 ngot;
};

static const char *const argv4[] = { "printf", "%s\n", "a'b; $(id)", "",
    "\xfb\xff\xfe" };

/* Everything PID 1 must receive, and nothing else (runtime 0). */
static const char *const expect_base[] = {
	"Description=s:OpenCode isolated PTY " NAME,
	"ExecStart=a(sasb):[(" OPTY_LAUNCHER_PATH ",[" OPTY_LAUNCHER_PATH
	    ",acHJpbnRm,aJXMK,aYSdiOyAkKGlkKQ,a,a-__-],false)]",
	"Type=s:exec",
	"Slice=s:" OPTY_SLICE,
	"BindsTo=as:[" OPTY_SUPERVISOR_UNIT "]",
	"After=as:[" OPTY_SUPERVISOR_UNIT "]",
	"User=s:" OPTY_USER,
	"Group=s:" OPTY_USER,
	"NoNewPrivileges=b:true",
	"UMask=u:63",
	"KillMode=s:control-group",
	"KillSignal=i:15",
	"FinalKillSignal=i:9",
	"SendSIGKILL=b:true",
	"TimeoutStopUSec=t:15000000",
	"OOMPolicy=s:kill",
	"Delegate=b:false",
	"RemainAfterExit=b:false",
	"CollectMode=s:inactive-or-failed",
	"AddRef=b:true",
	"StandardInputFileDescriptor=h:stream",
	"StandardOutputFileDescriptor=h:stream",
	"StandardErrorFileDescriptor=h:dir",
	/* The session's own devpts instance, named from the unit's id. */
	"BindPaths=a(ssbt):[(" OPTY_PTS_DIR
	    "/0123456789abcdef0123456789abcdef;/dev/pts;false;0)]",
	"TemporaryFileSystem=a(ss):[(/run;ro,nosuid,noexec),"
	    "(/run/lock;mode=1777,size=5m,nosuid,noexec),"
	    "(/dev/shm;mode=1777,nosuid,nodev)]",
	"BindReadOnlyPaths=a(ssbt):["
	    "(/run/systemd/resolve;/run/systemd/resolve;true;0),"
	    "(/run/resolvconf;/run/resolvconf;true;0)]",
	"InaccessiblePaths=as:[-/run/dbus,-/run/user]",
	"PrivateTmp=b:true",
	"PrivateIPC=b:true",
	"ProtectControlGroups=b:true",
	"RestrictNamespaces=t:0",
	"LimitCORE=t:0",
	"LimitCORESoft=t:0",
	"ProtectKernelTunables=b:true",
	"ProtectKernelModules=b:true",
	"ProtectKernelLogs=b:true",
	"ProtectClock=b:true",
	"ProtectHostname=b:true",
	"SystemCallArchitectures=as:[native]",
	"LockPersonality=b:true",
	"RestrictSUIDSGID=b:true",
	"RestrictRealtime=b:true",
	"ProtectProc=s:ptraceable",
	"LogNamespace=s:opencode-pty",
};
#define NBASE	(sizeof(expect_base) / sizeof(expect_base[0]))

static int
setup(void **state)
{
	struct fixture	*f;

	f = calloc(1, sizeof(*f));
	assert_non_null(f);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
	    f->sp), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
	    f->stream), 0);
	f->dir = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(f->dir >= 0);
	/* Started but never authenticated: no daemon is involved. */
	assert_true(sd_bus_new(&f->bus) >= 0);
	assert_true(sd_bus_set_fd(f->bus, f->sp[0], f->sp[0]) >= 0);
	assert_true(sd_bus_negotiate_fds(f->bus, 1) >= 0);
	assert_true(sd_bus_start(f->bus) >= 0);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;
	size_t		 i;

	for (i = 0; i < f->ngot; i++)
		free(f->got[i]);
	sd_bus_close_unref(f->bus);	/* closes sp[0] */
	close(f->sp[1]);
	close(f->stream[0]);
	close(f->stream[1]);
	close(f->dir);
	free(f);
	return 0;
}

static struct unit_spec
mkin(struct fixture *f, uint32_t runtime)
{
	struct unit_spec	in = {
		.name = NAME, .pts_of = NAME, .runtime_sec = runtime,
		.tty_fd = f->stream[0], .dirsock_fd = f->dir,
		.argc = sizeof(argv4) / sizeof(argv4[0]), .argv = argv4,
	};

	return in;
}

static void
add(struct fixture *f, const char *name, const char *sig, const char *val)
{
	assert_true(f->ngot < MAXP);
	assert_true(asprintf(&f->got[f->ngot], "%s=%s:%s", name, sig,
	    val) > 0);
	f->ngot++;
}

static int
same_file(int a, int b)
{
	struct stat	sa, sb;

	assert_int_equal(fstat(a, &sa), 0);
	assert_int_equal(fstat(b, &sb), 0);
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* "[a,b,c]" from an "as" at the current position. */
static void
read_strv(sd_bus_message *m, char *buf, size_t len)
{
	const char	*s;
	int		 first = 1;

	assert_true(sd_bus_message_enter_container(m, 'a', "s") > 0);
	snprintf(buf, len, "[");
	while (sd_bus_message_read_basic(m, 's', &s) > 0) {
		strncat(buf, first ? "" : ",", len - strlen(buf) - 1);
		strncat(buf, s, len - strlen(buf) - 1);
		first = 0;
	}
	strncat(buf, "]", len - strlen(buf) - 1);
	assert_true(sd_bus_message_exit_container(m) > 0);
}

/*
 * "[(a;b),...]" from an a(ss), "[(a;b;true;0),...]" from an a(ssbt): the
 * mount lists, each field as PID 1 gets it.
 */
static void
read_mounts(sd_bus_message *m, const char *sig, char *buf, size_t len)
{
	const char	*a, *b;
	char		 one[1024];
	uint64_t	 t;
	int		 ign, first = 1, binds;

	binds = strcmp(sig, "a(ssbt)") == 0;
	assert_true(sd_bus_message_enter_container(m, 'a', sig + 1) > 0);
	snprintf(buf, len, "[");
	while (sd_bus_message_enter_container(m, 'r', binds ? "ssbt" :
	    "ss") > 0) {
		assert_true(sd_bus_message_read(m, "ss", &a, &b) > 0);
		if (binds) {
			assert_true(sd_bus_message_read(m, "bt", &ign, &t) > 0);
			snprintf(one, sizeof(one), "(%s;%s;%s;%llu)", a, b,
			    ign ? "true" : "false", (unsigned long long)t);
		} else
			snprintf(one, sizeof(one), "(%s;%s)", a, b);
		assert_true(sd_bus_message_exit_container(m) > 0);
		strncat(buf, first ? "" : ",", len - strlen(buf) - 1);
		strncat(buf, one, len - strlen(buf) - 1);
		first = 0;
	}
	strncat(buf, "]", len - strlen(buf) - 1);
	assert_true(sd_bus_message_exit_container(m) > 0);
}

static void
read_exec(sd_bus_message *m, char *buf, size_t len)
{
	const char	*path;
	char		 argv[4096];
	int		 ign;

	assert_true(sd_bus_message_enter_container(m, 'a', "(sasb)") > 0);
	assert_true(sd_bus_message_enter_container(m, 'r', "sasb") > 0);
	assert_true(sd_bus_message_read_basic(m, 's', &path) > 0);
	read_strv(m, argv, sizeof(argv));
	assert_true(sd_bus_message_read_basic(m, 'b', &ign) > 0);
	assert_true(sd_bus_message_exit_container(m) > 0);
	/* Exactly one command line. */
	assert_true(sd_bus_message_at_end(m, 0) > 0);
	assert_true(sd_bus_message_exit_container(m) > 0);
	assert_true((size_t)snprintf(buf, len, "[(%s,%s,%s)]", path, argv,
	    ign ? "true" : "false") < len);
}

static void
read_value(struct fixture *f, sd_bus_message *m, const char *sig,
    char *buf, size_t len)
{
	const char	*s;
	uint32_t	 u;
	int32_t		 i;
	uint64_t	 t;
	int		 b, fd;

	if (strcmp(sig, "s") == 0) {
		assert_true(sd_bus_message_read_basic(m, 's', &s) > 0);
		snprintf(buf, len, "%s", s);
	} else if (strcmp(sig, "b") == 0) {
		assert_true(sd_bus_message_read_basic(m, 'b', &b) > 0);
		snprintf(buf, len, "%s", b ? "true" : "false");
	} else if (strcmp(sig, "u") == 0) {
		assert_true(sd_bus_message_read_basic(m, 'u', &u) > 0);
		snprintf(buf, len, "%u", u);
	} else if (strcmp(sig, "i") == 0) {
		assert_true(sd_bus_message_read_basic(m, 'i', &i) > 0);
		snprintf(buf, len, "%d", i);
	} else if (strcmp(sig, "t") == 0) {
		assert_true(sd_bus_message_read_basic(m, 't', &t) > 0);
		snprintf(buf, len, "%llu", (unsigned long long)t);
	} else if (strcmp(sig, "h") == 0) {
		assert_true(sd_bus_message_read_basic(m, 'h', &fd) > 0);
		snprintf(buf, len, "%s", same_file(fd, f->stream[0]) ?
		    "stream" : same_file(fd, f->dir) ? "dir" : "other");
	} else if (strcmp(sig, "as") == 0)
		read_strv(m, buf, len);
	else if (strcmp(sig, "a(sasb)") == 0)
		read_exec(m, buf, len);
	else if (strcmp(sig, "a(ss)") == 0 || strcmp(sig, "a(ssbt)") == 0)
		read_mounts(m, sig, buf, len);
	else
		fail_msg("unexpected property type %s", sig);
}

/* Builds, seals, rewinds and reads the whole call back into f->got. */
static void
build_and_read(struct fixture *f, const struct unit_spec *in)
{
	sd_bus_message	*m = NULL;
	const char	*name, *mode, *sig;
	char		 val[8192];
	char		 type;

	assert_int_equal(props_start_message(f->bus, in, &m), 0);
	assert_true(sd_bus_message_seal(m, 1, 0) >= 0);
	assert_true(sd_bus_message_rewind(m, 1) >= 0);
	assert_string_equal(sd_bus_message_get_member(m),
	    "StartTransientUnit");
	assert_string_equal(sd_bus_message_get_signature(m, 1),
	    "ssa(sv)a(sa(sv))");
	assert_true(sd_bus_message_read(m, "ss", &name, &mode) > 0);
	assert_string_equal(name, NAME);
	assert_string_equal(mode, "fail");
	assert_true(sd_bus_message_enter_container(m, 'a', "(sv)") > 0);
	while (sd_bus_message_enter_container(m, 'r', "sv") > 0) {
		assert_true(sd_bus_message_read_basic(m, 's', &name) > 0);
		assert_true(sd_bus_message_peek_type(m, &type, &sig) > 0);
		assert_int_equal(type, 'v');
		assert_true(sd_bus_message_enter_container(m, 'v', sig) > 0);
		read_value(f, m, sig, val, sizeof(val));
		assert_true(sd_bus_message_exit_container(m) > 0);
		assert_true(sd_bus_message_exit_container(m) > 0);
		add(f, name, sig, val);
	}
	assert_true(sd_bus_message_exit_container(m) > 0);
	/* No auxiliary units. */
	assert_true(sd_bus_message_enter_container(m, 'a', "(sa(sv))") > 0);
	assert_true(sd_bus_message_at_end(m, 0) > 0);
	assert_true(sd_bus_message_exit_container(m) > 0);
	assert_true(sd_bus_message_at_end(m, 1) > 0);
	sd_bus_message_unref(m);
}

static void
assert_exact_set(struct fixture *f, const char *const *want, size_t nwant,
    const char *extra)
{
	size_t	i, j, hits;

	for (i = 0; i < nwant + (extra != NULL); i++) {
		const char	*w = i < nwant ? want[i] : extra;

		for (hits = 0, j = 0; j < f->ngot; j++)
			hits += strcmp(f->got[j], w) == 0;
		if (hits != 1)
			fail_msg("want exactly once: %s (seen %zu)", w, hits);
	}
	assert_int_equal(f->ngot, nwant + (extra != NULL));
}

static void
test_exact_set(void **state)
{
	struct fixture	*f = *state;
	struct unit_spec	 in = mkin(f, 0);

	build_and_read(f, &in);
	assert_exact_set(f, expect_base, NBASE, NULL);
}

static void
test_runtime(void **state)
{
	struct fixture	*f = *state;
	struct unit_spec	 in = mkin(f, 60);

	build_and_read(f, &in);
	assert_exact_set(f, expect_base, NBASE, "RuntimeMaxUSec=t:60000000");
}

static void
test_runtime_max(void **state)
{
	struct fixture	*f = *state;
	struct unit_spec	 in = mkin(f, 3600);

	build_and_read(f, &in);
	assert_exact_set(f, expect_base, NBASE,
	    "RuntimeMaxUSec=t:3600000000");
}

/*
 * A slot's instance serves its next session: the bind names the unit
 * that made the instance (pts_of), not the session's own.
 */
static void
test_pts_of(void **state)
{
	struct fixture	*f = *state;
	struct unit_spec	 in = mkin(f, 0);
	const char	*want = "BindPaths=a(ssbt):[(" OPTY_PTS_DIR
			    "/fedcba9876543210fedcba9876543210;/dev/pts;false;0)]";
	size_t		 i;
	int		 n = 0;

	in.pts_of = "opencode-pty-fedcba9876543210fedcba9876543210.service";
	build_and_read(f, &in);
	for (i = 0; i < f->ngot; i++)
		if (strncmp(f->got[i], "BindPaths=", 10) == 0) {
			assert_string_equal(f->got[i], want);
			n++;
		}
	assert_int_equal(n, 1);
}

/* Nothing of the host's /run but the allowlist: no bus, no Docker. */
static void
test_run_allowlist(void **state)
{
	const char *const	*a;

	(void)state;
	for (a = props_run_allow; *a != NULL; a++) {
		assert_int_equal((*a)[0], '-');
		assert_null(strstr(*a, "dbus"));
		assert_null(strstr(*a, "/run/user"));
		assert_null(strstr(*a, "docker"));
		assert_null(strstr(*a, "private"));
		assert_null(strstr(*a, "opencode-pty"));
		/* The main journal's sockets would bypass LogNamespace=. */
		assert_null(strstr(*a, "journal"));
		assert_true(strncmp(*a, "-/run/", 6) == 0);
	}
	assert_int_equal(a - props_run_allow, 2);
}

static int
count_fds(void)
{
	DIR		*d = opendir("/proc/self/fd");
	struct dirent	*e;
	int		 n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* The message holds its own copies of the descriptors until freed. */
static void
test_fd_copies_released(void **state)
{
	struct fixture	*f = *state;
	struct unit_spec	 in = mkin(f, 0);
	sd_bus_message	*m = NULL;
	int		 before;

	before = count_fds();
	assert_int_equal(props_start_message(f->bus, &in, &m), 0);
	assert_int_equal(count_fds(), before + 3);
	sd_bus_message_unref(m);
	assert_int_equal(count_fds(), before);
}

static void
test_bad_input(void **state)
{
	struct fixture	*f = *state;
	struct unit_spec	 in;
	sd_bus_message	*m = NULL;
	static char	 big[4098];
	const char	*one[1], *empty0[] = { "", "x" };
	const char	*withnull[] = { "x", NULL };

	memset(big, 'x', sizeof(big) - 1);
	in = mkin(f, 0);
	in.name = "opencode-pty-0123456789ABCDEF0123456789abcdef.service";
	assert_int_equal(props_start_message(f->bus, &in, &m), -EINVAL);
	assert_null(m);
	in = mkin(f, 0);
	in.pts_of = NULL;
	assert_int_equal(props_start_message(f->bus, &in, &m), -EINVAL);
	in.pts_of = "opencode-pty-0123456789abcdef0123456789abcde.service";
	assert_int_equal(props_start_message(f->bus, &in, &m), -EINVAL);
	assert_null(m);
	in = mkin(f, 0);
	in.argc = 0;
	assert_int_equal(props_start_message(f->bus, &in, &m), -EINVAL);
	in.argc = 129;
	assert_int_equal(props_start_message(f->bus, &in, &m), -EINVAL);
	in = mkin(f, 3601);
	assert_int_equal(props_start_message(f->bus, &in, &m), -EINVAL);
	in = mkin(f, 0);
	in.tty_fd = -1;
	assert_int_equal(props_start_message(f->bus, &in, &m), -EBADF);
	in = mkin(f, 0);
	in.dirsock_fd = -1;
	assert_int_equal(props_start_message(f->bus, &in, &m), -EBADF);
	in = mkin(f, 0);
	in.argc = 2;
	in.argv = empty0;
	assert_int_equal(props_start_message(f->bus, &in, &m), -EINVAL);
	in.argv = withnull;
	assert_int_equal(props_start_message(f->bus, &in, &m), -EINVAL);
	/* 4097 bytes: one over the launcher's limit. */
	one[0] = big;
	in.argc = 1;
	in.argv = one;
	assert_int_equal(props_start_message(f->bus, &in, &m), -EINVAL);
	assert_null(m);
	big[4096] = '\0';
	assert_int_equal(props_start_message(f->bus, &in, &m), 0);
	sd_bus_message_unref(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_exact_set, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_runtime, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pts_of, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runtime_max, setup,
		    teardown),
		cmocka_unit_test(test_run_allowlist),
		cmocka_unit_test_setup_teardown(test_fd_copies_released,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
