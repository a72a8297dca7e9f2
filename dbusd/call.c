/*
 * call.c: the synchronous method calls the root parent makes on PID 1,
 * with one bounded timeout and one error mapping.  Every reply is read
 * with its type checked; nothing here interprets a signal.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "dbusd/priv.h"

#define WANT_MAX	10

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

/*
 * One GetAll on one interface: keeps the wanted names of that interface,
 * each tagged with the interface it was read from, and skips the rest.
 */
static int
call_get_all(struct dbusd *d, const char *path, const char *iface,
    const struct prop_want *want, size_t nw, sd_bus_message **reply,
    struct prop_value *v, size_t *nv)
{
	const char	*name;
	size_t		 i;
	int		 r;

	r = call_method(d, path, "org.freedesktop.DBus.Properties", "GetAll",
	    reply, "s", iface);
	if (r < 0 || (r = sd_bus_message_enter_container(*reply, 'a',
	    "{sv}")) < 0)
		return r;
	while ((r = sd_bus_message_enter_container(*reply, 'e', "sv")) > 0) {
		if ((r = sd_bus_message_read_basic(*reply, 's', &name)) <= 0)
			return r < 0 ? r : -EBADMSG;
		for (i = 0; i < nw; i++)
			if (strcmp(want[i].iface, iface) == 0 &&
			    strcmp(want[i].name, name) == 0)
				break;
		if (i == nw)
			r = sd_bus_message_skip(*reply, "v");
		else if (*nv >= WANT_MAX * 2)
			return -EBADMSG;	/* more answers than asked */
		else {
			memset(&v[*nv], 0, sizeof(v[*nv]));
			v[*nv].iface = iface;
			v[*nv].name = want[i].name;
			r = prop_read_variant(*reply, &v[(*nv)++]);
		}
		if (r < 0)
			return r == -ENXIO ? -EBADMSG : r;
		if ((r = sd_bus_message_exit_container(*reply)) < 0)
			return r;
	}
	if (r < 0)
		return r;
	return sd_bus_message_exit_container(*reply);
}

/*
 * Reads the wanted properties with one GetAll per interface (a property
 * counts only from the interface the table names), then decodes; a name
 * answered twice or not at all is refused by props_decode().
 */
int
call_get_wanted(struct dbusd *d, const char *path,
    const struct prop_want *want, size_t nw, void *out)
{
	sd_bus_message		*reply[WANT_MAX] = { NULL };
	struct prop_value	 v[WANT_MAX * 2];
	const char		*iface[WANT_MAX];
	size_t			 i, j, ni = 0, nv = 0;
	int			 r = 0;

	if (nw > WANT_MAX)
		return -EINVAL;
	for (i = 0; i < nw; i++) {
		for (j = 0; j < ni && strcmp(iface[j], want[i].iface) != 0; j++)
			;
		if (j == ni)
			iface[ni++] = want[i].iface;
	}
	for (j = 0; j < ni && r >= 0; j++)
		r = call_get_all(d, path, iface[j], want, nw, &reply[j], v,
		    &nv);
	if (r >= 0)
		r = props_decode(want, nw, v, nv, out);
	for (j = 0; j < ni; j++)
		sd_bus_message_unref(reply[j]);
	return r < 0 ? r : 0;
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
