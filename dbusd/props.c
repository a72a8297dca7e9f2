/*
 * props.c: unit properties, both ways (root parent).  It builds the
 * StartTransientUnit call: every property of the session unit is listed
 * here and nowhere else; the command arguments reach systemd only in the
 * launcher's inert encoding, so no ExecStart= specifier or quoting rule
 * can act on client text.  And it decodes the property values read back
 * from PID 1 into the parent's structures: a value counts only if it
 * came from the exact interface the table names and has exactly the
 * expected type and size, so a property of the same name offered
 * elsewhere, a look-alike, can never stand in for the real one.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dbusd/priv.h"
#include "proto/argcodec.h"
#include "proto/config.h"
#include "proto/wire.h"

#define USEC_PER_SEC	1000000ULL

/*
 * Bound read-only onto themselves, each optional ("-"): the resolver's
 * directories.  Directories, not files, where a daemon replaces files by
 * rename.  Not the journal's sockets: LogNamespace= below binds its
 * instance's directory over /run/systemd/journal, and a bind of the
 * host's sockets beneath would lead back to the main journal.
 */
const char *const props_run_allow[] = {
	"-/run/systemd/resolve",
	"-/run/resolvconf",
	NULL
};

/*
 * Opens a list property's (sv), its variant of type sig and the array
 * in it, for a list whose length only the caller knows: three
 * containers to close.
 */
static int
list_open(sd_bus_message *m, const char *name, const char *sig)
{
	int	r;

	if ((r = sd_bus_message_open_container(m, 'r', "sv")) < 0 ||
	    (r = sd_bus_message_append_basic(m, 's', name)) < 0 ||
	    (r = sd_bus_message_open_container(m, 'v', sig)) < 0)
		return r;
	return sd_bus_message_open_container(m, 'a', sig + 1);
}

static int
close_n(sd_bus_message *m, int n)
{
	int	r = 0;

	while (n-- > 0 && r >= 0)
		r = sd_bus_message_close_container(m);
	return r;
}

/* ExecStart=[(launcher, [launcher, enc(arg0), ...], false)] */
static int
append_exec(sd_bus_message *m, const struct unit_spec *in)
{
	char		enc[ARG_ENC_MAX + 1];
	uint32_t	i;
	int		r;

	if ((r = list_open(m, "ExecStart", "a(sasb)")) < 0 ||
	    (r = sd_bus_message_open_container(m, 'r', "sasb")) < 0 ||
	    (r = sd_bus_message_append_basic(m, 's',
	    OPTY_LAUNCHER_PATH)) < 0 ||
	    (r = sd_bus_message_open_container(m, 'a', "s")) < 0 ||
	    (r = sd_bus_message_append_basic(m, 's',
	    OPTY_LAUNCHER_PATH)) < 0)
		return r;
	for (i = 0; i < in->argc; i++) {
		if (in->argv[i] == NULL ||
		    arg_encode((const uint8_t *)in->argv[i],
		    strlen(in->argv[i]), enc, sizeof(enc)) < 0)
			return -EINVAL;
		if ((r = sd_bus_message_append_basic(m, 's', enc)) < 0)
			return r;
	}
	if ((r = sd_bus_message_close_container(m)) < 0 ||
	    (r = sd_bus_message_append(m, "b", 0)) < 0)
		return r;
	return close_n(m, 4);
}

/*
 * Description, the command, its descriptors, its time limit, its
 * terminals: what changes from one session to the next.
 */
static int
append_dynamic(sd_bus_message *m, const struct unit_spec *in)
{
	struct pts_names	pn;
	char			desc[128];
	int			r;

	(void)snprintf(desc, sizeof(desc), "OpenCode isolated PTY %s",
	    in->name);
	if ((r = unit_pts_names(in->pts_of, &pn)) < 0 ||
	    (r = sd_bus_message_append(m, "(sv)", "Description", "s",
	    desc)) < 0 ||
	    (r = append_exec(m, in)) < 0 ||
	    (r = sd_bus_message_append(m, "(sv)(sv)(sv)",
	    "StandardInputFileDescriptor", "h", in->tty_fd,
	    "StandardOutputFileDescriptor", "h", in->tty_fd,
	    "StandardErrorFileDescriptor", "h", in->dirsock_fd)) < 0)
		return r;
	/*
	 * No PrivatePIDs=, even where PID 1 knows it: it would make the
	 * command, which the launcher execs, the init of a PID namespace,
	 * and the kernel hides from such an init every signal it has no
	 * handler for: ^C, SIGNAL frames, the stop's SIGTERM (measured,
	 * docs/LAUNCHER.md).
	 */
	if (in->runtime_sec > 0 &&
	    (r = sd_bus_message_append(m, "(sv)", "RuntimeMaxUSec", "t",
	    (uint64_t)in->runtime_sec * USEC_PER_SEC)) < 0)
		return r;
	/*
	 * The session's own devpts instance over /dev/pts, named from the
	 * unit that made it (a slot's instance serves its sessions one
	 * after the other: parent/pts.c): its terminal and every terminal
	 * it makes are there, and no other terminal of the host is.
	 * /dev/ptmx, a device node or a link to pts/ptmx, reaches the
	 * instance mounted on the pts beside it, so nested terminals come
	 * from it too.  Not optional: a session whose mount is gone does
	 * not start.
	 */
	return sd_bus_message_append(m, "(sv)", "BindPaths", "a(ssbt)", 1,
	    pn.where, "/dev/pts", 0, (uint64_t)0);
}

/*
 * What every session unit gets, in sd-bus's own argument encoding: each
 * row a name, its D-Bus type and the value of that type (a list: its
 * length, then its items); docs/DBUS.md gives the reason for each row.
 */
static int
append_fixed(sd_bus_message *m)
{
	const char *const	*a;
	const char		*p;
	int			 r;

	r = sd_bus_message_append(m, "(sv)(sv)(sv)(sv)(sv)(sv)(sv)(sv)(sv)"
	    "(sv)(sv)(sv)(sv)(sv)(sv)(sv)(sv)(sv)(sv)",
	    "Type", "s", "exec",
	    "Slice", "s", OPTY_SLICE,
	    "BindsTo", "as", 1, OPTY_SUPERVISOR_UNIT,
	    "After", "as", 1, OPTY_SUPERVISOR_UNIT,
	    "User", "s", OPTY_USER,
	    "Group", "s", OPTY_USER,
	    "NoNewPrivileges", "b", 1,
	    "UMask", "u", (uint32_t)0077,
	    "KillMode", "s", "control-group",
	    "KillSignal", "i", (int32_t)15,
	    "FinalKillSignal", "i", (int32_t)9,
	    "SendSIGKILL", "b", 1,
	    "TimeoutStopUSec", "t", (uint64_t)OPTY_STOP_TIMEOUT_USEC,
	    "OOMPolicy", "s", "kill",
	    "Delegate", "b", 0,
	    /*
	     * The unit ends with its command (PID 1 lets the terminal go)
	     * and stays loaded, its end readable, while the parent holds
	     * AddRef's reference; UnrefUnit lets it be collected, failed
	     * or not.
	     */
	    "RemainAfterExit", "b", 0,
	    "CollectMode", "s", "inactive-or-failed",
	    "AddRef", "b", 1,
	    /*
	     * The session's /run is a fresh read-only tmpfs: nothing of
	     * the host's /run is reachable by path but props_run_allow,
	     * whatever is created or mounted there after the unit started
	     * (docs/UNITS.md).  /run/lock is a private writable tmpfs like
	     * Debian's own (size, nosuid, noexec).  /dev/shm is the
	     * session's own, so no byk file there is readable; the rest of
	     * /dev stays the host's, for the terminal and nested PTYs (not
	     * PrivateDevices=: docs/UNITS.md).  (path, options) each.
	     */
	    "TemporaryFileSystem", "a(ss)", 3,
	    "/run", "ro,nosuid,noexec",
	    "/run/lock", "mode=1777,size=5m,nosuid,noexec",
	    "/dev/shm", "mode=1777,nosuid,nodev");
	/* (path, path, ignore-if-missing, no MS_REC) */
	if (r < 0 || (r = list_open(m, "BindReadOnlyPaths", "a(ssbt)")) < 0)
		return r;
	for (a = props_run_allow; *a != NULL; a++) {
		p = *a + (**a == '-');
		if ((r = sd_bus_message_append(m, "(ssbt)", p, p, **a == '-',
		    (uint64_t)0)) < 0)
			return r;
	}
	if ((r = close_n(m, 3)) < 0)
		return r;
	return sd_bus_message_append(m, "(sv)(sv)(sv)(sv)(sv)(sv)(sv)(sv)(sv)"
	    "(sv)(sv)(sv)(sv)(sv)(sv)(sv)(sv)(sv)",
	    /* No-ops under the tmpfs above; they stand if it is ever gone. */
	    "InaccessiblePaths", "as", 2, "-/run/dbus", "-/run/user",
	    /*
	     * What a user shares between its processes, made the session's
	     * own or read-only (issue 25 item 4).  Each is known to systemd
	     * 252; a property PID 1 does not know fails the start with its
	     * error, which the parent logs: closed, never a session
	     * without it.
	     */
	    "PrivateTmp", "b", 1,
	    "PrivateIPC", "b", 1,
	    "ProtectControlGroups", "b", 1,
	    /* The allowed namespace types: none. */
	    "RestrictNamespaces", "t", (uint64_t)0,
	    "LimitCORE", "t", (uint64_t)0,
	    "LimitCORESoft", "t", (uint64_t)0,
	    "ProtectKernelTunables", "b", 1,
	    "ProtectKernelModules", "b", 1,
	    "ProtectKernelLogs", "b", 1,
	    "ProtectClock", "b", 1,
	    "ProtectHostname", "b", 1,
	    "SystemCallArchitectures", "as", 1, "native",
	    "LockPersonality", "b", 1,
	    "RestrictSUIDSGID", "b", 1,
	    "RestrictRealtime", "b", 1,
	    /* Only what the session may ptrace (Landlock: itself) in /proc. */
	    "ProtectProc", "s", "ptraceable",
	    /*
	     * Every line the session logs (syslog, stream, native) goes to
	     * a journald instance of its own, configured by the package's
	     * journald@opencode-pty.conf: no wall at any priority, bounded
	     * in size, so no session wakes every terminal or pushes the
	     * main journal's lines out (issue 25 item 8, docs/UNITS.md).
	     */
	    "LogNamespace", "s", "opencode-pty");
}

static int
props_check(const struct unit_spec *in)
{
	if (!unit_name_valid(in->name) || !unit_name_valid(in->pts_of))
		return -EINVAL;
	if (in->tty_fd < 0 || in->dirsock_fd < 0)
		return -EBADF;
	/* Each argument is looked at where it is encoded (append_exec). */
	if (in->argc == 0 || in->argc > START_MAX_ARGS || in->argv == NULL ||
	    in->argv[0] == NULL || in->argv[0][0] == '\0' ||
	    in->runtime_sec > START_MAX_RUNTIME)
		return -EINVAL;
	return 0;
}

/*
 * StartTransientUnit(name, "fail", ...): "fail" never replaces a queued
 * job on a unit of that name.  The properties follow.
 */
static int
start_open(sd_bus *bus, const char *name, sd_bus_message **m)
{
	int	 r;

	*m = NULL;
	r = sd_bus_message_new_method_call(bus, m, SD_DEST, SD_PATH,
	    SD_MANAGER, "StartTransientUnit");
	if (r < 0)
		return r;
	return sd_bus_message_append(*m, "ss", name, "fail");
}

/* No auxiliary units; 0 and the complete call, or -errno. */
static int
start_close(sd_bus_message *m, int r, sd_bus_message **out)
{
	if (r >= 0)
		r = sd_bus_message_append(m, "a(sa(sv))", 0);
	if (r < 0) {
		sd_bus_message_unref(m);
		return r;
	}
	*out = m;
	return 0;
}

/* The a(sv) of the session unit; -EINVAL, -EBADF for bad input. */
int
props_start_message(sd_bus *bus, const struct unit_spec *in,
    sd_bus_message **out)
{
	sd_bus_message	*m;
	int		 r;

	*out = NULL;
	if ((r = start_open(bus, in->name, &m)) >= 0 &&
	    (r = props_check(in)) >= 0 &&
	    (r = sd_bus_message_open_container(m, 'a', "(sv)")) >= 0 &&
	    (r = append_dynamic(m, in)) >= 0 &&
	    (r = append_fixed(m)) >= 0)
		r = sd_bus_message_close_container(m);
	return start_close(m, r, out);
}

/*
 * A session's devpts instance, mounted by PID 1 (the parent has no
 * CAP_SYS_ADMIN): a new instance whose terminals are made the session
 * user's, group tty, 0620, so no chown is needed; ptmx 0666 since the
 * session's /dev/ptmx may be a link to it (systemd-nspawn makes one);
 * at most OPTY_PTS_MAX terminals.  The mount point's parents are made
 * 0700: only root reaches it on the host.  Bound to the supervisor, it
 * goes with it; unmounted lazily, so a descriptor still open (the
 * relay's master) never keeps it mounted.
 */
int
props_pts_message(sd_bus *bus, const struct pts_names *pn, uid_t uid,
    gid_t gid, sd_bus_message **out)
{
	sd_bus_message	*m = NULL;
	char		 opts[160];
	int		 r;

	*out = NULL;
	(void)snprintf(opts, sizeof(opts), "newinstance,ptmxmode=0666,"
	    "mode=0620,uid=%u,gid=%u,max=%d,nosuid,noexec", (unsigned)uid,
	    (unsigned)gid, OPTY_PTS_MAX);
	if ((r = start_open(bus, pn->unit, &m)) >= 0)
		r = sd_bus_message_append(m, "a(sv)", 11,
		    "Description", "s", "OpenCode isolated PTY terminals",
		    "What", "s", "devpts",
		    "Where", "s", pn->where,
		    "Type", "s", "devpts",
		    "Options", "s", opts,
		    "DirectoryMode", "u", (uint32_t)0700,
		    "LazyUnmount", "b", 1,
		    "DefaultDependencies", "b", 0,
		    "BindsTo", "as", 1, OPTY_SUPERVISOR_UNIT,
		    "After", "as", 1, OPTY_SUPERVISOR_UNIT,
		    "CollectMode", "s", "inactive-or-failed");
	return start_close(m, r, out);
}

/* What PID 1 sent back, decoded. */

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
		if (v->val.s == NULL || (len = strlen(v->val.s)) >= w->size)
			return -EBADMSG;
		memcpy(dst, v->val.s, len + 1);
	} else if ((strcmp(w->sig, "t") == 0 && w->size == sizeof(uint64_t)) ||
	    ((strcmp(w->sig, "u") == 0 || strcmp(w->sig, "i") == 0 ||
	    strcmp(w->sig, "(uo)") == 0) && w->size == sizeof(uint32_t)))
		memcpy(dst, &v->val, w->size);	/* each member starts it */
	else if (strcmp(w->sig, "ay") == 0) {
		if (v->aylen != w->size || v->val.ay == NULL)
			return -EBADMSG;
		memcpy(dst, v->val.ay, w->size);
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

/*
 * Reads one variant at the current position, whatever type it holds, as
 * the value of the property that was asked for.
 */
int
prop_read_variant(sd_bus_message *m, const char *iface, const char *name,
    struct prop_value *v)
{
	const char	*contents;
	char		 type;
	int		 r;

	memset(v, 0, sizeof(*v));
	v->iface = iface;
	v->name = name;
	if ((r = sd_bus_message_peek_type(m, &type, &contents)) < 0)
		return r;
	if (r == 0 || type != 'v' || contents == NULL ||
	    strlen(contents) >= sizeof(v->sig))
		return -EBADMSG;
	memcpy(v->sig, contents, strlen(contents) + 1);
	if ((r = sd_bus_message_enter_container(m, 'v', contents)) < 0)
		return r;
	if (strcmp(v->sig, "(uo)") == 0)	/* Unit.Job: its id alone */
		r = sd_bus_message_read(m, "(uo)", &v->val.u, NULL);
	else if (strcmp(v->sig, "ay") == 0)
		r = sd_bus_message_read_array(m, 'y', &v->val.ay, &v->aylen);
	else if (strlen(v->sig) == 1 && strchr("soiut", v->sig[0]) != NULL)
		r = sd_bus_message_read_basic(m, v->sig[0], &v->val);
	else	/* other types are recorded by signature only */
		r = sd_bus_message_skip(m, v->sig);
	if (r < 0 || (r = sd_bus_message_exit_container(m)) < 0)
		return r;
	return 0;
}
