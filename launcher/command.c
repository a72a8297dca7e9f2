/*
 * command.c: what the command is given (session user; pure but for
 * stat(2) and the signal calls): its argument vector, each argument
 * through the canonical decoder before any is used; the identity it
 * runs as and its whole, fixed environment; argv[0] found in the fixed
 * PATH; and the signal state a plain service gets.
 *
 * user_match() refuses to build an environment for anyone but the
 * session user, so a launcher started by mistake under another identity
 * stops instead of running a command as that identity with a HOME that
 * is not its own.  Nothing is inherited: the six variables are fixed
 * but for the user's name and home, which come from the password
 * database for the real uid, never from the environment systemd gave.
 *
 * execvp(3) would search the PATH of the caller's environment and fall
 * back to a built-in default; path_lookup() searches only the fixed
 * PATH it is given, never the current directory, and a name with a
 * slash is taken as it is (relative names then resolve against the
 * approved directory, which is the cwd).
 *
 * Ignored signals and the blocked mask survive execve: sig_reset()
 * decides the command's state here, not whatever started the launcher
 * (systemd resets them today), so that ^C on the terminal reaches it.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/stat.h>
#include <sys/syscall.h>

#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launcher/launcher.h"
#include "proto/argcodec.h"

static int
args_check(int n, char *const enc[], struct argfault *af)
{
	static char	scratch[START_MAX_ARGLEN + 1];
	int		i, r;

	af->index = -1;
	af->status = ARG_OK;
	if (n < 1 || n > START_MAX_ARGS)
		return -1;
	for (i = 0; i < n; i++) {
		r = arg_decode(enc[i], scratch, sizeof(scratch));
		if (r < 0) {
			af->index = i;
			af->status = r;
			return -1;
		}
	}
	return 0;
}

static void
args_free(int n, char *dec[])
{
	int	i;

	for (i = 0; i < n; i++) {
		free(dec[i]);
		dec[i] = NULL;
	}
}

/*
 * Decodes n checked-or-not arguments into freshly allocated strings;
 * dec needs n + 1 slots and ends NULL-terminated.  On failure nothing
 * stays allocated.
 */
int
args_decode(int n, char *const enc[], char *dec[], struct argfault *af)
{
	size_t	len;
	int	i, r;

	if (args_check(n, enc, af) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		len = strlen(enc[i]);	/* bounded by args_check() */
		if ((dec[i] = malloc(len + 1)) == NULL) {
			args_free(i, dec);
			af->index = i;
			af->status = ARG_E_SPACE;
			return -1;
		}
		r = arg_decode(enc[i], dec[i], len + 1);
		if (r < 0) {
			args_free(i + 1, dec);
			af->index = i;
			af->status = r;
			return -1;
		}
	}
	dec[n] = NULL;
	return 0;
}

int
user_match(const struct passwd *pw, uid_t uid, const char *want)
{
	if (pw == NULL || pw->pw_name == NULL || pw->pw_dir == NULL)
		return -1;
	if (pw->pw_uid != uid)
		return -1;
	if (strcmp(pw->pw_name, want) != 0)
		return -1;
	return 0;
}

static int
env_set(struct fixedenv *fe, int i, const char *name, const char *value)
{
	int	len;

	len = snprintf(fe->buf[i], sizeof(fe->buf[i]), "%s=%s", name, value);
	if (len < 0 || (size_t)len >= sizeof(fe->buf[i]))
		return -1;
	fe->vec[i] = fe->buf[i];
	return 0;
}

int
env_build(struct fixedenv *fe, const char *user, const char *home)
{
	memset(fe, 0, sizeof(*fe));
	if (user == NULL || home == NULL || *user == '\0' || home[0] != '/')
		return -1;
	/* Sorted, as env(1) and the tests list them. */
	if (env_set(fe, 0, "HOME", home) == -1 ||
	    env_set(fe, 1, "LANG", LAUNCHER_LANG) == -1 ||
	    env_set(fe, 2, "LOGNAME", user) == -1 ||
	    env_set(fe, 3, "PATH", LAUNCHER_PATH) == -1 ||
	    env_set(fe, 4, "TERM", LAUNCHER_TERM) == -1 ||
	    env_set(fe, 5, "USER", user) == -1) {
		memset(fe, 0, sizeof(*fe));
		return -1;
	}
	fe->vec[ENV_COUNT] = NULL;
	return 0;
}

static int
is_executable(const char *p)
{
	struct stat	st;

	if (stat(p, &st) == -1 || !S_ISREG(st.st_mode))
		return 0;
	return access(p, X_OK) == 0;
}

int
path_lookup(const char *name, const char *path, char *out, size_t outsz)
{
	const char	*dir, *end;
	size_t		 nlen, dlen;

	nlen = strlen(name);
	if (nlen == 0)
		return PATH_E_EMPTY;
	if (strchr(name, '/') != NULL) {
		if (nlen >= outsz)
			return PATH_E_TOOLONG;
		memcpy(out, name, nlen + 1);
		return PATH_OK;
	}
	if (nlen > NAME_MAX)
		return PATH_E_TOOLONG;

	for (dir = path; ; dir = end + 1) {
		if ((end = strchr(dir, ':')) == NULL)
			end = dir + strlen(dir);
		dlen = (size_t)(end - dir);
		/* An empty element would mean ".": never search there. */
		if (dlen > 0 && dlen < outsz && nlen < outsz - dlen - 1) {
			memcpy(out, dir, dlen);
			out[dlen] = '/';
			memcpy(out + dlen + 1, name, nlen + 1);
			if (is_executable(out))
				return PATH_OK;
		}
		if (*end == '\0')
			break;
	}
	return PATH_E_NOTFOUND;
}

/*
 * glibc keeps 32 and 33 for itself and sigaction(2) through it refuses
 * them, yet an ignored one is inherited across execve like any other:
 * only the raw system call puts them back to SIG_DFL for the command,
 * which may not be a glibc program at all.
 */
static void
sig_reset_reserved(int sig)
{
	/* The kernel's struct sigaction (generic layout: x86_64, aarch64):
	 * handler, flags, restorer, mask; all zero is SIG_DFL. */
	unsigned long	ksa[4] = { 0, 0, 0, 0 };

	(void)syscall(SYS_rt_sigaction, sig, ksa, NULL, sizeof(ksa[3]));
}

int
sig_reset(void)
{
	struct sigaction	sa;
	sigset_t		none;
	int			sig;

	sa.sa_handler = SIG_DFL;
	sa.sa_flags = 0;
	sigemptyset(&sa.sa_mask);
	/* SIGKILL and SIGSTOP refuse: harmless. */
	for (sig = 1; sig < NSIG; sig++)
		if (sigaction(sig, &sa, NULL) == -1 && sig != SIGKILL &&
		    sig != SIGSTOP)
			sig_reset_reserved(sig);
	sigemptyset(&none);
	return sigprocmask(SIG_SETMASK, &none, NULL);
}
