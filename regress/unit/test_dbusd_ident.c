/*
 * test_dbusd_ident.c: cmocka tests of client identity decoding
 * (dbusd/props.c, and dbusd/ident.c compiled in for its static
 * decoder): each property counts only from its exact interface with its
 * exact type and size; a ControlGroup offered on the Unit interface is
 * ignored; InvocationID is exactly 16 bytes.  Values are also
 * round-tripped through a real sealed sd-bus variant.  Runs
 * unprivileged, no daemon.
 *
 * SPDX-License-Identifier: ISC
 * Copyright (c) 2026 The opencode-pty authors (see LICENSE)
 */
#include <sys/socket.h>

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* NOLINTNEXTLINE(bugprone-suspicious-include): its table is static */
#include "dbusd/ident.c"

#define UNIT	"org.freedesktop.systemd1.Unit"
#define SERVICE	"org.freedesktop.systemd1.Service"
#define CGROUP	"/system.slice/opencode-v2.service"

static const uint8_t inv16[16] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,
};

static struct prop_value
vs(const char *iface, const char *name, const char *s)
{
	struct prop_value	v = { .iface = iface, .name = name,
				    .val.s = s };

	strcpy(v.sig, "s");
	return v;
}

static struct prop_value
vu(const char *iface, const char *name, uint32_t u)
{
	struct prop_value	v = { .iface = iface, .name = name,
				    .val.u = u };

	strcpy(v.sig, "u");
	return v;
}

static struct prop_value
vay(const char *iface, const char *name, const void *p, size_t n)
{
	struct prop_value	v = { .iface = iface, .name = name, .val.ay = p,
				    .aylen = n };

	strcpy(v.sig, "ay");
	return v;
}

/*
 * The identity decoded as dbusd_client_ident_end() decodes an active
 * unit's: every row of ident.c's table, all or nothing.
 */
static int
ident_decode(const struct prop_value *v, size_t nv, struct client_ident *out)
{
	struct client_ident	tmp = { 0 };
	int			r;

	if ((r = props_decode(ident_want, ident_nwant, v, nv, &tmp)) < 0)
		return r;
	*out = tmp;
	return 0;
}

/* The five properties as systemd publishes them. */
static size_t
good(struct prop_value *v)
{
	v[0] = vs(UNIT, "ActiveState", "active");
	v[1] = vs(UNIT, "SubState", "running");
	v[2] = vay(UNIT, "InvocationID", inv16, 16);
	v[3] = vu(SERVICE, "MainPID", 42);
	v[4] = vs(SERVICE, "ControlGroup", CGROUP);
	return 5;
}

static void
test_good(void **state)
{
	struct prop_value	v[8];
	struct client_ident	id;
	size_t			n = good(v);

	(void)state;
	memset(&id, 0xaa, sizeof(id));
	assert_int_equal(ident_decode(v, n, &id), 0);
	assert_int_equal(id.main_pid, 42);
	assert_string_equal(id.active, "active");
	assert_string_equal(id.sub, "running");
	assert_memory_equal(id.invocation, inv16, 16);
	assert_string_equal(id.cgroup, CGROUP);
}

static void
test_cgroup_on_unit_refused(void **state)
{
	struct prop_value	v[8];
	struct client_ident	id;

	(void)state;
	/* Only the Unit interface offers a ControlGroup: not accepted. */
	good(v);
	v[4] = vs(UNIT, "ControlGroup", CGROUP);
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
	/* Both offered: the Service value counts, the Unit one is ignored. */
	good(v);
	v[5] = vs(UNIT, "ControlGroup", "/evil.slice/x.service");
	assert_int_equal(ident_decode(v, 6, &id), 0);
	assert_string_equal(id.cgroup, CGROUP);
	/* Same for MainPID. */
	good(v);
	v[3] = vu(UNIT, "MainPID", 42);
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
	/* And for a state read from the wrong interface. */
	good(v);
	v[0] = vs(SERVICE, "ActiveState", "active");
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
	/* A near-miss interface name is just another interface. */
	good(v);
	v[4] = vs(SERVICE ".", "ControlGroup", CGROUP);
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
}

static void
test_invocation_size(void **state)
{
	static const uint8_t	big[17] = { 1 };
	struct prop_value	v[8];
	struct client_ident	id;

	(void)state;
	good(v);
	v[2] = vay(UNIT, "InvocationID", inv16, 15);
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
	v[2] = vay(UNIT, "InvocationID", big, 17);
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
	v[2] = vay(UNIT, "InvocationID", inv16, 0);
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
	v[2] = vs(UNIT, "InvocationID", "0123456789abcdef");
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
}

static void
test_wrong_types(void **state)
{
	struct prop_value	v[8];
	struct client_ident	id;

	(void)state;
	good(v);
	v[3] = vs(SERVICE, "MainPID", "42");
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
	good(v);
	strcpy(v[3].sig, "i");
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
	good(v);
	v[0] = vu(UNIT, "ActiveState", 1);
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
	good(v);
	strcpy(v[4].sig, "o");
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
}

static void
test_missing_double_long(void **state)
{
	static char		longcg[300];
	struct prop_value	v[8];
	struct client_ident	id;
	size_t			i;

	(void)state;
	for (i = 0; i < 5; i++) {
		good(v);
		v[i].name = "Nothing";
		assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
	}
	good(v);
	assert_int_equal(ident_decode(v, 4, &id), -EBADMSG);
	/* Two answers for one property: neither is trusted. */
	good(v);
	v[5] = vu(SERVICE, "MainPID", 43);
	assert_int_equal(ident_decode(v, 6, &id), -EBADMSG);
	/* Too long for the field: refused, never truncated. */
	memset(longcg, 'x', sizeof(longcg) - 1);
	good(v);
	v[4] = vs(SERVICE, "ControlGroup", longcg);
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
	good(v);
	v[0] = vs(UNIT, "ActiveState", "0123456789012345678901234567890x");
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
	good(v);
	v[4].val.s = NULL;
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
}

static void
test_no_partial_result(void **state)
{
	struct prop_value	v[8];
	struct client_ident	id, before;

	(void)state;
	memset(&id, 0x5a, sizeof(id));
	before = id;
	good(v);
	v[4] = vs(UNIT, "ControlGroup", CGROUP);
	assert_int_equal(ident_decode(v, 5, &id), -EBADMSG);
	assert_memory_equal(&id, &before, sizeof(id));
}

/*
 * A message to marshal variants into, on a bus of our own (one end of a
 * socketpair, never connected to a daemon): msg_new(), append,
 * msg_to_read(), read back, msg_free().
 */
static sd_bus_message *
msg_new(sd_bus **bus, int sp[2])
{
	sd_bus_message	*m = NULL;

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
	    sp), 0);
	assert_true(sd_bus_new(bus) >= 0);
	assert_true(sd_bus_set_fd(*bus, sp[0], sp[0]) >= 0);
	assert_true(sd_bus_start(*bus) >= 0);
	assert_true(sd_bus_message_new_signal(*bus, &m, "/x", "x.y", "Z") >= 0);
	return m;
}

static void
msg_to_read(sd_bus_message *m)
{
	assert_true(sd_bus_message_seal(m, 1, 0) >= 0);
	assert_true(sd_bus_message_rewind(m, 1) >= 0);
}

static void
msg_free(sd_bus_message *m, sd_bus *bus, int sp[2])
{
	sd_bus_message_unref(m);
	sd_bus_close_unref(bus);
	close(sp[1]);
}

/*
 * prop_read_variant() on real marshalled variants: the signature inside
 * the variant is what counts, whatever the caller expected.
 */
static void
test_read_variant(void **state)
{
	sd_bus			*bus = NULL;
	sd_bus_message		*m = NULL;
	struct prop_value	 v[6], end;
	struct client_ident	 id;
	int			 sp[2];
	size_t			 i;

	(void)state;
	m = msg_new(&bus, sp);
	assert_true(sd_bus_message_append(m, "vvvvvv", "s", "active",
	    "s", "running", "u", (uint32_t)42, "s", CGROUP, "i", (int32_t)7,
	    "as", 1, "x") >= 0);
	assert_true(sd_bus_message_open_container(m, 'v', "ay") >= 0);
	assert_true(sd_bus_message_append_array(m, 'y', inv16, 16) >= 0);
	assert_true(sd_bus_message_close_container(m) >= 0);
	msg_to_read(m);

	memset(v, 0, sizeof(v));
	for (i = 0; i < 6; i++)
		assert_int_equal(prop_read_variant(m, NULL, NULL, &v[i]), 0);
	assert_string_equal(v[0].sig, "s");
	assert_string_equal(v[2].sig, "u");
	assert_int_equal(v[2].val.u, 42);
	assert_string_equal(v[4].sig, "i");
	assert_int_equal(v[4].val.i, 7);
	assert_string_equal(v[5].sig, "as");	/* recorded, skipped */
	/* The ay variant comes last in the message: read it into v[5]. */
	assert_int_equal(prop_read_variant(m, NULL, NULL, &v[5]), 0);
	assert_string_equal(v[5].sig, "ay");
	assert_int_equal(v[5].aylen, 16);
	/* Not a variant (end of message): an error, not a crash. */
	assert_true(prop_read_variant(m, NULL, NULL, &end) < 0);

	v[0].iface = UNIT, v[0].name = "ActiveState";
	v[1].iface = UNIT, v[1].name = "SubState";
	v[5].iface = UNIT, v[5].name = "InvocationID";
	v[2].iface = SERVICE, v[2].name = "MainPID";
	v[3].iface = SERVICE, v[3].name = "ControlGroup";
	v[4].iface = NULL;
	assert_int_equal(ident_decode(v, 6, &id), 0);
	assert_int_equal(id.main_pid, 42);
	assert_string_equal(id.cgroup, CGROUP);
	assert_memory_equal(id.invocation, inv16, 16);
	/* MainPID marshalled as "i" is refused even with the right value. */
	v[2] = v[4];
	v[2].iface = SERVICE, v[2].name = "MainPID";
	assert_int_equal(ident_decode(v, 6, &id), -EBADMSG);

	msg_free(m, bus, sp);
}

/*
 * The unit-state types the parent's start and exit decisions rest on:
 * Unit.Job as "(uo)" (only its id is kept) and a "t" timestamp, each
 * marshalled for real, each refused under another signature.
 */
struct state_pair {
	uint32_t	job;
	uint64_t	start;
};

static void
test_state_types(void **state)
{
	static const struct prop_want	 w[] = {
		{ UNIT, "Job", "(uo)", offsetof(struct state_pair, job),
		    sizeof(uint32_t) },
		{ SERVICE, "ExecMainStartTimestampMonotonic", "t",
		    offsetof(struct state_pair, start), sizeof(uint64_t) },
	};
	sd_bus			*bus = NULL;
	sd_bus_message		*m = NULL;
	struct prop_value	 v[2];
	struct state_pair	 out;
	int			 sp[2];

	(void)state;
	m = msg_new(&bus, sp);
	assert_true(sd_bus_message_append(m, "vv", "(uo)", (uint32_t)77,
	    "/org/freedesktop/systemd1/job/77", "t", (uint64_t)123456) >= 0);
	msg_to_read(m);
	memset(v, 0, sizeof(v));
	assert_int_equal(prop_read_variant(m, UNIT, "Job", &v[0]), 0);
	assert_int_equal(prop_read_variant(m, SERVICE,
	    "ExecMainStartTimestampMonotonic", &v[1]), 0);
	assert_string_equal(v[0].sig, "(uo)");
	memset(&out, 0, sizeof(out));
	assert_int_equal(props_decode(w, 2, v, 2, &out), 0);
	assert_int_equal(out.job, 77);
	assert_int_equal(out.start, 123456);
	/* A job id offered as a plain "u", or on the Service interface. */
	strcpy(v[0].sig, "u");
	assert_int_equal(props_decode(w, 2, v, 2, &out), -EBADMSG);
	strcpy(v[0].sig, "(uo)");
	v[0].iface = SERVICE;
	assert_int_equal(props_decode(w, 2, v, 2, &out), -EBADMSG);
	msg_free(m, bus, sp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_cgroup_on_unit_refused),
		cmocka_unit_test(test_invocation_size),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_missing_double_long),
		cmocka_unit_test(test_no_partial_result),
		cmocka_unit_test(test_read_variant),
		cmocka_unit_test(test_state_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
