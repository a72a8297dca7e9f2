/*
 * sanopts.c: the sanitizer runtime defaults of the supervisor and the
 * relay in an ASan/UBSan build (make check-asan); linked only into
 * that build (lint/build.mk), never into a shipped binary.  Runs as
 * whatever links it: root (the parent) or the sandboxed relay.
 *
 * Both daemons run where no ASAN_OPTIONS can reach them (a systemd
 * unit; the relay is exec'd with an empty environment), so the
 * defaults live here.  LeakSanitizer is off: it stops the world with
 * ptrace(2), which the supervisor's SystemCallFilter= and the relay's
 * seccomp filter forbid; their leaks are looked for by the unit tests
 * under LSan and valgrind instead.  Reports are not symbolized: that
 * would fork addr2line from inside the sandbox.  Every report is fatal.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#if defined(__SANITIZE_ADDRESS__)
const char	*__asan_default_options(void);
const char	*__ubsan_default_options(void);

const char *
__asan_default_options(void)
{
	return "detect_leaks=0:halt_on_error=1:symbolize=0";
}

const char *
__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1:symbolize=0";
}
#else
#error "regress/asan/sanopts.c is for ASan builds only (make check-asan)"
#endif
