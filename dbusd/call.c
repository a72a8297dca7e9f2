/*
 * call.c: the synchronous method calls the root parent makes on PID 1,
 * with one bounded timeout and one error mapping.  Every reply is read
 * with its type checked; nothing here interprets a signal.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "dbusd/priv.h"

#define WANT_MAX	8

int
call_errno(const sd_bus_error *e, int r)
{
	if (sd_bus_error_has_name(e, SD_NOSUCHUNIT))
		return -ENOENT;
	return r < 0 ? r : -EIO;
}

int
call_method(struct dbusd *d, const char *path, const char *iface,
    const char *member, sd_bus_message **reply, const char *types, ...)
{
	sd_bus_message	*m = NULL;
	sd_bus_error	 e = SD_BUS_ERROR_NULL;
	va_list		 ap;
	int		 r;

	r = sd_bus_message_new_method_call(d->bus, &m, SD_DEST, path, iface,
	    member);
	if (r < 0)
		return r;
	va_start(ap, types);
	r = sd_bus_message_appendv(m, types, ap);
	va_end(ap);
	if (r >= 0)
		r = sd_bus_call(d->bus, m, DBUSD_CALL_USEC, &e, reply);
	if (r < 0)
		r = call_errno(&e, r);
	sd_bus_error_free(&e);
	sd_bus_message_unref(m);
	/* sd_bus_call() may have queued signals: dispatch them soon. */
	bus_kick(d);
	return r < 0 ? r : 0;
}

int
call_get_unit(struct dbusd *d, const char *unit, char *path, size_t pathlen)
{
	sd_bus_message	*reply = NULL;
	const char	*p;
	int		 r;

	r = call_method(d, SD_PATH, SD_MANAGER, "GetUnit", &reply, "s", unit);
	if (r < 0)
		return r;
	if (sd_bus_message_read_basic(reply, 'o', &p) <= 0)
		r = -EBADMSG;
	else if (strlen(p) >= pathlen)
		r = -ENAMETOOLONG;
	else {
		memcpy(path, p, strlen(p) + 1);
		r = 0;
	}
	sd_bus_message_unref(reply);
	return r;
}

int
call_get_prop(struct dbusd *d, const char *path, const char *iface,
    const char *name, sd_bus_message **reply, struct prop_value *v)
{
	int	r;

	memset(v, 0, sizeof(*v));
	*reply = NULL;
	r = call_method(d, path, "org.freedesktop.DBus.Properties", "Get",
	    reply, "ss", iface, name);
	if (r < 0)
		return r;
	v->iface = iface;
	v->name = name;
	if ((r = prop_read_variant(*reply, v)) < 0) {
		*reply = sd_bus_message_unref(*reply);
		return r == -ENXIO ? -EBADMSG : r;
	}
	return 0;
}

/* Reads each wanted property from its own interface, then decodes. */
int
call_get_wanted(struct dbusd *d, const char *path,
    const struct prop_want *want, size_t nw, void *out)
{
	sd_bus_message		*reply[WANT_MAX] = { NULL };
	struct prop_value	 v[WANT_MAX] = { 0 };
	size_t			 i;
	int			 r = 0;

	if (nw > WANT_MAX)
		return -EINVAL;
	for (i = 0; i < nw && r == 0; i++)
		r = call_get_prop(d, path, want[i].iface, want[i].name,
		    &reply[i], &v[i]);
	if (r == 0)
		r = props_decode(want, nw, v, nw, out);
	for (i = 0; i < nw; i++)
		sd_bus_message_unref(reply[i]);
	return r;
}

/* StopUnit(name, mode) and friends; the reply (a job path) is unused. */
int
call_unit_method(struct dbusd *d, const char *method, const char *unit,
    const char *mode)
{
	sd_bus_message	*reply = NULL;
	int		 r;

	if (mode != NULL)
		r = call_method(d, SD_PATH, SD_MANAGER, method, &reply, "ss",
		    unit, mode);
	else
		r = call_method(d, SD_PATH, SD_MANAGER, method, &reply, "s",
		    unit);
	sd_bus_message_unref(reply);
	return r;
}
