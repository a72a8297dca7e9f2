/*
 * cli.c: the command line of opencode-pty-client,
 *	opencode-pty-client [-t seconds] [-s rowsxcols] [--] command [arg ...]
 * Runs as byk on an argv built by the Node service.  Every bound of the
 * start frame is checked here so a refusal names its reason; the
 * encoder checks them again.  Messages never echo an argument back.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <stdio.h>
#include <string.h>

#include "client/client.h"

/* 1..START_MAX_RUNTIME in plain decimal: no sign, space or leading 0. */
static int
parse_runtime(const char *s, uint32_t *out)
{
	uint32_t	v = 0;
	size_t		i;

	if (s[0] < '1' || s[0] > '9')
		return -1;
	for (i = 0; s[i] != '\0'; i++) {
		if (i >= 4 || s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint32_t)(s[i] - '0');
	}
	if (v > START_MAX_RUNTIME)
		return -1;
	*out = v;
	return 0;
}

/* 1..WINSIZE_MAX in plain decimal, up to the end or the 'x'. */
static const char *
parse_dim(const char *s, uint16_t *out)
{
	uint32_t	v = 0;
	size_t		i;

	if (s[0] < '1' || s[0] > '9')
		return NULL;
	for (i = 0; s[i] >= '0' && s[i] <= '9'; i++) {
		if (i >= 4)
			return NULL;
		v = v * 10 + (uint32_t)(s[i] - '0');
	}
	if (v > WINSIZE_MAX)
		return NULL;
	*out = (uint16_t)v;
	return s + i;
}

/* ROWSxCOLS: two such numbers, one lower-case 'x', nothing else. */
static int
parse_winsize(const char *s, uint16_t *rows, uint16_t *cols)
{
	const char	*p;
	uint16_t	 r, c;

	if ((p = parse_dim(s, &r)) == NULL || *p != 'x')
		return -1;
	if ((p = parse_dim(p + 1, &c)) == NULL || *p != '\0')
		return -1;
	*rows = r;
	*cols = c;
	return 0;
}

/* One option and its value at argv[i]; returns 0 or -1 with err. */
static int
parse_option(char *const *argv, int i, int argc, struct client_opts *o,
    char *err, size_t errlen)
{
	int	runtime = argv[i][1] == 't';

	if ((runtime && o->runtime != 0) || (!runtime && o->rows != 0)) {
		snprintf(err, errlen, "option %s given more than once",
		    runtime ? "-t" : "-s");
		return -1;
	}
	if (i + 1 >= argc) {
		snprintf(err, errlen, "option %s needs a value",
		    runtime ? "-t" : "-s");
		return -1;
	}
	if (runtime && parse_runtime(argv[i + 1], &o->runtime) == -1) {
		snprintf(err, errlen, "runtime must be a whole number "
		    "of seconds from 1 to %d", START_MAX_RUNTIME);
		return -1;
	}
	if (!runtime && parse_winsize(argv[i + 1], &o->rows, &o->cols) ==
	    -1) {
		snprintf(err, errlen, "window size must be ROWSxCOLS, each "
		    "a whole number from 1 to %d", WINSIZE_MAX);
		return -1;
	}
	return 0;
}

static int
check_command(int n, char *const *argv, struct client_opts *o, char *err,
    size_t errlen)
{
	size_t	need = START_FIXED_LEN, len;
	int	i;

	if (n < 1) {
		snprintf(err, errlen, "no command given");
		return -1;
	}
	if (n > START_MAX_ARGS) {
		snprintf(err, errlen, "too many command words (%d, at most %d)",
		    n, START_MAX_ARGS);
		return -1;
	}
	for (i = 0; i < n; i++) {
		len = strnlen(argv[i], START_MAX_ARGLEN + 1);
		if (len > START_MAX_ARGLEN) {
			snprintf(err, errlen, "command word %d is longer than "
			    "%d bytes", i, START_MAX_ARGLEN);
			return -1;
		}
		if (i == 0 && len == 0) {
			snprintf(err, errlen, "empty command name");
			return -1;
		}
		if (2 + len > FRAME_MAX_PAYLOAD - need) {
			snprintf(err, errlen, "command too long: the start "
			    "frame payload would exceed %u bytes",
			    FRAME_MAX_PAYLOAD);
			return -1;
		}
		need += 2 + len;
		o->arglen[i] = (uint16_t)len;
	}
	o->argc = n;
	o->argv = argv;
	return 0;
}

int
cli_parse(int argc, char *const *argv, struct client_opts *o, char *err,
    size_t errlen)
{
	int	i = 1;

	memset(o, 0, sizeof(*o));
	if (argc < 1 || argv == NULL) {
		snprintf(err, errlen, "empty argument vector");
		return -1;
	}
	while (i < argc && (strcmp(argv[i], "-t") == 0 ||
	    strcmp(argv[i], "-s") == 0)) {
		if (parse_option(argv, i, argc, o, err, errlen) == -1)
			return -1;
		i += 2;
	}
	if (i < argc && strcmp(argv[i], "--") == 0)
		i++;
	else if (i < argc && argv[i][0] == '-') {
		snprintf(err, errlen, "unknown option (a command starting "
		    "with '-' must follow --)");
		return -1;
	}
	return check_command(argc - i, argv + i, o, err, errlen);
}
