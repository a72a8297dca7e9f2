'use strict';
// nodepty.js: test only, never installed.  node-pty's own test cases,
// ported by behaviour (never by code) to the module's node-pty interface
// (opencode-pty/node-pty) against the REAL supervisor, for
// regress/it/84-nodepty.sh: run by the exact Node release as the MainPID
// of opencode-v2.service (user byk), through the installed module.  The
// table of docs/NODE.md ("node-pty's own tests, case by case") names the
// case here that covers each of node-pty's.
//
//	node nodepty.js --cwd DIR main
//	node nodepty.js --cwd DIR --go DIR sync
//
// One line per case on stderr, which the script checks by name:
//
//	nodepty: ok CASE: DETAIL
//	nodepty: FAIL CASE: DETAIL
//
// `sync` stops at points where the shell must look at the host (a session
// unit live or gone, a process left over): it prints
// `nodepty: sync NAME` and waits for the file GO/NAME to appear.  Where
// node-pty has no equivalent (onDrain, write()'s return value) the
// module's own API (require('opencode-pty')) is used.
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
// OPTY_NODE_MODULE names the installed copy (itlib.sh: node_entry); the
// node-pty layer is the file beside its index.js.
const MOD = process.env.OPTY_NODE_MODULE || path.join(__dirname, '..', '..',
    'client', 'node');
const pty = require(path.join(MOD, 'node-pty.js'));
const native = require(MOD);

const CASE_MS = 20000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function usage(why) {
	process.stderr.write(`nodepty: usage: ${why}\n`);
	process.exit(2);
}

const opt = { cwd: '/home/byk/work', go: null, cmd: null };
for (let i = 2; i < process.argv.length; i++) {
	const a = process.argv[i];
	if (a === '--cwd')
		opt.cwd = process.argv[++i];
	else if (a === '--go')
		opt.go = process.argv[++i];
	else if (opt.cmd === null)
		opt.cmd = a;
	else
		usage(`unexpected ${a}`);
}
if (opt.cmd !== 'main' && !(opt.cmd === 'sync' && opt.go))
	usage('main | --go DIR sync');

function line(s) {
	process.stderr.write(`nodepty: ${s.replace(/[\r\n]+/g, ' ')}\n`);
}

// How each session of this process ended, for the descriptor count.
const ended = new Map();
function count(way) {
	ended.set(way, (ended.get(way) || 0) + 1);
}

/*
 * The exceptions a listener throws on purpose go on up to the process
 * (docs/NODE.md, ELISTENER): they are collected here; anything else
 * uncaught is a failure of the run.
 */
const thrown = [];
process.on('uncaughtException', (e) => {
	if (e && e.onPurpose) {
		thrown.push(e);
		return;
	}
	line(`FAIL uncaught: ${e && e.stack}`);
	process.exit(1);
});

function thrower(what) {
	const e = new Error(`thrown on purpose by ${what}`);
	e.onPurpose = true;
	return e;
}

// check(cond, detail): a failed expectation ends the case with detail.
function check(cond, detail) {
	if (!cond)
		throw new Error(detail);
}

async function run(name, fn) {
	let timer;
	try {
		const detail = await Promise.race([fn(), new Promise((_, rej) => {
			timer = setTimeout(() => rej(new Error(
			    `no end within ${CASE_MS} ms`)), CASE_MS);
		})]);
		line(`ok ${name}: ${detail}`);
	} catch (e) {
		line(`FAIL ${name}: ${e && e.message}`);
	} finally {
		clearTimeout(timer);
	}
}

/*
 * A session through the node-pty layer, as node-pty code opens one:
 * output collected as it comes (strings, or Buffers with encoding null),
 * the exit event as a promise, and a way to wait for some output.
 */
function open(file, args, extra = {}) {
	const p = pty.spawn(file, args, { cwd: opt.cwd, ...extra });
	const s = { p, chunks: [], waiters: [] };
	s.text = () => s.chunks.map(String).join('');
	p.onData((d) => {
		s.chunks.push(d);
		for (const w of s.waiters.splice(0))
			w();
	});
	s.exit = new Promise((r) => p.onExit(r));
	s.until = (re) => new Promise((resolve) => {
		const look = () => {
			if (re.test(s.text()))
				resolve();
			else
				s.waiters.push(look);
		};
		look();
	});
	return s;
}

// exitIs(ev, code, signal): node-pty's { exitCode, signal }.
function exitIs(ev, code, signal, what) {
	check(ev.exitCode === code && ev.signal === signal && !ev.error,
	    `${what}: exit ${JSON.stringify(ev)} (error ` +
	    `${ev.error && ev.error.code}), want { exitCode: ${code}, ` +
	    `signal: ${signal} }`);
}

// errorIs(ev, code): a session that ended without an exit frame.
function errorIs(ev, code, what) {
	check(ev.exitCode === -1 && ev.signal === 0 && ev.error &&
	    ev.error.code === code, `${what}: ${JSON.stringify(ev)} ` +
	    `error ${ev.error && ev.error.code}, want ${code}`);
}

// This process's descriptors: number -> what it links to.  The listing's
// own directory descriptor is gone by the time it is read, and skipped.
function fds() {
	const m = new Map();
	for (const f of fs.readdirSync('/proc/self/fd')) {
		try {
			m.set(f, fs.readlinkSync(`/proc/self/fd/${f}`));
		} catch {
			// the listing's own
		}
	}
	return m;
}

function fdDiff(a, b) {
	const out = [];
	for (const [k, v] of b)
		if (a.get(k) !== v)
			out.push(`+${k}=${v}`);
	for (const [k, v] of a)
		if (!b.has(k))
			out.push(`-${k}=${v}`);
	return out.join(' ') || 'none';
}

function tmpDir() {
	return fs.mkdtempSync(path.join(os.tmpdir(), 'opty-nodepty-'));
}

// A listener on a socket of our own that reads the start frame the
// helper sends and then closes without a frame: the module's EEOF.
async function eofServer() {
	const dir = tmpDir();
	const sock = path.join(dir, 's');
	const srv = net.createServer((c) => {
		c.on('error', () => {});
		c.once('data', () => c.end());
	});
	await new Promise((r) => srv.listen(sock, r));
	return { sock, close: () => new Promise((r) => srv.close(() => {
		fs.rmSync(dir, { recursive: true, force: true });
		r();
	})) };
}

// A socket path whose inode is a Unix socket nobody listens on: a
// listener's file renamed away before it closes (libuv unlinks only the
// name it bound).
async function deadSocket() {
	const dir = tmpDir();
	const srv = net.createServer(() => {});
	await new Promise((r) => srv.listen(path.join(dir, 'live'), r));
	fs.renameSync(path.join(dir, 'live'), path.join(dir, 'dead'));
	await new Promise((r) => srv.close(r));
	check(fs.statSync(path.join(dir, 'dead')).isSocket(),
	    'the dead socket file is a socket');
	return { sock: path.join(dir, 'dead'),
	    close: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/*
 * Each way a session can end, once; used for the rounds of the
 * descriptor count.  Each returns after onExit.
 */
const WAYS = {
	async exit() {
		const s = open('sh', ['-c', 'exit 0']);
		exitIs(await s.exit, 0, 0, 'exit');
		count('exit');
	},
	async kill() {
		const s = open('sh', ['-c', 'echo ready; exec sleep 30']);
		await s.until(/ready/);
		s.p.kill();
		exitIs(await s.exit, 0, os.constants.signals.SIGHUP, 'kill()');
		count('kill');
	},
	async killTerm() {
		const s = open('sh', ['-c', 'echo ready; exec sleep 30']);
		await s.until(/ready/);
		s.p.kill('SIGTERM');
		exitIs(await s.exit, 0, os.constants.signals.SIGTERM,
		    "kill('SIGTERM')");
		count('kill');
	},
	async destroy() {
		const s = open('sh', ['-c', 'echo ready; exec sleep 30']);
		await s.until(/ready/);
		s.p.destroy();
		errorIs(await s.exit, 'EDESTROYED', 'destroy()');
		count('destroy');
	},
	async listenerThrows() {
		const s = open('sh', ['-c', 'echo ready; exec sleep 30']);
		const before = thrown.length;
		s.p.onData(() => { throw thrower('onData'); });
		errorIs(await s.exit, 'ELISTENER', 'a throwing listener');
		check(thrown.length === before + 1,
		    'the exception went on up to the process');
		count('listener');
	},
	async helperRefuses() {
		// A helper that runs and refuses (status 1, nothing sent): the
		// real one refuses only what the module never does, so
		// /bin/false stands in.
		const s = open('sh', ['-c', 'exit 0'], { helperPath: '/bin/false' });
		errorIs(await s.exit, 'EHELPER', 'a refusing helper');
		count('helper');
	},
	async helperMissing() {
		const s = open('sh', ['-c', 'exit 0'],
		    { helperPath: '/nonexistent/opencode-pty-client' });
		errorIs(await s.exit, 'EHELPER', 'a missing helper');
		count('helper');
	},
	async eeof() {
		const f = await eofServer();
		const s = open('sh', ['-c', 'exit 0'], { socketPath: f.sock });
		errorIs(await s.exit, 'EEOF', 'a connection closed without a frame');
		await f.close();
		count('eeof');
	},
	async enoent() {
		const s = open('sh', ['-c', 'exit 0'],
		    { socketPath: '/nonexistent/supervisor.sock' });
		errorIs(await s.exit, 'ENOENT', 'no socket file');
		count('socket error');
	},
	async econnrefused() {
		const d = await deadSocket();
		const s = open('sh', ['-c', 'exit 0'], { socketPath: d.sock });
		errorIs(await s.exit, 'ECONNREFUSED', 'nobody listening');
		d.close();
		count('socket error');
	},
};

// The cases of main, in order.  Each returns its detail line.
const CASES = [];
function kase(name, fn) {
	CASES.push([name, fn]);
}

// The shape of code written for node-pty, unchanged: a terminal bridged
// to a WebSocket whose send() returns false (a slow client; node-pty
// code ignores that), resize(cols, rows) from the browser, input from
// it, onExit closing it.
kase('nodepty-style', async () => {
	const ws = { sent: [], closed: null,
		send(d) { this.sent.push(d); return false; },
		close(code) { this.closed = code; } };
	const term = pty.spawn('sh', ['-c',
	    'stty size; read l; stty size; echo "got:$l"'], {
		name: 'xterm-256color', cols: 100, rows: 30, cwd: opt.cwd,
	});
	term.onData((d) => ws.send(d));
	const ex = new Promise((r) => term.onExit(({ exitCode, signal }) => {
		ws.close(exitCode === 0 ? 1000 : 1011);
		r({ exitCode, signal });
	}));
	check(term.process === 'sh', `process ${term.process}`);
	check(Number.isNaN(term.pid) && String(term.pid) === 'NaN',
	    `pid ${term.pid}`);
	const text = () => ws.sent.join('');
	for (let i = 0; i < 400 && !/30 100/.test(text()); i++)
		await sleep(25);
	check(/^30 100\r$/m.test(text()), `size at spawn: ${text()}`);
	term.resize(120, 40);
	check(term.cols === 120 && term.rows === 40,
	    `cols/rows ${term.cols}x${term.rows}`);
	term.write('hello\r');
	const ev = await ex;
	exitIs(ev, 0, 0, 'sh');
	check(/^40 120\r$/m.test(text()), `after resize(120, 40): ${text()}`);
	check(/^got:hello\r$/m.test(text()), `input: ${text()}`);
	check(ws.sent.every((d) => typeof d === 'string'), 'strings');
	check(ws.closed === 1000, `ws.close(${ws.closed})`);
	count('exit');
	return `stty size 30 100, then 40 120; input read; ws got ` +
	    `${ws.sent.length} strings; ${JSON.stringify(ev)}`;
});

// The supervisor's cap: 16 sessions of one service; the 17th is
// refused (node-pty layer: exitCode -1 and the error).
let busyFds = null;
kase('busy', async () => {
	const ss = [];
	for (let i = 0; i < 17; i++)
		ss.push(open('sh', ['-c', 'sleep 1.5']));
	const evs = await Promise.all(ss.map((s) => s.exit.then((ev) => {
		if (ev.error && busyFds === null)
			busyFds = fds();
		return ev;
	})));
	const ok = evs.filter((e) => e.exitCode === 0 && !e.error).length;
	const busy = evs.filter((e) => e.error && e.error.code === 'ERR_BUSY');
	check(ok === 16 && busy.length === 1, `${ok} ran, ${busy.length} busy: ` +
	    evs.map((e) => e.error ? e.error.code : e.exitCode).join(' '));
	check(busy[0].exitCode === -1 && busy[0].signal === 0,
	    `the refusal ${JSON.stringify(busy[0])}`);
	for (let i = 0; i < 16; i++)
		count('exit');
	count('ERR_BUSY');
	return '16 ran; the 17th: { exitCode: -1, signal: 0, error: ERR_BUSY }';
});

// Many chunks into a ws whose send() always returns false: nothing is
// held back or lost by what the listener returns.
kase('slow-ws', async () => {
	const ws = { sent: [], send(d) { this.sent.push(d); return false; } };
	const term = pty.spawn('seq', ['1', '20000'], { cwd: opt.cwd });
	term.onData((d) => ws.send(d));
	const ev = await new Promise((r) => term.onExit(r));
	exitIs(ev, 0, 0, 'seq');
	const got = ws.sent.join('').split('\r\n');
	check(got.length === 20001 && got[0] === '1' && got[19999] === '20000' &&
	    got.every((l, i) => i === 20000 ? l === '' : l === String(i + 1)),
	    `seq 1 20000: ${got.length - 1} lines, last ${got[got.length - 2]}`);
	count('exit');
	return `20000 lines in order in ${ws.sent.length} send()s, each ` +
	    'returning false';
});

// node-pty: SIGHUP default (child only); kill()'s default is SIGHUP.
kase('kill-default', async () => {
	const s = open('sh', ['-c', 'echo ready; read x; echo timeout']);
	await s.until(/ready/);
	s.p.kill();
	const ev = await s.exit;
	exitIs(ev, 0, os.constants.signals.SIGHUP, 'kill()');
	check(!/timeout/.test(s.text()), `output after the kill: ${s.text()}`);
	count('kill');
	return `kill(): ${JSON.stringify(ev)}, nothing printed after`;
});

kase('kill-sigterm', async () => {
	const s = open('sh', ['-c', 'echo ready; exec sleep 30']);
	await s.until(/ready/);
	s.p.kill('SIGTERM');
	const ev = await s.exit;
	exitIs(ev, 0, os.constants.signals.SIGTERM, "kill('SIGTERM')");
	count('kill');
	return `kill('SIGTERM'): ${JSON.stringify(ev)}`;
});

// node-pty: SIGINT - custom in parent and child.  The service's own
// SIGINT handler and the command's trap each run once; neither signal
// reaches the other side.
kase('sigint-parent-and-child', async () => {
	let parent = 0;
	const h = () => { parent++; };
	process.on('SIGINT', h);
	try {
		const s = open('sh', ['-c', 'trap "echo SIGINT in child; exit 0" ' +
		    'INT; echo ready; while :; do sleep 0.05; done']);
		await s.until(/ready/);
		process.kill(process.pid, 'SIGINT');
		s.p.kill('SIGINT');
		const ev = await s.exit;
		await sleep(50);
		exitIs(ev, 0, 0, 'the trap');
		const n = s.text().split('SIGINT in child').length - 1;
		check(n === 1, `the child's handler ran ${n} times`);
		check(parent === 1, `the parent's handler ran ${parent} times`);
		count('kill');
		return "the child's trap and the service's handler ran once each";
	} finally {
		process.removeListener('SIGINT', h);
	}
});

// node-pty: SIGINT - custom in parent, default in child.  The command's
// SIGINT is at its default (neither ignored nor the service's handler).
// The shell reads its own status with builtins: while it waits for a
// child of its own, sh blocks every signal, so a child's reading of
// /proc/$$/status would show that.
kase('sigint-default-in-child', async () => {
	const h = () => {};
	process.on('SIGINT', h);
	try {
		const s = open('sh', ['-c', 'while read -r k v; do case $k in ' +
		    'SigIgn:|SigBlk:) echo "$k $v";; esac; done < /proc/$$/status; ' +
		    'echo ready; read x; echo should-not-be-printed']);
		await s.until(/ready/);
		s.p.kill('SIGINT');
		const ev = await s.exit;
		exitIs(ev, 0, os.constants.signals.SIGINT, "kill('SIGINT')");
		check(!/should-not/.test(s.text()), `printed: ${s.text()}`);
		for (const k of ['SigIgn', 'SigBlk']) {
			const m = new RegExp(`${k}:\\s*([0-9a-f]+)`).exec(s.text());
			check(m && (BigInt(`0x${m[1]}`) & 2n) === 0n,
			    `${k} of the command: ${m && m[1]}`);
		}
		count('kill');
		return `${JSON.stringify(ev)}; SIGINT neither ignored nor ` +
		    'blocked in the command';
	} finally {
		process.removeListener('SIGINT', h);
	}
});

// node-pty: SIGUSR1 - custom in parent and child.
kase('sigusr1-parent-and-child', async () => {
	let parent = 0;
	const h = () => {
		parent++;
		process.removeListener('SIGUSR1', h);
	};
	process.on('SIGUSR1', h);
	const s = open('sh', ['-c', 'trap "echo SIGUSR1 in child" USR1; ' +
	    'echo ready; i=0; while [ $i -lt 10 ]; do sleep 0.05; ' +
	    'i=$((i + 1)); done']);
	await s.until(/ready/);
	process.kill(process.pid, 'SIGUSR1');
	s.p.kill('SIGUSR1');
	const ev = await s.exit;
	exitIs(ev, 0, 0, 'the loop');
	check(parent === 1, `the parent's handler ran ${parent} times`);
	const out = s.text().replace(/^ready\r\n/, '');
	check(out === 'SIGUSR1 in child\r\n', `child output ${JSON.stringify(out)}`);
	count('exit');
	return 'each handler once; the child printed exactly its line';
});

// node-pty: Constructor, should set a valid pts name.  The terminal is
// the command's (a /dev/pts/N of its session); this process holds no
// terminal descriptor at all.
kase('pts-name', async () => {
	const s = open('tty', []);
	const ev = await s.exit;
	exitIs(ev, 0, 0, 'tty');
	check(/^\/dev\/pts\/\d+\r\n$/.test(s.text()), `tty: ${s.text()}`);
	const mine = [...fds().values()].filter((l) =>
	    /^\/dev\/(pts|ptmx|tty)/.test(l));
	check(mine.length === 0, `terminals open here: ${mine.join(' ')}`);
	count('exit');
	return `the command's tty is ${s.text().trim()}; none open in Node`;
});

// node-pty: should not leak pty file descriptors to child processes.
// Three sessions; the third's shell has ls list its descriptors (ls reads
// the shell's table, not its own), then opens a ptmx on purpose and
// lists again (the control: the count sees it).
kase('no-ptmx-in-child', async () => {
	const ss = [0, 1].map(() => open('sh', ['-c', 'echo ready; read x']));
	for (const s of ss)
		await s.until(/ready/);
	const s = open('sh', ['-c', 'echo LIST; ls -l /proc/$$/fd; ' +
	    'exec 7</dev/ptmx; echo LIST; ls -l /proc/$$/fd']);
	exitIs(await s.exit, 0, 0, 'the third');
	for (const x of ss) {
		x.p.write('\r');
		exitIs(await x.exit, 0, 0, 'the first two');
	}
	const lists = s.text().split('LIST\r\n').slice(1).map((t) =>
	    [...t.matchAll(/ (\d+) -> (.*?)\r?$/gm)].map((m) => [m[1], m[2]]));
	check(lists.length === 2, `output ${s.text()}`);
	const show = (l) => l.map(([f, t]) => `${f}=${t}`).join(' ');
	const ptmx = (l) => l.filter(([, t]) => /ptmx/.test(t)).length;
	check(lists[0].map(([f]) => f).join(' ') === '0 1 2' &&
	    ptmx(lists[0]) === 0, `the third's shell: ${show(lists[0])}`);
	check(ptmx(lists[1]) === 1, 'control: a ptmx opened on purpose is ' +
	    `counted (${show(lists[1])})`);
	count('exit');
	count('exit');
	count('exit');
	return `the third shell holds ${show(lists[0])}, no ptmx (control: ` +
	    `${ptmx(lists[1])} after opening one)`;
});

// node-pty: should handle exec() errors.  node-pty's child exits 1; here
// the launcher's status: 71 execve failed, 70 not found in the PATH.
kase('exec-error', async () => {
	const a = open('/bin/bogus.exe', []);
	const ea = await a.exit;
	exitIs(ea, 71, 0, '/bin/bogus.exe');
	check(/execve/.test(a.text()), `the launcher's line: ${a.text()}`);
	const b = open('bogus-not-in-path', []);
	const eb = await b.exit;
	exitIs(eb, 70, 0, 'bogus-not-in-path');
	count('exit');
	count('exit');
	return `/bin/bogus.exe ${JSON.stringify(ea)} "${a.text().trim()}"; ` +
	    `a name not in PATH ${JSON.stringify(eb)}`;
});

// node-pty: should handle chdir() errors, and Terminal's type checks:
// here spawn() throws, before anything is opened.
kase('spawn-throws', async () => {
	const before = fds();
	const bad = [
		['cwd /nowhere', () => pty.spawn('/bin/echo', [], { cwd: '/nowhere' }),
		    (e) => e.code === 'ENOENT'],
		['name {}', () => pty.spawn('sh', [], { cwd: opt.cwd, name: {} }),
		    (e) => /option name/.test(e.message)],
		["cols '80'", () => pty.spawn('sh', [], { cwd: opt.cwd,
		    cols: '80', rows: 24 }), (e) => e instanceof RangeError],
		['args [1]', () => pty.spawn('sh', [1], { cwd: opt.cwd }),
		    (e) => e instanceof TypeError],
		['args a string', () => pty.spawn('sh', '-c true', { cwd: opt.cwd }),
		    (e) => e instanceof TypeError],
		["encoding 'bogus'", () => pty.spawn('sh', [], { cwd: opt.cwd,
		    encoding: 'bogus' }), (e) => e.code === 'ERR_UNKNOWN_ENCODING'],
		['env', () => pty.spawn('sh', [], { cwd: opt.cwd, env: {} }),
		    (e) => /option env/.test(e.message)],
	];
	for (const [what, f, ok] of bad) {
		let err = null;
		try {
			f();
		} catch (e) {
			err = e;
		}
		check(err && ok(err), `${what}: ${err ? `${err.name} ${err.code} ` +
		    err.message : 'no throw'}`);
	}
	await sleep(100);
	const d = fdDiff(before, fds());
	check(d === 'none', `descriptors changed: ${d}`);
	return `${bad.map((b) => b[0]).join(', ')}: each throws, nothing opened`;
});

// node-pty: should respect ctor flow control options (and what they
// do): the pause string stops reading, the resume string goes on,
// neither reaches the terminal.
kase('flow-control', async () => {
	const s = open('sh', ['-c', 'stty -echo; echo ready; ' +
	    'while read l; do echo "line:$l"; done'], { handleFlowControl: true,
	    flowControlPause: 'abc', flowControlResume: '123' });
	check(s.p.handleFlowControl === true, 'handleFlowControl');
	await s.until(/ready/);
	s.p.write('abc');
	s.p.write('x\r');
	await sleep(400);
	check(!/line:/.test(s.text()), `read while paused: ${s.text()}`);
	s.p.write('123');
	await s.until(/line:x/);
	s.p.write('\x04');
	exitIs(await s.exit, 0, 0, 'EOF');
	check(s.text() === 'ready\r\nline:x\r\n', `output ${JSON.stringify(s.text())}`);
	count('exit');
	return "'abc' paused (no output for 400 ms), '123' resumed; the " +
	    'terminal saw neither';
});

// EventEmitter2: listeners fire in order, every time; a disposed one
// gets nothing more (onData and onExit), the others go on.
kase('listeners-dispose', async () => {
	const s = open('sh', ['-c', 'stty -echo; echo one; read x; echo two']);
	const order = [];
	s.p.onData(() => order.push('a'));
	const b = s.p.onData(() => order.push('b'));
	s.p.on('data', () => order.push('c'));
	const exits = [];
	const e1 = s.p.onExit(() => exits.push(1));
	s.p.onExit(() => exits.push(2));
	s.p.on('exit', (code, sig) => exits.push(`on:${code},${sig}`));
	await s.until(/one/);
	check(order.join('') === 'abc'.repeat(order.length / 3),
	    `order ${order.join('')}`);
	const n = order.length;
	b.dispose();
	e1.dispose();
	s.p.write('\r');
	exitIs(await s.exit, 0, 0, 'sh');
	await sleep(10);
	const after = order.slice(n).join('');
	check(after.length > 0 && after === 'ac'.repeat(after.length / 2),
	    `after dispose: ${after}`);
	check(exits.join(' ') === '2 on:0,0', `exit listeners ${exits.join(' ')}`);
	count('exit');
	return `before: ${order.slice(0, n).join('')}; after dispose: ` +
	    `${after}; exit listeners: ${exits.join(' ')}`;
});

/*
 * node-pty: PtyForkEncodingOption (utf8 by default, Buffers with
 * encoding null, other encodings).  The command writes 'æ' (C3 A6) with
 * a pause between its two bytes, so that they come in two reads; a
 * session with encoding null shows that split (the control), then each
 * encoding's strings must be exactly what Buffer gives for the bytes.
 */
kase('encodings', async () => {
	const cmd = ['-c', 'printf "\\303"; sleep 0.2; printf "\\246 test \\303\\246!\\n"'];
	const raw = open('sh', cmd, { encoding: null });
	exitIs(await raw.exit, 0, 0, 'encoding null');
	check(raw.chunks.every((c) => Buffer.isBuffer(c)), 'Buffers');
	const bytes = Buffer.concat(raw.chunks);
	check(bytes.equals(Buffer.from('æ test æ!\r\n')), `bytes ${bytes.toString('hex')}`);
	check(raw.chunks[0].length === 1 && raw.chunks[0][0] === 0xc3,
	    `control: the first read is C3 alone (${raw.chunks[0].toString('hex')})`);
	const done = ['null: Buffers, C3 | A6... split'];
	for (const enc of [undefined, 'utf8', 'base64', 'hex', 'latin1',
	    'utf16le']) {
		const s = open('sh', cmd, enc === undefined ? {} : { encoding: enc });
		exitIs(await s.exit, 0, 0, `encoding ${enc}`);
		check(s.chunks.every((c) => typeof c === 'string'), 'strings');
		const want = bytes.toString(enc || 'utf8');
		check(s.text() === want, `${enc}: ${JSON.stringify(s.text())}, ` +
		    `want ${JSON.stringify(want)}`);
		if (enc === undefined || enc === 'utf8')
			check(!s.chunks.some((c) => c.includes('\ufffd')),
			    'no replacement character');
		done.push(enc === undefined ? 'default utf8' : enc);
		count('exit');
	}
	count('exit');
	return done.join(', ');
});

/*
 * Not node-pty's (its write() returns nothing and it has no onDrain):
 * the module's own API.  The command does not read its input for 2 s
 * (raw, no echo), so the socket fills and write() says false; writing
 * goes on at each onDrain until 4 MiB are written, and the command then
 * counts every byte.
 */
kase('write-false-ondrain', async () => {
	const N = 4 << 20;
	const p = native.spawn(['sh', '-c', 'stty raw -echo; echo ready; ' +
	    `sleep 2; head -c ${N} | wc -c`], { cwd: opt.cwd });
	let out = '';
	let falses = 0;
	let drains = 0;
	let sent = 0;
	let firstFalseAt = -1;
	const chunk = Buffer.alloc(65536, 'x');
	const pump = () => {
		while (sent < N) {
			sent += chunk.length;
			if (!p.write(chunk)) {
				falses++;
				if (firstFalseAt < 0)
					firstFalseAt = sent;
				return;
			}
		}
	};
	p.onDrain(() => {
		drains++;
		pump();
	});
	const ex = new Promise((r) => p.onExit(r));
	let started = false;
	p.onData((d) => {
		out += d;
		if (!started && /ready/.test(out)) {
			started = true;
			pump();
		}
	});
	const ev = await ex;
	check(ev.exitCode === 0 && !ev.error, `exit ${JSON.stringify(ev)}`);
	check(falses >= 1 && drains >= 1, `write() false ${falses} times, ` +
	    `onDrain ${drains} times`);
	const m = /(\d+)\s*$/.exec(out);
	check(m && Number(m[1]) === N, `the command read ${m && m[1]} of ${N}`);
	count('exit');
	return `first false after ${firstFalseAt} bytes; false ${falses}, ` +
	    `onDrain ${drains} times; the command read all ${N}`;
});

// After the exit: write, resize, kill throw nothing and send nothing.
kase('after-exit', async () => {
	const s = open('sh', ['-c', 'exit 3']);
	const ev = await s.exit;
	exitIs(ev, 3, 0, 'exit 3');
	// The module's socket, read only to see that nothing more goes out.
	const sock = s.p._p._sock;
	const w0 = sock.bytesWritten;
	s.p.write('more input\r');
	s.p.write(Buffer.from('bytes'));
	s.p.resize(50, 20);
	s.p.kill();
	s.p.kill('SIGTERM');
	const nat = native.spawn(['sh', '-c', 'exit 0'], { cwd: opt.cwd });
	await new Promise((r) => nat.onExit(r));
	const wr = nat.write('x');
	await sleep(50);
	check(sock.destroyed && sock.bytesWritten === w0,
	    `socket destroyed ${sock.destroyed}, bytes ${w0} -> ${sock.bytesWritten}`);
	check(s.p.cols === 80 && s.p.rows === 24, `size ${s.p.cols}x${s.p.rows}`);
	check(wr === true, `the module's write() after the exit: ${wr}`);
	count('exit');
	count('exit');
	return 'write, resize, kill(), kill(SIGTERM): no throw, 0 bytes ' +
	    'sent, size kept; write() true';
});

// node-pty: close (destroy() ends the session).  node-pty's exit is
// (0, SIGHUP); here the module's EDESTROYED, the unit removed (84-
// nodepty.sh checks no unit is left).
kase('destroy', async () => {
	await WAYS.destroy();
	return "onExit { exitCode: -1, signal: 0, error: 'EDESTROYED' }";
});

// test/spam-close.js: sessions spammed with input and killed shortly
// after must each end (node-pty issue 375 hung here).
kase('spam-close', async () => {
	const N = 8;
	const evs = [];
	for (let i = 0; i < N; i++) {
		const s = open('sh', [], { name: 'xterm-256color', cols: 80, rows: 26 });
		const t = setInterval(() => s.p.write('echo foo\r'.repeat(50)), 10);
		setTimeout(() => s.p.kill(), 100);
		const ev = await s.exit;
		clearInterval(t);
		check(ev.signal === os.constants.signals.SIGHUP && !ev.error,
		    `session ${i}: ${JSON.stringify(ev)}`);
		evs.push(ev.signal);
		count('kill');
	}
	return `${N} sessions spammed, killed after 100 ms, each ended by ` +
	    'SIGHUP';
});

// The socket errors docs/NODE.md names, through socketPath.
kase('socket-errors', async () => {
	await WAYS.enoent();
	await WAYS.econnrefused();
	/*
	 * EAGAIN: a listener that has not accepted yet, its queue full.
	 * Node listens on a path with a backlog of 511 whatever it is told,
	 * and a Unix socket queues one more: 600 connect()s made in the same
	 * tick (before this process's own loop can accept any), the last of
	 * them refused, then the session's.
	 */
	const dir = tmpDir();
	const sock = path.join(dir, 's');
	const srv = net.createServer((c) => c.destroy());
	await new Promise((r) => srv.listen(sock, r));
	const fill = [];
	const codes = {};
	for (let i = 0; i < 600; i++) {
		const c = net.connect(sock);
		c.on('error', (e) => { codes[e.code] = (codes[e.code] || 0) + 1; });
		fill.push(c);
	}
	const s = open('sh', ['-c', 'exit 0'], { socketPath: sock });
	const ev = await s.exit;
	for (const c of fill)
		c.destroy();
	await new Promise((r) => srv.close(r));
	fs.rmSync(dir, { recursive: true, force: true });
	// The control: the queue was full before the session's connect().
	const full = codes.EAGAIN || 0;
	check(full >= 1, `the last of 600 connect()s were refused: ${full}`);
	errorIs(ev, 'EAGAIN', 'a full queue');
	count('socket error');
	return 'ENOENT (no file), ECONNREFUSED (a socket nobody listens on), ' +
	    `EAGAIN (the queue full: of 600 connect()s before, ${full} ` +
	    'refused EAGAIN)';
});

// EEOF and the helper's refusal, once each here (rounds below too).
kase('eeof-and-helper', async () => {
	await WAYS.eeof();
	await WAYS.helperRefuses();
	await WAYS.helperMissing();
	return 'EEOF (a listener that closes after the start frame); ' +
	    'EHELPER (a helper exiting 1; a helper path that does not exist)';
});

// A throwing listener: ELISTENER (84-nodepty.sh's sync run checks that
// the unit goes while the service lives on).
kase('throwing-listener', async () => {
	const s = open('sh', ['-c', 'echo ready; exec sleep 30']);
	const sock = s.p._p._sock;
	const errs = [];
	s.p._p.onError((e) => errs.push(e.code));
	s.p.onData(() => { throw thrower('onData'); });
	const ev = await s.exit;
	errorIs(ev, 'ELISTENER', 'onData threw');
	check(ev.error.cause && ev.error.cause.onPurpose, 'cause');
	check(errs.join() === 'ELISTENER', `onError ${errs.join()}`);
	await sleep(10);
	check(sock.destroyed, 'the socket is closed');
	check(thrown.length >= 1, 'the exception went on up');
	count('listener');
	return 'onError then onExit with ELISTENER, the socket closed, the ' +
	    'exception on up to the process';
});

async function main() {
	let base = null;
	let total = () => [...ended.values()].reduce((a, b) => a + b, 0);
	for (const [name, fn] of CASES) {
		await run(name, fn);
		// The baseline: after a first session has set up what Node
		// opens once (child_process's signal pipe, ...).
		if (base === null)
			base = fds();
	}
	// Rounds of every way a session ends, for the count.
	await run('rounds', async () => {
		for (let r = 0; r < 3; r++)
			for (const [w, f] of Object.entries(WAYS)) {
				try {
					await f();
				} catch (e) {
					throw new Error(`round ${r} ${w}: ${e.message}`);
				}
			}
		return `3 rounds of ${Object.keys(WAYS).join(' ')}`;
	});
	await run('no-fd-leak', async () => {
		await sleep(300);
		const after = fds();
		const d = fdDiff(base, after);
		const by = [...ended].map(([k, v]) => `${k} ${v}`).join(', ');
		// Controls: the count sees one descriptor left open on purpose,
		// and saw the 17 sessions' sockets while they were live.
		const leak = fs.openSync('/dev/null', 'r');
		const ctl = fds().size - after.size;
		fs.closeSync(leak);
		check(ctl === 1, `control: a descriptor left open counted ${ctl}`);
		check(busyFds && busyFds.size >= base.size + 16,
		    `control: with 16 sessions live ${busyFds && busyFds.size} ` +
		    `descriptors, base ${base.size}`);
		check(total() >= 50, `only ${total()} sessions`);
		check(d === 'none', `after ${total()} sessions (${by}): ${d}`);
		return `${base.size} descriptors before and after ${total()} ` +
		    `sessions (${by}); controls: +1 for one left open, ` +
		    `${busyFds.size} with 16 live`;
	});
}

// Waits for the shell: GO/NAME appears once it has looked.
async function sync(name) {
	line(`sync ${name}`);
	const f = path.join(opt.go, name);
	for (let i = 0; i < 600; i++) {
		if (fs.existsSync(f))
			return;
		await sleep(50);
	}
	throw new Error(`the shell never answered sync ${name}`);
}

async function syncMain() {
	// A throwing listener closes the socket: the unit goes while this
	// service lives on.
	await run('listener-unit', async () => {
		const s = open('sh', ['-c', 'stty -echo; echo ready; read l; ' +
		    'echo "got:$l"; exec sleep 60']);
		await s.until(/ready/);
		await sync('listener-live');
		s.p.onData(() => { throw thrower('onData'); });
		s.p.write('go\r');
		const ev = await s.exit;
		errorIs(ev, 'ELISTENER', 'onData threw');
		await sync('listener-thrown');
		return 'ELISTENER; the shell saw the unit live, then gone';
	});
	// A background job of the command does not outlive the session
	// (node-pty: should not leak child process).
	await run('no-child-left', async () => {
		const s = open('sh', ['-c', 'sleep 101 & echo started; read x']);
		await s.until(/started/);
		await sync('bg-live');
		s.p.write('\r');
		exitIs(await s.exit, 0, 0, 'sh');
		await sync('bg-done');
		return 'the shell saw sleep 101 live, then gone with the unit';
	});
}

const alive = setInterval(() => {}, 1 << 30);
(opt.cmd === 'main' ? main() : syncMain()).then(() => {
	clearInterval(alive);
	line('done');
});
