/*
 * decode.c: turns property values read from PID 1 into the parent's
 * structures (root parent).  A value counts only if it came from the
 * exact interface the table names and has exactly the expected type and
 * size: a property of the same name offered elsewhere is ignored, so a
 * look-alike can never stand in for the real one.  Pure: no bus I/O.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <string.h>

#include "dbusd/priv.h"

static const struct prop_value *
find_exact(const struct prop_want *w, const struct prop_value *v, size_t nv)
{
	const struct prop_value	*hit = NULL;
	size_t			 i;

	for (i = 0; i < nv; i++) {
		if (v[i].iface == NULL || v[i].name == NULL)
			continue;
		if (strcmp(v[i].iface, w->iface) != 0 ||
		    strcmp(v[i].name, w->name) != 0)
			continue;
		if (hit != NULL)
			return NULL;	/* two answers: trust neither */
		hit = &v[i];
	}
	return hit;
}

static int
decode_one(const struct prop_want *w, const struct prop_value *v, void *out)
{
	char	*dst = (char *)out + w->off;
	size_t	 len;

	if (strcmp(v->sig, w->sig) != 0)
		return -EBADMSG;
	if (strcmp(w->sig, "s") == 0) {
		if (v->s == NULL || (len = strlen(v->s)) >= w->size)
			return -EBADMSG;
		memcpy(dst, v->s, len + 1);
	} else if ((strcmp(w->sig, "u") == 0 || strcmp(w->sig, "(uo)") == 0) &&
	    w->size == sizeof(uint32_t))
		memcpy(dst, &v->u, sizeof(v->u));	/* "(uo)": the job id */
	else if (strcmp(w->sig, "i") == 0 && w->size == sizeof(int32_t))
		memcpy(dst, &v->i, sizeof(v->i));
	else if (strcmp(w->sig, "t") == 0 && w->size == sizeof(uint64_t))
		memcpy(dst, &v->t, sizeof(v->t));
	else if (strcmp(w->sig, "ay") == 0) {
		if (v->aylen != w->size || v->ay == NULL)
			return -EBADMSG;
		memcpy(dst, v->ay, w->size);
	} else
		return -EINVAL;		/* a table bug, not PID 1's */
	return 0;
}

int
props_decode(const struct prop_want *want, size_t nw,
    const struct prop_value *vals, size_t nv, void *out)
{
	const struct prop_value	*v;
	size_t			 i;
	int			 r;

	for (i = 0; i < nw; i++) {
		if ((v = find_exact(&want[i], vals, nv)) == NULL)
			return -EBADMSG;
		if ((r = decode_one(&want[i], v, out)) < 0)
			return r;
	}
	return 0;
}

static int
read_basic(sd_bus_message *m, struct prop_value *v)
{
	if (strcmp(v->sig, "s") == 0 || strcmp(v->sig, "o") == 0)
		return sd_bus_message_read_basic(m, v->sig[0], &v->s);
	if (strcmp(v->sig, "u") == 0)
		return sd_bus_message_read_basic(m, 'u', &v->u);
	if (strcmp(v->sig, "i") == 0)
		return sd_bus_message_read_basic(m, 'i', &v->i);
	if (strcmp(v->sig, "t") == 0)
		return sd_bus_message_read_basic(m, 't', &v->t);
	if (strcmp(v->sig, "b") == 0)
		return sd_bus_message_read_basic(m, 'b', &v->b);
	if (strcmp(v->sig, "(uo)") == 0)	/* Unit.Job: id, path */
		return sd_bus_message_read(m, "(uo)", &v->u, &v->s);
	if (strcmp(v->sig, "ay") == 0)
		return sd_bus_message_read_array(m, 'y', &v->ay, &v->aylen);
	/* Other types are recorded by signature only. */
	return sd_bus_message_skip(m, v->sig);
}

/* Reads one variant at the current position, whatever type it holds. */
int
prop_read_variant(sd_bus_message *m, struct prop_value *v)
{
	const char	*contents;
	char		 type;
	int		 r;

	if ((r = sd_bus_message_peek_type(m, &type, &contents)) < 0)
		return r;
	if (r == 0 || type != 'v' || contents == NULL ||
	    strlen(contents) >= sizeof(v->sig))
		return -EBADMSG;
	memcpy(v->sig, contents, strlen(contents) + 1);
	if ((r = sd_bus_message_enter_container(m, 'v', contents)) < 0)
		return r;
	if ((r = read_basic(m, v)) < 0 ||
	    (r = sd_bus_message_exit_container(m)) < 0)
		return r;
	return 0;
}
