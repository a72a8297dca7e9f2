#!/bin/sh
# 81-loopback.sh: the Node service's loopback listeners are out of a
# session's reach (issue 25 item 5; test only).  The installed drop-in
# 20-opencode-pty-loopback.conf loads the nftables table
# "inet opencode_pty" at every start of opencode-v2.service.  Here the
# client unit itself runs, as byk in its own cgroup (an ExecStartPre= of
# the very unit whose MainPID is the client), a listener on TCP and UDP
# at 127.0.0.1, ::1 and a further local address; a root service of
# another unit listens on 127.0.0.1.  A command started through the real
# path (MainPID -> client helper -> supervisor -> session unit) probes
# them all and its own listeners.  Rows: the Node service's listeners
# refused from the session (TCP at once by a reset, UDP by ICMP port
# unreachable), reached by a byk service outside any session and by the
# Node service's own cgroup (the controls); the session's own listeners
# and the other unit's reached; the same after a new start of the unit
# (a new cgroup: the table was loaded again); the table is absent until
# the unit first runs and, after a stop, names only the stopped cgroup;
# without nft the unit does not start.  Runs only
# in the test bed's private network namespace (regress/harness.sh).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
. "$REPO/regress/itlib.sh"

ADDR=10.251.25.5
OTHER=opty-loopback-other.service
CTL=opty-loopback-control.service
PORTS=$WORK/loopback.ports
OPORTS=$WORK/loopback.other
NODESIDE=$WORK/loopback.nodeside
DONE=$WORK/loopback.done
TABLE='inet opencode_pty'
NFT=$(command -v nft)

lo_cleanup() {
	[ -n "$NFT" ] && [ -e "$NFT.opty-off" ] && mv -f "$NFT.opty-off" "$NFT"
	systemctl stop "$OTHER" 2>/dev/null
	systemctl reset-failed "$OTHER" "$CTL" 2>/dev/null
	ip addr del "$ADDR/32" dev lo 2>/dev/null
	rm -f "$PORTS" "$OPORTS" "$NODESIDE" "$DONE"
	itlib_cleanup
}
trap 'lo_cleanup' EXIT

for c in nft ip python3 systemd-run; do
	command -v "$c" >/dev/null ||
	    { echo "FAIL: $c missing (make deps; regress/roots.sh EXTRA)"; exit 1; }
done
# The address is added to this network namespace's lo: only the test
# bed's own (--private-network: lo and nothing else), never a host's.
if ip -o link show | grep -qv ': lo:'; then
	echo "FAIL: not in a private network namespace with lo only:"
	ip -o link show | sed 's/^/  /'
	exit 1
fi
ip link set lo up && ip addr add "$ADDR/32" dev lo ||
    { echo "FAIL: cannot add $ADDR to lo"; exit 1; }

# The listener, run as byk: one TCP and one UDP socket per address,
# port 0; their ports, and the inode (cgroup id) of its own cgroup, in
# the file named first.  TCP says "hello" and closes; UDP echoes.
cat > "$tmp/listen.py" <<'EOF'
import os, selectors, socket, sys
out, addrs = sys.argv[1], sys.argv[2:]
sel = selectors.DefaultSelector()
rows = []
for a in addrs:
    key, host = a.split("=")
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    t = socket.socket(fam, socket.SOCK_STREAM)
    t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    t.bind((host, 0))
    t.listen(16)
    u = socket.socket(fam, socket.SOCK_DGRAM)
    u.bind((host, 0))
    sel.register(t, selectors.EVENT_READ, "tcp")
    sel.register(u, selectors.EVENT_READ, "udp")
    rows.append("tcp%s %s %d" % (key, host, t.getsockname()[1]))
    rows.append("udp%s %s %d" % (key, host, u.getsockname()[1]))
cg = [l[3:] for l in open("/proc/self/cgroup").read().split("\n")
      if l.startswith("0::")][0]
rows.append("cgroup %s %d" % (cg, os.stat("/sys/fs/cgroup" + cg).st_ino))
with open(out + ".tmp", "w") as f:
    f.write("\n".join(rows) + "\n")
os.rename(out + ".tmp", out)
while True:
    for k, _ in sel.select():
        s = k.fileobj
        if k.data == "tcp":
            c, _ = s.accept()
            c.sendall(b"hello\n")
            c.close()
        else:
            d, peer = s.recvfrom(64)
            s.sendto(d, peer)
EOF
# The probe: every listener of the files named, by TCP (connect, read
# "hello") and UDP (an echo), then listeners of its own on 127.0.0.1
# and ::1.  One line per row: NAME ok|refused|timeout|noreply|error.
cat > "$tmp/probe.py" <<'EOF'
import socket, sys, threading
def tcp(host, port):
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_STREAM)
    s.settimeout(3)
    try:
        s.connect((host, port))
        return "ok" if s.recv(16) == b"hello\n" else "error"
    except ConnectionRefusedError:
        return "refused"
    except socket.timeout:
        return "timeout"
    except OSError as e:
        return "error-%d" % e.errno
def udp(host, port):
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(fam, socket.SOCK_DGRAM)
    s.settimeout(3)
    try:
        s.connect((host, port))
        s.send(b"ping")
        return "ok" if s.recv(16) == b"ping" else "error"
    except ConnectionRefusedError:
        return "refused"
    except socket.timeout:
        return "noreply"
    except OSError as e:
        return "error-%d" % e.errno
def own(proto, host):
    fam = socket.AF_INET6 if ":" in host else socket.AF_INET
    kind = socket.SOCK_STREAM if proto == "tcp" else socket.SOCK_DGRAM
    srv = socket.socket(fam, kind)
    srv.bind((host, 0))
    def serve():
        if proto == "tcp":
            c, _ = srv.accept()
            c.sendall(b"hello\n")
            c.close()
        else:
            d, peer = srv.recvfrom(64)
            srv.sendto(d, peer)
    if proto == "tcp":
        srv.listen(1)
    t = threading.Thread(target=serve, daemon=True)
    t.start()
    port = srv.getsockname()[1]
    return tcp(host, port) if proto == "tcp" else udp(host, port)
prefix = {0: "", 1: "other-"}
for i, path in enumerate(sys.argv[1:]):
    for line in open(path):
        name, host, port = line.split()
        if name.startswith("tcp"):
            print(prefix[i] + name, tcp(host, int(port)), flush=True)
        elif name.startswith("udp"):
            print(prefix[i] + name, udp(host, int(port)), flush=True)
for proto, host in (("tcp", "127.0.0.1"), ("tcp", "::1"),
                    ("udp", "127.0.0.1")):
    print("own-%s-%s" % (proto, host), own(proto, host), flush=True)
EOF
# The client unit's ExecStartPre= (as byk, in the unit's own cgroup):
# the listener in the background, then, once it listens, the Node side's
# own probe of it (the control for the Node service itself).
cat > "$tmp/nodeside.sh" <<EOF
#!/bin/sh
python3 "$tmp/listen.py" "$PORTS" 4=127.0.0.1 6=::1 10=$ADDR \
    < /dev/null > /dev/null 2>&1 &
n=0
while [ ! -e "$PORTS" ] && [ \$n -lt 100 ]; do sleep 0.1; n=\$((n + 1)); done
python3 "$tmp/probe.py" "$PORTS" > "$NODESIDE.tmp" 2>&1
mv -f "$NODESIDE.tmp" "$NODESIDE"
EOF
chmod 0755 "$tmp/nodeside.sh" "$tmp/listen.py" "$tmp/probe.py"

# The root service of another unit, on 127.0.0.1.
rm -f "$OPORTS"
systemd-run --quiet --unit="$OTHER" -- \
    python3 "$tmp/listen.py" "$OPORTS" 4=127.0.0.1 ||
    { echo "FAIL: the other unit's listener did not start"; exit 1; }
has_oports() { [ -s "$OPORTS" ]; }
wait_for "$OTHER listening" has_oports || exit 1

has_table() { nft list table $TABLE > /dev/null 2>&1; }
# An earlier script's client start left its table (kept after a stop,
# see the drop-in): removed, so that round 1 shows this start load it.
if has_table; then
	echo "note: a table from an earlier start in this boot, removed"
	nft delete table $TABLE
fi
check "no table $TABLE before this script's first start" sh -c \
    "! nft list table $TABLE > /dev/null 2>&1"

sup_start || { echo "FAIL: supervisor did not start"; exit 1; }
has_ports() { [ -s "$PORTS" ] && [ -s "$NODESIDE" ]; }
has_unit() { [ -n "$(pty_units)" ]; }

# want FILE WHAT ROW RESULT: FILE has the line "ROW RESULT".
want() {
	if grep -qx "$3 $4" "$1"; then
		pass "$2: $3 $4"
	else
		fail "$2: $3: want $4, got '$(grep "^$3 " "$1" | cut -d' ' -f2-)'"
	fi
}

# round N: one start of the client unit (a new cgroup), its session's
# probe, the byk control outside any session, the Node side's own.
round() {
	r=$1
	rm -f "$PORTS" "$NODESIDE" "$DONE"
	CLIENT_PROPS="-p ExecStartPre=$tmp/nodeside.sh"
	client -t 90 -- /bin/sh -c 'python3 "$0" "$1" "$2"; n=0
	    while [ ! -e "$3" ] && [ $n -lt 600 ]; do
		sleep 0.1; n=$((n + 1)); done' \
	    "$tmp/probe.py" "$PORTS" "$OPORTS" "$DONE" &
	cl=$!
	CLIENT_PROPS=
	if ! wait_for "round $r: listener and Node side's probe" has_ports ||
	    ! wait_for "round $r: a session unit" has_unit; then
		touch "$DONE"; wait "$cl"
		head -c 600 "$tmp/err" | sed 's/^/  stderr: /'
		return 1
	fi
	cg=$(sed -n 's/^cgroup //p' "$PORTS")
	echo "round $r: the Node side's listener in cgroup $cg"
	case $cg in
	*/"$CLIENT_UNIT"' '[0-9]*) pass "round $r: the listener is in $CLIENT_UNIT's cgroup" ;;
	*) fail "round $r: the listener's cgroup is '$cg'" ;;
	esac
	if has_table; then
		pass "round $r: table $TABLE loaded while $CLIENT_UNIT runs"
		nft list table $TABLE | grep cgroupv2 | sed 's/^[[:space:]]*/  nft: /'
	else
		fail "round $r: no table $TABLE while $CLIENT_UNIT runs"
	fi
	systemd-run --quiet --wait --pipe --unit="$CTL" \
	    -p User=byk -p Group=byk -- \
	    python3 "$tmp/probe.py" "$PORTS" "$OPORTS" < /dev/null \
	    > "$tmp/control" 2>&1
	systemctl reset-failed "$CTL" 2>/dev/null
	touch "$DONE"
	wait "$cl"
	sed 's/^/  session: /' "$tmp/out"
	sed 's/^/  byk control: /' "$tmp/control"
	sed 's/^/  node side: /' "$NODESIDE"
	expect_exit 1 0 success "round $r: the probing session ended"
	for k in tcp4 tcp6 tcp10; do
		want "$tmp/out" "round $r: from a session" $k refused
	done
	for k in udp4 udp6 udp10; do
		want "$tmp/out" "round $r: from a session" $k refused
	done
	for k in tcp4 tcp6 tcp10 udp4 udp6 udp10; do
		want "$tmp/control" "round $r: control, byk outside a session" $k ok
		want "$NODESIDE" "round $r: control, the Node service's cgroup" $k ok
	done
	for k in own-tcp-127.0.0.1 own-tcp-::1 own-udp-127.0.0.1 \
	    other-tcp4 other-udp4; do
		want "$tmp/out" "round $r: from a session" $k ok
	done
}

round 1
cg1=$cg
# A new start: a new cgroup (a new id, which a table loaded for the first
# would not name: the refusal below proves the load at this start).
round 2
if [ -n "$cg1" ] && [ "${cg1##* }" != "${cg##* }" ]; then
	pass "round 2 ran in a new cgroup (id ${cg1##* } then ${cg##* })"
else
	fail "round 2: the same cgroup id as round 1 ('$cg1', '$cg')"
fi
# After the stop the table stays (no unload: see the drop-in) and names
# the stopped unit's cgroup, which no longer exists.
if has_table && ! [ -d "/sys/fs/cgroup/${cg%% *}" ]; then
	pass "after the stop the table names only the gone cgroup ${cg%% *}"
else
	fail "after the stop: table $(has_table && echo present || echo absent), cgroup '${cg%% *}'"
fi

# Fail closed: without nft the Node service does not start at all.
jc=$(jcursor)
mv "$NFT" "$NFT.opty-off"
client -- /bin/true
mv -f "$NFT.opty-off" "$NFT"
if [ "$rc" != 0 ] && ! grep -q '^opty-nodesim: exit ' "$tmp/last"; then
	pass "without nft $CLIENT_UNIT did not start (rc $rc)"
else
	fail "without nft $CLIENT_UNIT ran: rc $rc, $(cat "$tmp/last")"
fi
# The loader's line goes where the unit's stderr goes: the journal for
# an installed unit, systemd-run's pipe ($tmp/err) for the client here.
why='opencode-pty-loopback: nft not found'
if grep -q "$why" "$tmp/err" ||
    journalctl --after-cursor "$jc" --no-pager -o cat -u "$CLIENT_UNIT" |
    grep -q "$why"; then
	pass "the unit's stderr says why: $why"
else
	fail "no '$why' line from $CLIENT_UNIT"
	journalctl --after-cursor "$jc" --no-pager -o cat -u "$CLIENT_UNIT" |
	    tail -n 5 | sed 's/^/  journal: /'
	head -c 400 "$tmp/err" | sed 's/^/  stderr: /'
fi

check "no session unit left" wait_no_units 20
sup_stop
finish
