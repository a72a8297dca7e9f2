'use strict';
// pty.test.js: client/node/index.js against a fake supervisor (a Node
// listening socket in a temporary directory) and the real helper
// (OPTY_HELPER, default build/bin/opencode-pty-client), which refuses to
// run unless it got exactly fds 0-4 with 3 a connected socket and 4 a
// directory: every session here that starts proves that much.  Test code.
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const childProcess = require('node:child_process');
const pty = require('../index.js');
const codec = require('../codec.js');
const { fake, HELPER, TMO } = require('./fake.js');

const T = codec.TYPE;
const BUN = typeof process.versions.bun === 'string';

test.before(() => {
	if (!fs.existsSync(HELPER))
		throw new Error(`FAIL: the helper ${HELPER} is not built ` +
		    '(make all, or set OPTY_HELPER)');
});

function open(s, argv, extra = {}) {
	const p = pty.spawn(argv, { cwd: s.dir, socketPath: s.sockPath,
	    helperPath: HELPER, ...extra });
	s.ptys.push(p);
	return p;
}

function exited(p) {
	return new Promise((r) => p.onExit(r));
}

test('start frame from the helper, output in order, exit status', TMO,
    async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, ['printf', '%s', 'a b', ''], { rows: 50, cols: 132,
	    runtimeMaxSec: 30 });
	let out = '';
	p.onData((d) => { out += d; });
	const ex = exited(p);
	await s.until(() => s.frames.length >= 2);
	assert.deepEqual(s.frames[0], { type: T.RESIZE, rows: 50, cols: 132 });
	const st = s.frames[1];
	const want = fs.statSync(s.dir, { bigint: true });
	assert.equal(st.type, T.START);
	assert.equal(st.dev, want.dev);
	assert.equal(st.ino, want.ino);
	assert.equal(st.runtime, 30);
	assert.deepEqual(st.argv.map(String), ['printf', '%s', 'a b', '']);
	assert.equal(p.pid, undefined);
	// A UTF-8 character split across two output frames.
	const w = Buffer.from('hello wörld');
	s.send({ type: T.OUTPUT, data: w.subarray(0, 8) });
	s.send({ type: T.OUTPUT, data: w.subarray(8) });
	s.send({ type: T.EXIT, code: 1, status: 7, result: 'exit-code' });
	s.conn.end();
	const ev = await ex;
	assert.equal(out, 'hello wörld');
	assert.equal(ev.exitCode, 7);
	assert.equal(ev.signal, undefined);
	assert.equal(ev.result, 'exit-code');
	assert.equal(ev.error, undefined);
	s.close();
});

test('write splits at 32768, resize and kill follow the start frame', TMO,
    async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, ['cat']);
	const ex = exited(p);
	// Sent before the helper is done: held, then sent after its frame.
	const big = Buffer.alloc(70000, 0x61);
	big[32767] = 0x62;
	big[32768] = 0x63;
	p.write(big);
	p.resize(30, 100);
	p.kill('INT');
	p.kill(15);
	p.kill('SIGKILL');
	p.kill();
	for (const bad of ['SEGV', 'SIGSEGV', 11, 0, 'FOO', 'sigint', 64])
		assert.throws(() => p.kill(bad), RangeError, String(bad));
	assert.throws(() => p.resize(0, 80), RangeError);
	assert.throws(() => p.resize(24, 4097), RangeError);
	await s.until(() => s.frames.length >= 9);
	const f = s.frames;
	assert.equal(f[0].type, T.START);
	assert.deepEqual(f.slice(1, 4).map((x) => [x.type, x.data.length]),
	    [[T.INPUT, 32768], [T.INPUT, 32768], [T.INPUT, 4464]]);
	assert.deepEqual(Buffer.concat(f.slice(1, 4).map((x) => x.data)), big);
	assert.deepEqual(f[4], { type: T.RESIZE, rows: 30, cols: 100 });
	assert.deepEqual(f.slice(5).map((x) => x.signal), [2, 15, 9, 1]);
	assert.equal(p.rows, 30);
	assert.equal(p.cols, 100);
	s.send({ type: T.EXIT, code: 2, status: 2, result: 'success' });
	const ev = await ex;
	assert.equal(ev.signal, 'SIGINT');
	assert.equal(ev.exitCode, 130);
	assert.equal(ev.result, 'success');
	assert.equal(s.frames.length, 9);
	s.close();
});

test('an error frame is a typed SupervisorError', TMO, async (t) => {
	const s = await fake();
	t.after(s.close);
	s.server.removeAllListeners('connection');
	s.server.on('connection', (c) => {
		c.end(codec.encodeFrame({ type: T.ERROR, code: 3,
		    text: '16 sessions are live' }));
	});
	const p = open(s, ['true']);
	let err = null;
	p.onError((e) => { err = e; });
	const ev = await exited(p);
	assert.ok(err instanceof pty.SupervisorError);
	assert.equal(err.name, 'SupervisorError');
	assert.equal(err.code, 'ERR_BUSY');
	assert.equal(err.number, 3);
	assert.equal(err.text, '16 sessions are live');
	assert.equal(ev.error, err);
	assert.equal(ev.exitCode, null);
	assert.equal(pty.ERRORS.ERR_SHUTDOWN, 15);
	s.close();
});

test('unknown error codes and malformed frames fail the session', TMO,
    async (t) => {
	const s = await fake();
	t.after(s.close);
	let p = open(s, ['true']);
	await s.until(() => s.frames.length >= 1);
	s.send({ type: T.ERROR, code: 999, text: 'new' });
	let ev = await exited(p);
	assert.equal(ev.error.code, 'ERR_UNKNOWN');
	assert.equal(ev.error.number, 999);
	s.frames.length = 0;
	p = open(s, ['true']);
	await s.until(() => s.frames.length >= 1);
	s.conn.write(Buffer.from('OPTX\x01\x03\0\0\0\0\0\0', 'latin1'));
	ev = await exited(p);
	assert.equal(ev.error.name, 'PtyError');
	assert.equal(ev.error.code, 'EPROTO');
	assert.equal(ev.error.cause.code, 'FRAME_E_MAGIC');
	s.frames.length = 0;
	p = open(s, ['true']);
	await s.until(() => s.frames.length >= 1);
	s.send({ type: T.RESIZE, rows: 1, cols: 1 });	// a client's type
	ev = await exited(p);
	assert.equal(ev.error.name, 'PtyError');
	assert.equal(ev.error.code, 'EPROTO');
	s.frames.length = 0;
	p = open(s, ['true']);
	await s.until(() => s.frames.length >= 1);
	s.conn.end();
	ev = await exited(p);
	assert.equal(ev.error.name, 'PtyError');
	assert.equal(ev.error.code, 'EEOF');
	s.close();
});

test('a slow consumer pauses the socket; nothing is lost', TMO, async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, ['cat'], { encoding: null });
	const got = [];
	p.onData((d) => {
		got.push(d);
		if (got.length === 1)
			p.pause();	// the first chunk pauses reading
	});
	const ex = exited(p);
	await s.until(() => s.frames.length >= 1);
	const n = 256;
	let full = false;
	for (let i = 0; i < n; i++) {
		const d = Buffer.alloc(32768, i & 0xff);
		if (!s.send({ type: T.OUTPUT, data: d }))
			full = true;
	}
	s.send({ type: T.EXIT, code: 1, status: 0, result: 'success' });
	await new Promise((r) => setTimeout(r, 300));
	assert.equal(got.length, 1, 'delivered while paused');
	assert.ok(full, 'the writer never saw backpressure');
	assert.ok(s.conn.writableLength > 4 * 1024 * 1024,
	    `only ${s.conn.writableLength} bytes wait at the writer`);
	p.resume();
	const ev = await ex;
	assert.equal(ev.exitCode, 0);
	assert.equal(got.length, n);
	got.forEach((d, i) => {
		assert.equal(d.length, 32768);
		assert.equal(d[0], i & 0xff);
	});
	s.close();
});

// node-pty's idiom p.onData(d => sock.write(d)) returns false when the
// socket is slow: that must not stop the session (a listener's value is
// not backpressure; pause() is).  Control: pause() does stop it, above.
test('what a listener returns is ignored', TMO, async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, ['cat'], { encoding: null });
	let n = 0;
	p.onData(() => { n++; return false; });
	const ex = exited(p);
	await s.until(() => s.frames.length >= 1);
	for (let i = 0; i < 3; i++)
		s.send({ type: T.OUTPUT, data: Buffer.from('x') });
	s.send({ type: T.EXIT, code: 1, status: 0, result: 'success' });
	s.conn.end();
	const ev = await ex;
	assert.equal(ev.exitCode, 0);
	assert.ok(n >= 1, `${n} data events`);
	s.close();
});

// A throwing listener: its exception goes on up (here to resume()'s
// caller) and the session still ends: onError and onExit with a PtyError
// ELISTENER, the connection closed (so the supervisor stops the unit).
test('a listener that throws ends the session and its error goes on',
    TMO, async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, ['cat']);
	const boom = new Error('boom');
	let calls = 0;
	// The first of two frames read at once pauses, so that the second
	// is delivered by resume(), in this stack; that one throws.
	p.onData(() => {
		if (++calls === 1)
			p.pause();
		else
			throw boom;
	});
	let err = null;
	p.onError((e) => { err = e; });
	const ex = exited(p);
	await s.until(() => s.frames.length >= 1);
	s.conn.write(Buffer.concat([
	    codec.encodeFrame({ type: T.OUTPUT, data: Buffer.from('x') }),
	    codec.encodeFrame({ type: T.OUTPUT, data: Buffer.from('y') })]));
	await new Promise((r) => setTimeout(r, 100));
	assert.equal(calls, 1);
	assert.throws(() => p.resume(), (e) => e === boom);
	const ev = await ex;
	assert.equal(ev.error, err);
	assert.equal(err.code, 'ELISTENER');
	assert.equal(err.cause, boom);
	await s.until(() => s.ended);
	assert.ok(s.ended, 'the connection was closed');
	s.close();
});

// Input before the start: held, false past 64 KiB held and onDrain once
// it is on the socket; past 1 MiB write() throws.
test('write() before the start is bounded and drains', TMO, async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, ['cat']);
	let drains = 0;
	p.onDrain(() => { drains++; });
	assert.equal(p.write(Buffer.alloc(65536, 0x61)), true);
	assert.equal(p.write('b'), false);
	assert.throws(() => p.write(Buffer.alloc(1048576 - 65536)), RangeError);
	await s.until(() => s.frames.filter((f) => f.type === T.INPUT)
	    .reduce((a, f) => a + f.data.length, 0) === 65537);
	await new Promise((r) => setTimeout(r, 100));
	assert.equal(drains, 1);
	s.close();
});

// After the end: write() drops the data and says true (no onDrain to
// wait for), resize() and kill() do nothing, none throws.
test('write, resize and kill after the exit', TMO, async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, ['true']);
	const ex = exited(p);
	await s.until(() => s.frames.length >= 1);
	s.send({ type: T.EXIT, code: 1, status: 0, result: 'success' });
	s.conn.end();
	await ex;
	const n = s.frames.length;
	assert.equal(p.write('late'), true);
	p.resize(30, 90);
	p.kill('SIGINT');
	await new Promise((r) => setTimeout(r, 50));
	assert.equal(s.frames.length, n);
	assert.equal(p.rows, 24);
	assert.equal(p.exited.exitCode, 0);
	s.close();
});

// The supervisor sends the exit and closes; a write made before that
// exit is read fails (EPIPE), and the exit frame already received is
// still the session's end.  Bun 1.4.4 emits the socket's error itself
// when a second write fails, whatever the first one's callback was
// told, and closes the socket with the frame unread: measured here, so
// that a Bun that keeps the frame is noticed (docs/NODE.md, "Bun").
test('a write refused after the supervisor closed: the exit is read', TMO,
    async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, ['sleep', '100']);
	const ex = exited(p);
	const errs = [];
	p.onError((e) => errs.push(e));
	// An input frame received: the start is behind, writes go out.
	p.write('x');
	await s.until(() => s.frames.length >= 2);
	// Sent, closed and written at once: no read comes between.
	s.send({ type: T.EXIT, code: 1, status: 3, result: 'exit-code' });
	s.conn.destroy();
	assert.equal(typeof p.write('after the close'), 'boolean');
	p.resize(30, 90);
	const ev = await ex;
	if (BUN) {
		assert.equal(ev.error.code, 'EPIPE', `Bun ${process.versions.bun}`);
		assert.deepEqual(errs, [ev.error]);
		s.close();
		return;
	}
	assert.deepEqual(errs, []);
	assert.equal(ev.exitCode, 3);
	assert.equal(ev.error, undefined);
	s.close();
});

// Control for the test above: closed without an exit frame, the same
// write gives the EEOF of a connection that ended without one.
test('a write refused, no exit frame: EEOF', TMO, async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, ['sleep', '100']);
	const ex = exited(p);
	p.write('x');
	await s.until(() => s.frames.length >= 2);
	s.conn.destroy();
	p.write('after the close');
	const ev = await ex;
	assert.equal(ev.error.code, 'EEOF');
	s.close();
});

test('destroy() closes the connection', TMO, async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, ['sleep', '100']);
	await s.until(() => s.frames.length >= 1);
	p.destroy();
	await s.until(() => s.ended);
	assert.equal(p.exited.error.name, 'PtyError');
	assert.equal(p.exited.error.code, 'EDESTROYED');
	s.close();
});

test('the helper refusing is an EHELPER error with its reason', TMO,
    async (t) => {
	const s = await fake();
	t.after(s.close);
	// The real helper, given a runtime over its bound by a wrapper (the
	// module itself refuses such a start in spawn()).
	const bad = path.join(s.dir, 'bad-helper');
	fs.writeFileSync(bad, `#!/bin/sh\nexec '${HELPER}' -t 9999 "$@"\n`,
	    { mode: 0o755 });
	let p = open(s, ['ls'], { helperPath: bad });
	let ev = await exited(p);
	assert.equal(ev.error.name, 'PtyError');
	assert.equal(ev.error.code, 'EHELPER');
	assert.equal(ev.error.status, 2);
	assert.match(ev.error.message, /opencode-pty-client:/);
	p = pty.spawn(['ls'], { cwd: s.dir, socketPath: s.sockPath,
	    helperPath: path.join(s.dir, 'nonexistent') });
	ev = await exited(p);
	assert.equal(ev.error.name, 'PtyError');
	assert.equal(ev.error.code, 'EHELPER');
	s.close();
});

/*
 * The supervisor refuses (ERR_BUSY) while the helper fails to send:
 * here the helper (a script) exits 1 first and the refusal comes only
 * after it is gone, so its exit is seen before the frame.  The refusal
 * is the answer, not the helper's failure.
 */
test('a refusal after the helper failed is the error reported', TMO,
    async (t) => {
	const s = await fake();
	t.after(s.close);
	const helper = path.join(s.dir, 'failing-helper');
	fs.writeFileSync(helper, '#!/bin/sh\necho "opencode-pty-client: ' +
	    'send: Broken pipe" >&2\n: > "$0-done"\nexit 1\n', { mode: 0o755 });
	const p = pty.spawn(['ls'], { cwd: s.dir, socketPath: s.sockPath,
	    helperPath: helper });
	s.ptys.push(p);
	const ex = exited(p);
	await s.until(() => s.conn);
	while (!fs.existsSync(`${helper}-done`))
		await new Promise((r) => setTimeout(r, 5));
	await new Promise((r) => setTimeout(r, 50));
	s.send({ type: T.ERROR, code: codec.ERRORS.ERR_BUSY, text: 'busy' });
	s.conn.end();
	const ev = await ex;
	assert.equal(ev.error.code, 'ERR_BUSY');
	assert.equal(ev.error.number, 3);
	s.close();
});

/*
 * A helper refused for a descriptor it should not have is run once
 * more (docs/NODE.md): a forged helper refuses as the real one does the
 * first time, then runs the real helper.  One that refuses every time
 * is the EHELPER error after exactly two runs.
 */
function refusingHelper(dir, times, status = 5) {
	const helper = path.join(dir, `refusing-helper-${times}-${status}`);
	fs.writeFileSync(helper, '#!/bin/sh\n' +
	    'echo run >> "$0.runs"\n' +
	    `if [ "$(wc -l < "$0.runs")" -le ${times} ]; then\n` +
	    '\techo "opencode-pty-client: descriptor 39 is open: only ' +
	    `descriptors 0-4 may be inherited" >&2\n\texit ${status}\nfi\n` +
	    `exec '${HELPER}' "$@"\n`, { mode: 0o755 });
	return helper;
}

// The retry keys on the helper's status (5), not on its text: the same
// line with another status is the error at once.
test('a refusal with another status is not run again', TMO, async (t) => {
	const s = await fake();
	t.after(s.close);
	const helper = refusingHelper(s.dir, 1, 1);
	const p = open(s, ['true'], { helperPath: helper });
	const ev = await exited(p);
	assert.equal(ev.error.code, 'EHELPER');
	assert.equal(ev.error.status, 1);
	assert.equal(helperRuns(helper), 1);
	s.close();
});

function helperRuns(helper) {
	return fs.readFileSync(`${helper}.runs`, 'utf8').split('\n')
	    .filter(Boolean).length;
}

test('a helper refused for an extra descriptor is run once more', TMO,
    async (t) => {
	const s = await fake();
	t.after(s.close);
	const helper = refusingHelper(s.dir, 1);
	const p = open(s, ['true'], { helperPath: helper });
	await s.until(() => s.frames.some((f) => f.type === T.START));
	assert.equal(helperRuns(helper), 2);
	s.send({ type: T.EXIT, result: 'success', code: 1, status: 0 });
	const ev = await exited(p);
	assert.equal(ev.exitCode, 0);
	s.close();
});

test('a helper refused twice for an extra descriptor is EHELPER', TMO,
    async (t) => {
	const s = await fake();
	t.after(s.close);
	const helper = refusingHelper(s.dir, 2);
	const ev = await exited(open(s, ['true'], { helperPath: helper }));
	assert.equal(ev.error.name, 'PtyError');
	assert.equal(ev.error.code, 'EHELPER');
	assert.match(ev.error.message, /descriptor 39 is open/);
	assert.equal(helperRuns(helper), 2);
	assert.equal(s.frames.length, 0);
	s.close();
});

test('bad options throw before anything is opened', () => {
	const o = { cwd: os.tmpdir(), socketPath: '/nonexistent' };
	assert.throws(() => pty.spawn([], o), TypeError);
	assert.throws(() => pty.spawn([''], o), TypeError);
	assert.throws(() => pty.spawn(['a\0'], o), TypeError);
	assert.throws(() => pty.spawn(['ls'], { ...o, cwd: undefined }),
	    TypeError);
	assert.throws(() => pty.spawn(['ls'], { ...o, rows: 24 }), RangeError);
	assert.throws(() => pty.spawn(['ls'], { ...o, rows: 0, cols: 80 }),
	    RangeError);
	assert.throws(() => pty.spawn(['ls'], { ...o, runtimeMaxSec: 3601 }),
	    RangeError);
	assert.throws(() => pty.spawn(['ls'], { ...o, runtimeMaxSec: 1.5 }),
	    RangeError);
	// The start frame's bounds (4096 bytes an argument, 64 KiB in all).
	assert.throws(() => pty.spawn(['ls', 'x'.repeat(4097)], o), RangeError);
	assert.throws(() => pty.spawn(Array(17).fill('x'.repeat(4000)), o),
	    RangeError);
	assert.throws(() => pty.spawn(['ls'], { ...o, cwd: '/nonexistent' }),
	    { code: 'ENOENT' });
	assert.throws(() => pty.spawn(['ls'], { ...o, cwd: __filename }),
	    { code: 'ENOTDIR' });
});

/*
 * While a session is live, an unrelated child of this process inherits
 * neither the connected socket nor the directory.  Positive control: the
 * same listing run by a child given the socket as fd 3 shows it.
 */
async function childFds(stdio) {
	const c = childProcess.spawn('/bin/ls', ['-l', '/proc/self/fd'],
	    { stdio });
	let out = '';
	c.stdout.setEncoding('utf8');
	c.stdout.on('data', (d) => { out += d; });
	await new Promise((r) => c.on('close', r));
	return out.split('\n').map((l) => l.match(/ (\d+) -> (.*)$/))
	    .filter(Boolean).map((m) => `${m[1]} ${m[2]}`).join('\n');
}

test('an unrelated child inherits neither the socket nor the directory', TMO,
    async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, ['cat']);
	await s.until(() => s.frames.length >= 1);
	const mine = fs.readdirSync('/proc/self/fd').map((fd) => {
		try {
			return fs.readlinkSync(`/proc/self/fd/${fd}`);
		} catch {
			return '';
		}
	}).filter((l) => l.startsWith('socket:'));
	const other = await childFds(['ignore', 'pipe', 'ignore']);
	const lines = other.trim().split('\n');
	assert.ok(lines.length >= 3, other);
	for (const l of lines) {
		const [fd, link] = l.split(' ');
		if (Number(fd) > 2)
			assert.ok(link === undefined || link.startsWith('/proc/'),
			    `child fd ${l}`);
		assert.notEqual(link, s.dir, `child holds the directory: ${l}`);
	}
	const withSock = await childFds(['ignore', 'pipe', 'ignore',
	    p._sock._handle.fd]);
	const l3 = withSock.split('\n').find((l) => l.startsWith('3 '));
	assert.ok(l3 && mine.includes(l3.slice(2)),
	    `positive control: fd 3 is ${l3}`);
});
