/*
 * nonss.c: the relay's own definitions of the four glibc resolver calls
 * that libevent_core's evutil.o refers to (getaddrinfo, freeaddrinfo,
 * getservbyname, getprotobynumber).  Trust level: relay (unprivileged).
 *
 * The relay is linked static-pie.  glibc's versions of these calls load
 * NSS modules at run time, and its linker says so with a warning; the
 * relay never resolves a name (its seccomp filter forbids socket(2) and
 * every open), so it never calls them.  Defining them here makes the
 * linker take these instead of glibc's archive members, so no NSS code
 * is linked at all (relay/build.mk checks that with nm), and a call that
 * should never happen ends the relay with a journal line instead of
 * running glibc's resolver.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>

#include <netdb.h>
#include <stddef.h>

#include "proto/log.h"

static void __attribute__((noreturn))
nonss(const char *fn)
{
	fatalx("%s called: the relay resolves no name", fn);
}

int
getaddrinfo(const char *node, const char *service,
    const struct addrinfo *hints, struct addrinfo **res)
{
	(void)node;
	(void)service;
	(void)hints;
	(void)res;
	nonss("getaddrinfo");
}

void
freeaddrinfo(struct addrinfo *res)
{
	(void)res;
	nonss("freeaddrinfo");
}

struct servent *
getservbyname(const char *name, const char *proto)
{
	(void)name;
	(void)proto;
	nonss("getservbyname");
}

struct protoent *
getprotobynumber(int proto)
{
	(void)proto;
	nonss("getprotobynumber");
}
