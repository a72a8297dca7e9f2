/*
 * relay.h: shared state of the opencode-pty relay, the unprivileged,
 * sandboxed process that parses every client frame and moves bytes
 * between client sockets and unit streams (docs/RELAY.md).
 */
#ifndef RELAY_RELAY_H
#define RELAY_RELAY_H

#include <stddef.h>
#include <stdint.h>

#include "proto/config.h"
#include "proto/frame.h"
#include "proto/imsg.h"
#include "relay/intake.h"
#include "relay/outbuf.h"

struct event_base;
struct event;

#define RELAY_RAW_SIZE		4096	/* client bytes read at once */
#define RELAY_START_TIMEOUT	10	/* seconds from admission */
#define RELAY_MAX_RECV_FDS	4	/* room to see surplus descriptors */

struct session {
	uint32_t		 id;		/* == slot index */
	enum sess_state		 state;		/* relay's view */
	int			 cfd;		/* client connection or -1 */
	int			 sfd;		/* PTY master or -1 */

	struct event		*ev_cread;
	struct event		*ev_cwrite;
	struct event		*ev_cgone;	/* peer hung up */
	struct event		*ev_sread;
	struct event		*ev_swrite;
	struct event		*ev_timer;	/* start frame deadline */

	uint32_t		 pending;	/* imsg not yet sent, or 0 */
	uint64_t		 pending_seq;	/* FIFO order of pending */
	int			 start_sent;	/* START_REQ reached parent */
	int			 resume;	/* pump the client input again */

	int			 got_exit;
	struct exit_info	 exit;
	int			 stream_eof;
	int			 stream_dead;	/* writes fail: drop input */
	int			 exit_queued;	/* exit frame in outbuf */
	int			 shutdown;	/* supervisor stopping: flush, end */
	struct winsize_req	 ws;		/* the terminal's size */
	int			 ws_pending;	/* apply once the master is here */
	uint8_t			 sigq[8];	/* signals for the parent */
	size_t			 sigq_n;
	size_t			 in_off;	/* input payload bytes sent */

	uint64_t		 bytes_in;
	uint64_t		 bytes_out;

	size_t			 raw_off;
	size_t			 raw_len;
	uint8_t			 raw[RELAY_RAW_SIZE];
	struct outbuf		 out;
	struct intake		 in;
};

struct relay {
	struct event_base	*base;
	int			 chan;		/* RELAY_FD_PARENT */
	int			 lsock;		/* RELAY_FD_LISTEN */
	struct event		*ev_chan;
	struct event		*ev_chan_write;
	struct event		*ev_listen;
	struct event		*ev_resume;	/* deferred client_pump() */
	int			 listen_paused;
	int			 shutting;	/* IMSG_SHUTDOWN received */
	int			 shutdown_told;	/* SHUTDOWN_DONE owed or sent */
	uint64_t		 seq;
	struct session		 sess[OPTY_MAX_SLOTS];
};

extern struct relay	relay;

/* session.c */
void	 session_table_init(void);
struct session *session_alloc(void);
int	 session_count(int);
void	 session_teardown(struct session *);
void	 session_attach_client(struct session *, int);
void	 session_attach_stream(struct session *, int);
void	 session_end(struct session *, uint16_t);
void	 session_free(struct session *);
void	 session_update_events(struct session *);
void	 relay_send_frame(int, uint8_t, const uint8_t *, size_t);
void	 relay_send_error(int, uint16_t);

/* relay.c */
void	 relay_listen_pause(void);
void	 relay_listen_resume(void);

/* client.c */
void	 client_accept_cb(int, short, void *);
void	 client_read_cb(int, short, void *);
void	 client_write_cb(int, short, void *);
void	 client_gone_cb(int, short, void *);
void	 client_timeout_cb(int, short, void *);
void	 client_pump(struct session *);
void	 client_flush(struct session *);

/* stream.c */
void	 stream_read_cb(int, short, void *);
void	 stream_write_cb(int, short, void *);
int	 stream_push_input(struct session *);
void	 stream_check_end(struct session *);
void	 stream_resize(struct session *, const struct winsize_req *);
void	 stream_signal(struct session *, uint8_t);

/* parent.c */
void	 relay_dispatch_parent(int, short, void *);
void	 parent_write_cb(int, short, void *);
void	 parent_resume_cb(int, short, void *);
void	 parent_queue(struct session *, uint32_t);
void	 relay_shutdown_progress(void);

#endif
