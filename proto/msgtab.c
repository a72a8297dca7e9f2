/*
 * msgtab.c: the one table of parent-relay messages (docs/IMSG.md).
 * Read by both sides; its real job is in the root parent, where it
 * bounds what a compromised relay can say: direction, exact payload
 * size, descriptor presence and the session states allowing each type.
 */
#include <stddef.h>
#include <stdint.h>

#include "proto/imsg.h"

#define S(x)	SS_BIT(SS_ ## x)

static const struct msgtab_ent msgtab[IMSG_TYPE_MAX] = {
	[IMSG_AUTH_REQ] = { "AUTH_REQ", TO_PARENT, 0, 0,
	    FD_REQUIRED, S(FREE) },
	[IMSG_AUTH_OK] = { "AUTH_OK", TO_RELAY, 0, 0,
	    FD_NONE, S(AUTH) },
	[IMSG_AUTH_DENY] = { "AUTH_DENY", TO_RELAY,
	    sizeof(struct imsg_code), sizeof(struct imsg_code),
	    FD_NONE, S(AUTH) },
	/* The smallest start: one argument of one byte plus its NUL. */
	[IMSG_START_REQ] = { "START_REQ", TO_PARENT,
	    sizeof(struct msg_start) + 2,
	    sizeof(struct msg_start) + FRAME_MAX_PAYLOAD,
	    FD_REQUIRED, S(ADMITTED) },
	/*
	 * CLOSING in the relay's rows: the parent may have answered before
	 * it read a close request that crossed its answer.
	 */
	[IMSG_START_OK] = { "START_OK", TO_RELAY, 0, 0,
	    FD_REQUIRED, S(STARTING) | S(CLOSING) },
	[IMSG_START_FAIL] = { "START_FAIL", TO_RELAY,
	    sizeof(struct imsg_code), sizeof(struct imsg_code),
	    FD_NONE, S(STARTING) | S(CLOSING) },
	[IMSG_EXIT] = { "EXIT", TO_RELAY,
	    sizeof(struct imsg_exit), sizeof(struct imsg_exit),
	    FD_NONE, S(STARTING) | S(RUNNING) | S(CLOSING) },
	[IMSG_CLOSE_REQ] = { "CLOSE_REQ", TO_PARENT,
	    sizeof(struct imsg_close), sizeof(struct imsg_close),
	    FD_NONE, S(ADMITTED) | S(STARTING) | S(RUNNING) | S(ENDED) },
	[IMSG_CLOSED] = { "CLOSED", TO_RELAY, 0, 0,
	    FD_NONE, S(CLOSING) },
	/*
	 * ENDED: the parent may have sent the exit before it read a signal
	 * request that crossed it; that request is then dropped.
	 */
	[IMSG_SIGNAL_REQ] = { "SIGNAL_REQ", TO_PARENT,
	    sizeof(struct imsg_signal), sizeof(struct imsg_signal),
	    FD_NONE, S(RUNNING) | S(ENDED) },
	/* Channel-wide: session id 0, whatever that slot's state. */
	[IMSG_SHUTDOWN] = { "SHUTDOWN", TO_RELAY, 0, 0,
	    FD_NONE, SS_ANY },
	[IMSG_SHUTDOWN_DONE] = { "SHUTDOWN_DONE", TO_PARENT, 0, 0,
	    FD_NONE, SS_ANY },
};

static const char *const state_names[SS_NSTATES] = {
	[SS_FREE] = "FREE",
	[SS_AUTH] = "AUTH",
	[SS_ADMITTED] = "ADMITTED",
	[SS_STARTING] = "STARTING",
	[SS_RUNNING] = "RUNNING",
	[SS_ENDED] = "ENDED",
	[SS_CLOSING] = "CLOSING",
};

/* NULL for anything not in the table, type 0 included. */
const struct msgtab_ent *
msgtab_lookup(uint32_t type)
{
	if (type >= IMSG_TYPE_MAX || msgtab[type].name == NULL)
		return NULL;
	return &msgtab[type];
}

const char *
imsg_type_name(uint32_t type)
{
	const struct msgtab_ent	*ent;

	if ((ent = msgtab_lookup(type)) == NULL)
		return "unknown";
	return ent->name;
}

const char *
sess_state_name(int state)
{
	if (state < 0 || state >= SS_NSTATES)
		return "unknown";
	return state_names[state];
}

int
imsg_check_state(const struct imsg *msg, enum sess_state state)
{
	const struct msgtab_ent	*ent;

	if ((ent = msgtab_lookup(msg->hdr.type)) == NULL)
		return IMSG_E_STATE;
	if ((int)state < 0 || state >= SS_NSTATES)
		return IMSG_E_STATE;
	if ((ent->states & SS_BIT(state)) == 0)
		return IMSG_E_STATE;
	return 0;
}

const char *
imsg_strerror(int status)
{
	switch (status) {
	case 1:
		return "message";
	case 0:
		return "end of file";
	case IMSG_E_IO:
		return "receive failed";
	case IMSG_E_TRUNC:
		return "packet truncated";
	case IMSG_E_CTRUNC:
		return "control data truncated";
	case IMSG_E_CMSG:
		return "unexpected control message";
	case IMSG_E_NFDS:
		return "more than one descriptor";
	case IMSG_E_SHORT:
		return "packet shorter than header";
	case IMSG_E_LENGTH:
		return "header length does not match packet";
	case IMSG_E_TYPE:
		return "unknown message type";
	case IMSG_E_DIR:
		return "message type sent in wrong direction";
	case IMSG_E_SIZE:
		return "payload size not allowed for type";
	case IMSG_E_FD_UNEXPECTED:
		return "descriptor on a type that takes none";
	case IMSG_E_FD_MISSING:
		return "descriptor missing";
	case IMSG_E_SID:
		return "session id out of range";
	case IMSG_E_STATE:
		return "message not allowed in session state";
	default:
		return "unknown";
	}
}
