/*
 * test_launcher.c: cmocka tests of the launcher's pure parts: the
 * encoded argv (count, join, split, decode), the fixed-PATH lookup, the
 * fixed environment and the session-user check.  Runs as any user; the
 * PATH tests work in a private directory under $TMPDIR or /tmp.
 */
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "launcher/launcher.h"
#include "proto/argcodec.h"

static char	*many[START_MAX_ARGS + 2];

static void
fill_many(int n, char *v)
{
	int	i;

	for (i = 0; i < n; i++)
		many[i] = v;
	many[n] = NULL;
}

static void
test_args_count_zero(void **state)
{
	struct argfault	af;

	(void)state;
	fill_many(0, "a");
	assert_int_equal(args_check(0, many, &af), -1);
	assert_int_equal(af.index, -1);
}

static void
test_args_count_129(void **state)
{
	struct argfault	af;

	(void)state;
	fill_many(START_MAX_ARGS + 1, "aZm9v");
	assert_int_equal(args_check(START_MAX_ARGS + 1, many, &af), -1);
	assert_int_equal(af.index, -1);
}

static void
test_args_count_bounds_ok(void **state)
{
	struct argfault	af;

	(void)state;
	fill_many(START_MAX_ARGS, "aZm9v");
	assert_int_equal(args_check(START_MAX_ARGS, many, &af), 0);
	assert_int_equal(args_check(1, many, &af), 0);
}

/* Every argument is checked, not just the first. */
static void
test_args_bad_one_of_many(void **state)
{
	char		*v[] = { "acHJpbnRm", "a", "aQR", "aZm9v", NULL };
	struct argfault	 af;

	(void)state;
	assert_int_equal(args_check(4, v, &af), -1);
	assert_int_equal(af.index, 2);
	assert_int_equal(af.status, ARG_E_BITS);
	v[2] = "a";
	v[3] = "bad=";
	assert_int_equal(args_check(4, v, &af), -1);
	assert_int_equal(af.index, 3);
	assert_int_equal(af.status, ARG_E_PREFIX);
}

static void
test_args_join_split(void **state)
{
	char	*v[] = { "acHJpbnRm", "aJXMK", "aYSdiOyAkKGlkKQ", "a", NULL };
	char	*back[START_MAX_ARGS + 1];
	char	 buf[64];
	int	 n, i;

	(void)state;
	assert_int_equal(args_join(4, v, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "acHJpbnRm aJXMK aYSdiOyAkKGlkKQ a");
	n = args_split(buf, back, START_MAX_ARGS);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++)
		assert_string_equal(back[i], v[i]);
	assert_null(back[4]);
}

static void
test_args_join_space(void **state)
{
	char	*v[] = { "aZm9v", "aZm8", NULL };
	char	 buf[16];

	(void)state;
	/* "aZm9v aZm8" is 10 bytes plus NUL. */
	assert_int_equal(args_join(2, v, buf, 10), -1);
	assert_int_equal(args_join(2, v, buf, 11), 0);
	assert_string_equal(buf, "aZm9v aZm8");
	assert_int_equal(args_join(1, v, buf, 0), -1);
}

static void
test_args_split_rejects_empty_fields(void **state)
{
	const char	*bad[] = { "", " a", "a ", "a  a", " ", "aZm9v  " };
	char		*vec[START_MAX_ARGS + 1];
	char		 buf[16];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_true(strlen(bad[i]) < sizeof(buf));
		memcpy(buf, bad[i], strlen(bad[i]) + 1);
		assert_int_equal(args_split(buf, vec, START_MAX_ARGS), -1);
	}
}

static void
test_args_split_count(void **state)
{
	char	 buf[2 * (START_MAX_ARGS + 1)];
	char	*vec[START_MAX_ARGS + 1];
	int	 i;

	(void)state;
	for (i = 0; i < START_MAX_ARGS + 1; i++) {
		buf[2 * i] = 'a';
		buf[2 * i + 1] = ' ';
	}
	buf[2 * START_MAX_ARGS + 1] = '\0';	/* 129 fields */
	assert_int_equal(args_split(buf, vec, START_MAX_ARGS), -1);
	buf[2 * START_MAX_ARGS - 1] = '\0';	/* 128 fields */
	for (i = 0; i < START_MAX_ARGS - 1; i++)
		buf[2 * i + 1] = ' ';
	assert_int_equal(args_split(buf, vec, START_MAX_ARGS),
	    START_MAX_ARGS);
	assert_null(vec[START_MAX_ARGS]);
}

static void
test_args_decode_vector(void **state)
{
	char		*v[] = { "acHJpbnRm", "aJXMK", "aYSdiOyAkKGlkKQ", "a",
			    NULL };
	char		*dec[START_MAX_ARGS + 1];
	struct argfault	 af;

	(void)state;
	assert_int_equal(args_decode(4, v, dec, &af), 0);
	assert_string_equal(dec[0], "printf");
	assert_string_equal(dec[1], "%s\n");
	assert_string_equal(dec[2], "a'b; $(id)");
	assert_string_equal(dec[3], "");
	assert_null(dec[4]);
	args_free(4, dec);

	v[1] = "aAA";
	assert_int_equal(args_decode(4, v, dec, &af), -1);
	assert_int_equal(af.index, 1);
	assert_int_equal(af.status, ARG_E_NUL);
}

/* A private directory tree for the PATH tests. */
struct pathfix {
	char	root[PATH_MAX];
	char	d1[PATH_MAX], d2[PATH_MAX], path[2 * PATH_MAX];
};

/* dir + "/" + name into dst, which must hold it. */
static void
join2(char *dst, size_t sz, const char *dir, const char *name)
{
	int	len;

	len = snprintf(dst, sz, "%s/%s", dir, name);
	assert_true(len > 0 && (size_t)len < sz);
}

static void
mkfile(const char *dir, const char *name, mode_t mode)
{
	char	p[PATH_MAX];
	int	fd;

	join2(p, sizeof(p), dir, name);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static int
pathfix_setup(void **state)
{
	struct pathfix	*f;
	const char	*tmp;
	char		 p[PATH_MAX];

	if ((f = calloc(1, sizeof(*f))) == NULL)
		return -1;
	if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
		tmp = "/tmp";
	snprintf(f->root, sizeof(f->root), "%s/test_launcher.XXXXXX", tmp);
	if (mkdtemp(f->root) == NULL)
		goto bad;
	join2(f->d1, sizeof(f->d1), f->root, "d1");
	join2(f->d2, sizeof(f->d2), f->root, "d2");
	if (mkdir(f->d1, 0755) == -1 || mkdir(f->d2, 0755) == -1)
		goto bad;
	snprintf(f->path, sizeof(f->path), "%s:%s", f->d1, f->d2);
	mkfile(f->d1, "plain", 0644);	/* not executable */
	mkfile(f->d2, "plain", 0755);
	mkfile(f->d2, "only2", 0755);
	join2(p, sizeof(p), f->d1, "isdir");
	if (mkdir(p, 0755) == -1)
		goto bad;
	mkfile(f->d2, "isdir", 0755);
	mkfile(f->root, "incwd", 0755);
	*state = f;
	return 0;
bad:
	/* cmocka runs no teardown after a failed setup. */
	free(f);
	return -1;
}

static void
rmpath(const char *dir, const char *name, int isdir)
{
	char	p[PATH_MAX];

	join2(p, sizeof(p), dir, name);
	assert_int_equal(isdir ? rmdir(p) : unlink(p), 0);
}

static int
pathfix_teardown(void **state)
{
	struct pathfix	*f = *state;

	rmpath(f->d1, "plain", 0);
	rmpath(f->d1, "isdir", 1);
	rmpath(f->d2, "plain", 0);
	rmpath(f->d2, "only2", 0);
	rmpath(f->d2, "isdir", 0);
	rmpath(f->root, "incwd", 0);
	rmpath(f->root, "d1", 1);
	rmpath(f->root, "d2", 1);
	if (rmdir(f->root) == -1)
		return -1;
	free(f);
	return 0;
}

static void
test_path_slash_verbatim(void **state)
{
	char	out[PATH_MAX];

	(void)state;
	assert_int_equal(path_lookup("/no/such/cmd", LAUNCHER_PATH, out,
	    sizeof(out)), PATH_OK);
	assert_string_equal(out, "/no/such/cmd");
	assert_int_equal(path_lookup("./rel", LAUNCHER_PATH, out,
	    sizeof(out)), PATH_OK);
	assert_string_equal(out, "./rel");
	assert_int_equal(path_lookup("./rel", LAUNCHER_PATH, out, 5),
	    PATH_E_TOOLONG);
}

static void
test_path_empty_name(void **state)
{
	char	out[PATH_MAX];

	(void)state;
	assert_int_equal(path_lookup("", LAUNCHER_PATH, out, sizeof(out)),
	    PATH_E_EMPTY);
}

static void
test_path_order_and_mode(void **state)
{
	struct pathfix	*f = *state;
	char		 out[PATH_MAX], want[PATH_MAX];

	/* d1/plain is not executable, d1/isdir is a directory: d2 wins. */
	join2(want, sizeof(want), f->d2, "plain");
	assert_int_equal(path_lookup("plain", f->path, out, sizeof(out)),
	    PATH_OK);
	assert_string_equal(out, want);
	join2(want, sizeof(want), f->d2, "isdir");
	assert_int_equal(path_lookup("isdir", f->path, out, sizeof(out)),
	    PATH_OK);
	assert_string_equal(out, want);
	join2(want, sizeof(want), f->d2, "only2");
	assert_int_equal(path_lookup("only2", f->path, out, sizeof(out)),
	    PATH_OK);
	assert_string_equal(out, want);
}

static void
test_path_not_found(void **state)
{
	struct pathfix	*f = *state;
	char		 out[PATH_MAX];

	assert_int_equal(path_lookup("nosuch", f->path, out, sizeof(out)),
	    PATH_E_NOTFOUND);
	/* Only d1 on the PATH: its "plain" is not executable. */
	assert_int_equal(path_lookup("plain", f->d1, out, sizeof(out)),
	    PATH_E_NOTFOUND);
}

/* Empty PATH elements mean "." to a shell; here they mean nothing. */
static void
test_path_never_cwd(void **state)
{
	struct pathfix	*f = *state;
	char		 out[PATH_MAX], old[PATH_MAX];

	assert_non_null(getcwd(old, sizeof(old)));
	assert_int_equal(chdir(f->root), 0);
	assert_int_equal(path_lookup("incwd", "", out, sizeof(out)),
	    PATH_E_NOTFOUND);
	assert_int_equal(path_lookup("incwd", "::", out, sizeof(out)),
	    PATH_E_NOTFOUND);
	assert_int_equal(path_lookup("incwd", f->d1, out, sizeof(out)),
	    PATH_E_NOTFOUND);
	assert_int_equal(chdir(old), 0);
}

static void
test_path_too_long(void **state)
{
	struct pathfix	*f = *state;
	char		 out[PATH_MAX], name[NAME_MAX + 2];

	memset(name, 'x', NAME_MAX + 1);
	name[NAME_MAX + 1] = '\0';
	assert_int_equal(path_lookup(name, f->path, out, sizeof(out)),
	    PATH_E_TOOLONG);
	/* A result that does not fit is skipped, never truncated. */
	assert_int_equal(path_lookup("only2", f->path, out,
	    strlen(f->d2) + 6), PATH_E_NOTFOUND);
	assert_int_equal(path_lookup("only2", f->path, out,
	    strlen(f->d2) + 7), PATH_OK);
}

static void
test_path_real_fixed_path(void **state)
{
	char	out[PATH_MAX];

	(void)state;
	assert_int_equal(path_lookup("sh", LAUNCHER_PATH, out, sizeof(out)),
	    PATH_OK);
	/* Debian: /bin/sh, or /usr/bin/sh first when /usr is merged. */
	assert_true(strcmp(out, "/usr/local/bin/sh") == 0 ||
	    strcmp(out, "/usr/bin/sh") == 0 || strcmp(out, "/bin/sh") == 0);
}

static void
test_env_exact(void **state)
{
	static struct fixedenv	fe;
	const char		*want[] = {
		"HOME=/home/byk", "LANG=C.UTF-8", "LOGNAME=byk",
		"PATH=/usr/local/bin:/usr/bin:/bin", "TERM=xterm-256color",
		"USER=byk",
	};
	int			i;

	(void)state;
	assert_int_equal(env_build(&fe, "byk", "/home/byk"), 0);
	for (i = 0; i < ENV_COUNT; i++)
		assert_string_equal(fe.vec[i], want[i]);
	assert_null(fe.vec[ENV_COUNT]);
}

static void
test_env_rejects(void **state)
{
	static struct fixedenv	fe;
	static char		home[ENV_STRMAX + 1];

	(void)state;
	assert_int_equal(env_build(&fe, "", "/home/byk"), -1);
	assert_int_equal(env_build(&fe, "byk", ""), -1);
	assert_int_equal(env_build(&fe, "byk", "home/byk"), -1);
	assert_int_equal(env_build(&fe, NULL, "/home/byk"), -1);
	memset(home, 'h', ENV_STRMAX);
	home[0] = '/';
	assert_int_equal(env_build(&fe, "byk", home), -1);
	assert_null(fe.vec[0]);
}

static void
test_user_match(void **state)
{
	struct passwd	pw;

	(void)state;
	memset(&pw, 0, sizeof(pw));
	pw.pw_name = "byk";
	pw.pw_dir = "/home/byk";
	pw.pw_uid = 1001;
	assert_int_equal(user_match(&pw, 1001, "byk"), 0);
	assert_int_equal(user_match(&pw, 1000, "byk"), -1);
	assert_int_equal(user_match(&pw, 1001, "root"), -1);
	assert_int_equal(user_match(&pw, 1001, "by"), -1);
	assert_int_equal(user_match(NULL, 1001, "byk"), -1);
	pw.pw_dir = NULL;
	assert_int_equal(user_match(&pw, 1001, "byk"), -1);
}

/*
 * sig_reset() in a child that inherited glibc's reserved signal 32 as
 * ignored and 2 (SIGINT) as ignored: both are SIG_DFL afterwards, as
 * /proc says, and nothing is blocked.
 */
static void
test_sig_reset_reserved(void **state)
{
	/* Kernel struct sigaction: handler, flags, restorer, mask. */
	unsigned long	 ign[4] = { (unsigned long)(uintptr_t)SIG_IGN, 0, 0,
			    0 };
	char		 line[256];
	FILE		*f;
	pid_t		 pid;
	int		 status, ok;

	(void)state;
	if ((pid = fork()) == 0) {
		if (syscall(SYS_rt_sigaction, 32, ign, NULL, 8) != 0 ||
		    signal(SIGINT, SIG_IGN) == SIG_ERR || sig_reset() != 0 ||
		    (f = fopen("/proc/self/status", "r")) == NULL)
			_exit(2);
		ok = 0;
		while (fgets(line, sizeof(line), f) != NULL)
			if (strcmp(line, "SigIgn:\t0000000000000000\n") == 0 ||
			    strcmp(line, "SigBlk:\t0000000000000000\n") == 0)
				ok++;
		_exit(ok == 2 ? 0 : 1);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args_count_zero),
		cmocka_unit_test(test_args_count_129),
		cmocka_unit_test(test_args_count_bounds_ok),
		cmocka_unit_test(test_args_bad_one_of_many),
		cmocka_unit_test(test_args_join_split),
		cmocka_unit_test(test_args_join_space),
		cmocka_unit_test(test_args_split_rejects_empty_fields),
		cmocka_unit_test(test_args_split_count),
		cmocka_unit_test(test_args_decode_vector),
		cmocka_unit_test(test_path_slash_verbatim),
		cmocka_unit_test(test_path_empty_name),
		cmocka_unit_test_setup_teardown(test_path_order_and_mode,
		    pathfix_setup, pathfix_teardown),
		cmocka_unit_test_setup_teardown(test_path_not_found,
		    pathfix_setup, pathfix_teardown),
		cmocka_unit_test_setup_teardown(test_path_never_cwd,
		    pathfix_setup, pathfix_teardown),
		cmocka_unit_test_setup_teardown(test_path_too_long,
		    pathfix_setup, pathfix_teardown),
		cmocka_unit_test(test_path_real_fixed_path),
		cmocka_unit_test(test_env_exact),
		cmocka_unit_test(test_env_rejects),
		cmocka_unit_test(test_user_match),
		cmocka_unit_test(test_sig_reset_reserved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
