#!/bin/sh
# client-strace.sh: host-level test of opencode-pty-client (run by
# `make check-unit`, as root, with BUILD set).  Runs the real static
# binary with exactly descriptors 0-4 under strace and proves it opens,
# stats, resolves, creates and connects nothing; checks its refusals;
# decodes the frame it sends and the one descriptor that rides with it,
# and with -s the RESIZE frame in front of it.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u

BUILD=${BUILD:-build}
CLIENT=$BUILD/bin/opencode-pty-client
PY=/usr/bin/python3

fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || fail "must run as root"
command -v strace >/dev/null 2>&1 || fail "strace not installed"
[ -x "$PY" ] || fail "$PY not found"
[ -x "$CLIENT" ] || fail "$CLIENT not built"

TMP=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$TMP"' EXIT INT TERM
mkdir "$TMP/dir" || fail "mkdir"
: > "$TMP/file"

"$PY" - "$CLIENT" "$TMP" <<'PY'
import os, re, socket, stat, struct, sys, time

client, tmp = sys.argv[1], sys.argv[2]
failures = 0

def check(ok, what):
    global failures
    print(("PASS: " if ok else "FAIL: ") + what)
    if not ok:
        failures += 1

def run(args, fd3="sock", fd4="dir", extra=False, trace=None,
        nonblock=False, slow=False):
    """Exec the client with exactly fds 0-4 (plus 5 if extra); return
    (wait status, stderr text, bytes received, received fds)."""
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    if fd3 == "pipe":
        r, w = os.pipe()
        three = w
    else:
        r = None
        three = b.fileno()
    four = os.open(tmp + "/dir" if fd4 == "dir" else tmp + "/file",
                   os.O_RDONLY)
    if nonblock:
        b.setblocking(False)
        b.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    errf = os.open(tmp + "/stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    devnull = os.open("/dev/null", os.O_RDONLY)
    argv = [client] + args
    if trace:
        argv = ["strace", "-f", "-qq", "-e", "trace=all", "-o", trace] + argv
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(devnull, 0); os.dup2(errf, 1); os.dup2(errf, 2)
            os.dup2(three, 3); os.dup2(four, 4)
            if extra:
                os.dup2(devnull, 5)
            os.closerange(6 if extra else 5, 1 << 20)
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    b.close(); os.close(four); os.close(errf); os.close(devnull)
    if r is not None:
        os.close(w)
    if slow:
        time.sleep(0.3)
    data, fds = b"", []
    while True:
        m, anc, flags, _ = a.recvmsg(1 << 17, socket.CMSG_SPACE(16 * 4),
                                     socket.MSG_CMSG_CLOEXEC)
        if flags & socket.MSG_CTRUNC:
            fds.append(-1)
        for lvl, typ, cd in anc:
            if lvl == socket.SOL_SOCKET and typ == socket.SCM_RIGHTS:
                fds += list(struct.unpack("%di" % (len(cd) // 4),
                                          cd[:len(cd) - len(cd) % 4]))
                if fds and len(data) != 0:
                    fds.append(-2)        # descriptor not on first bytes
        if not m:
            break
        data += m
    _, st = os.waitpid(pid, 0)
    if r is not None:
        os.close(r)
    a.close()
    with open(tmp + "/stderr") as f:
        err = f.read()
    return st, err, data, fds

def decode(data):
    """Independent decoder of docs/PROTOCOL.md's start frame."""
    if len(data) < 12:
        return None
    magic, ver, typ, res, plen = struct.unpack(">4sBBHI", data[:12])
    if (magic, ver, typ, res) != (b"OPTY", 1, 1, 0) or plen != len(data) - 12:
        return None
    p = data[12:]
    dev, ino, runtime, argc = struct.unpack(">QQIH", p[:22])
    off, args = 22, []
    for _ in range(argc):
        (n,) = struct.unpack(">H", p[off:off + 2])
        args.append(p[off + 2:off + 2 + n])
        off += 2 + n
    if off != len(p):
        return None
    return dev, ino, runtime, [x.decode() for x in args]

FORBIDDEN = re.compile(r"^(?:\d+\s+)?(open|openat|openat2|creat|stat|lstat|"
    r"access|faccessat|faccessat2|readlink|readlinkat|socket|socketpair|"
    r"connect|bind|listen|accept|accept4|recvmsg|recvfrom|read|chdir|"
    r"fchdir|execve|execveat|mknod|mknodat|link|symlink|unlink|rename)\(")
PATHSTAT = re.compile(r"^(?:\d+\s+)?(newfstatat|statx|fstatat64)\(")

def audit(trace, label):
    with open(trace) as f:
        lines = [re.sub(r"^\d+\s+", "", l.rstrip("\n")) for l in f]
    names = [re.match(r"^(?:\d+\s+)?([a-z0-9_]+)\(", l) for l in lines]
    names = [m.group(1) if m else "" for m in names]
    check(lines and names[0] == "execve" and lines[0].endswith("= 0"),
          label + ": trace starts with the client's execve")
    check(lines and lines[-1].startswith("exit_group("),
          label + ": trace ends in exit_group")
    # main()'s first system call; what precedes it is glibc's start-up.
    main = next((i for i, l in enumerate(lines)
                 if l.startswith("prctl(PR_SET_DUMPABLE")), len(lines))
    check(main < len(lines) and lines[main].endswith("= 0") and
          re.match(r"prctl\(PR_SET_DUMPABLE, (0|SUID_DUMP_DISABLE)\b",
                   lines[main]) is not None and
          not any(l.startswith("prctl(") for l in lines[1:main]),
          label + ": main() starts by making the process non-dumpable")
    bad = []
    for i, l in enumerate(lines[1:], 1):
        if i < main and l.startswith('readlink("/proc/self/exe",'):
            continue      # glibc static start-up, see docs/CLIENT.md
        if FORBIDDEN.match(l):
            bad.append(l)
        elif PATHSTAT.match(l) and not re.search(r'\(\d+, "", .*AT_EMPTY_PATH',
                                                 l):
            bad.append(l)
    check(not bad, label + ": no open/stat/readlink/socket/connect/read "
          "call after execve" + ("" if not bad else ": " + bad[0][:120]))
    pre = [l for l in lines[1:main] if not l.startswith("readlink(")]
    check(all(FORBIDDEN.match(l) is None for l in pre) and
          sum(l.startswith("readlink(") for l in lines[1:main]) <= 1,
          label + ": glibc start-up makes at most its one "
          "readlink(/proc/self/exe) and nothing else path-related")
    load = next((i for i, l in enumerate(lines)
                 if l.startswith("seccomp(SECCOMP_SET_MODE_FILTER, 0,")
                 and l.endswith("= 0")), None)
    check(load is not None, label + ": seccomp filter loaded")
    if load is not None:
        after = set(names[load + 1:])
        allowed = {"sendmsg", "sendto", "poll", "write", "exit_group"}
        check(after <= allowed, label + ": after the filter only " +
              ",".join(sorted(after)) + " (allowed: " +
              ",".join(sorted(allowed)) + ")")
    return names

dstat = os.stat(tmp + "/dir")
weird = ["printf", "%s|\n", "a b", "line1\nline2", "it's \"q\" `x` $(id) ;&|",
         "", "tab\there", "\u00e9t\u00e9"]

# 1. The frame, traced.
trace = tmp + "/trace1"
st, err, data, fds = run(["-t", "42", "--"] + weird, trace=trace)
check(os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0,
      "client exits 0 after sending (%r)" % err.strip())
audit(trace, "traced run")
fr = decode(data)
check(fr is not None, "frame decodes (header, type 1, exact payload length)")
if fr:
    check(fr[0] == dstat.st_dev and fr[1] == dstat.st_ino,
          "frame carries st_dev/st_ino of the directory")
    check(fr[2] == 42, "frame carries runtime 42")
    check(fr[3] == weird, "argv byte-exact (spaces, newline, quotes, empty)")
check(len(fds) == 1 and fds[0] >= 0,
      "exactly one SCM_RIGHTS descriptor, on the first bytes (%r)" % fds)
if len(fds) == 1 and fds[0] >= 0:
    rs = os.fstat(fds[0])
    check(stat.S_ISDIR(rs.st_mode) and rs.st_dev == dstat.st_dev and
          rs.st_ino == dstat.st_ino, "received descriptor is the directory")
for fd in fds:
    if fd >= 0:
        os.close(fd)

# 2. No -t, a full 65536-byte payload, non-blocking socket, slow reader.
big = ["x" * 4096] * 15 + ["y" * 4042]
trace = tmp + "/trace2"
st, err, data, fds = run(big, trace=trace, nonblock=True, slow=True)
check(os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0,
      "full-size frame on a non-blocking socket sent (%r)" % err.strip())
audit(trace, "full-size run")
fr = decode(data)
check(fr is not None and fr[2] == 0 and fr[3] == big and len(data) == 65548,
      "full-size frame decodes: runtime 0, 16 words, 65536-byte payload")
check(len(fds) == 1, "full-size frame: exactly one descriptor (%r)" % fds)
for fd in fds:
    if fd >= 0:
        os.close(fd)

# 2b. -s: one RESIZE frame (type 6, rows/cols big-endian), then the start
# frame; the descriptor still rides on the very first bytes sent.
trace = tmp + "/trace3"
st, err, data, fds = run(["-s", "50x132", "-t", "7", "--", "stty", "size"],
                         trace=trace)
check(os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0,
      "-s run exits 0 (%r)" % err.strip())
audit(trace, "-s run")
check(data[:16] == b"OPTY\x01\x06\x00\x00\x00\x00\x00\x04"
      b"\x00\x32\x00\x84",
      "-s 50x132: first frame is RESIZE 50x132 (%r)" % data[:16])
fr = decode(data[16:])
check(fr is not None and fr[2] == 7 and fr[3] == ["stty", "size"],
      "-s: the start frame follows, whole and alone")
check(len(fds) == 1 and fds[0] >= 0,
      "-s: exactly one descriptor, on the first bytes (%r)" % fds)
for fd in fds:
    if fd >= 0:
        os.close(fd)

# 3. Refusals: nothing is sent, exit non-zero, one clear line.
def refused(label, want_status, want_text, **kw):
    st, err, data, fds = run(kw.pop("args", ["true"]), **kw)
    check(os.WIFEXITED(st) and os.WEXITSTATUS(st) == want_status and
          want_text in err and err.count("\n") == 1 and not data and not fds,
          "%s: exit %d, nothing sent, says %r (got %r)" %
          (label, want_status, want_text, err.strip()))

refused("extra inherited fd 5", 5, "descriptor 5 is open", extra=True)
refused("fd 4 a regular file", 1, "descriptor 4 is not a directory",
        fd4="file")
refused("fd 3 a pipe", 1, "descriptor 3 is not a socket", fd3="pipe")
refused("runtime 0", 2, "runtime must be", args=["-t", "0", "true"])
refused("runtime 3601", 2, "runtime must be", args=["-t", "3601", "true"])
for bad in ["0x80", "24x0", "4097x80", "24x4097", "24X80", "24x80x1",
            "024x80", " 24x80", "24x", "65535x65535"]:
    refused("-s %r" % bad, 2, "window size must be ROWSxCOLS",
            args=["-s", bad, "true"])
refused("-s twice", 2, "more than once",
        args=["-s", "1x1", "-s", "2x2", "true"])
refused("129 words", 2, "too many", args=["x"] * 129)
refused("4097-byte word", 2, "longer than", args=["echo", "z" * 4097])
refused("empty command", 2, "empty command name", args=["--", ""])
refused("payload over 65536", 2, "exceed", args=["x" * 4096] * 16)

sys.exit(min(failures, 100))
PY
rc=$?
[ $rc = 0 ] || echo "FAIL: client-strace.sh: $rc failure(s) or helper error"
exit $rc
