'use strict';
// node-pty.test.js: node-pty.js, node-pty's interface, against the fake
// supervisor (fake.js) and the real helper (OPTY_HELPER), as code
// written for node-pty uses it.  Test code.
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

const test = require('node:test');
const assert = require('node:assert/strict');
const nodePty = require('../node-pty.js');
const codec = require('../codec.js');
const { fake, HELPER, TMO } = require('./fake.js');

const T = codec.TYPE;

function open(s, file, args, extra = {}) {
	const p = nodePty.spawn(file, args, { cwd: s.dir, socketPath: s.sockPath,
	    helperPath: HELPER, ...extra });
	s.ptys.push(p);
	return p;
}

test('spawn(file, args, options): argv, size, TERM, resize(cols, rows)',
    TMO, async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, 'sh', ['-c', 'echo hi'], { name: 'xterm-256color',
	    cols: 100, rows: 30 });
	assert.equal(p.process, 'sh');
	assert.equal(p.cols, 100);
	assert.equal(p.rows, 30);
	await s.until(() => s.frames.some((f) => f.type === T.START));
	assert.deepEqual(s.frames[0], { type: T.RESIZE, rows: 30, cols: 100 });
	assert.deepEqual(s.frames[1].argv.map(String), ['sh', '-c', 'echo hi']);
	p.resize(120, 40);
	assert.equal(p.cols, 120);
	assert.equal(p.rows, 40);
	await s.until(() => s.frames.length >= 3);
	assert.deepEqual(s.frames[2], { type: T.RESIZE, rows: 40, cols: 120 });
	let out = '';
	p.onData((d) => { out += d; return false; });
	const ex = new Promise((r) => p.onExit(r));
	s.send({ type: T.OUTPUT, data: Buffer.from('hi\r\n') });
	s.send({ type: T.EXIT, code: 2, status: 15, result: 'signal' });
	s.conn.end();
	const ev = await ex;
	assert.equal(out, 'hi\r\n');
	assert.deepEqual(ev, { exitCode: 0, signal: 15 });
	s.close();
});

test('an exit: the status and signal 0', TMO, async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, 'false', []);
	const ex = new Promise((r) => p.onExit(r));
	await s.until(() => s.frames.some((f) => f.type === T.START));
	s.send({ type: T.EXIT, code: 1, status: 3, result: 'exit-code' });
	s.conn.end();
	assert.deepEqual(await ex, { exitCode: 3, signal: 0 });
	s.close();
});

test('what the design forbids throws; nothing is ignored', () => {
	const o = { cwd: '/', socketPath: '/nonexistent' };
	for (const [k, v] of [['env', {}], ['uid', 0], ['gid', 0],
	    ['useConpty', true], ['name', 'vt100'], ['bogus', 1]])
		assert.throws(() => nodePty.spawn('sh', [], { ...o, [k]: v }),
		    new RegExp(`option ${k}`), k);
	assert.throws(() => nodePty.spawn('sh', 'a string', o), TypeError);
});

test('pid is a number no process.kill() takes; clear() does nothing', TMO,
    async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, 'cat', []);
	assert.equal(typeof p.pid, 'number');
	assert.equal(p.pid.toString(), 'NaN');
	assert.throws(() => process.kill(p.pid, 0));
	p.clear();
	await s.until(() => s.frames.some((f) => f.type === T.START));
	p.kill();
	await s.until(() => s.frames.some((f) => f.type === T.SIGNAL));
	assert.equal(s.frames.find((f) => f.type === T.SIGNAL).signal, 1);
	s.close();
});

// handleFlowControl: XOFF/XON written pause and resume reading instead
// of reaching the terminal; without it (node-pty's default) they are
// input like any other.
test('handleFlowControl', TMO, async (t) => {
	const s = await fake();
	t.after(s.close);
	const p = open(s, 'cat', [], { handleFlowControl: true });
	await s.until(() => s.frames.some((f) => f.type === T.START));
	let n = 0;
	p.onData(() => { n++; });
	p.write('\x13');
	s.send({ type: T.OUTPUT, data: Buffer.from('x') });
	await new Promise((r) => setTimeout(r, 100));
	assert.equal(n, 0, 'read while XOFF');
	p.write('\x11');
	await new Promise((r) => setTimeout(r, 100));
	assert.equal(n, 1);
	assert.equal(s.frames.filter((f) => f.type === T.INPUT).length, 0);
	p.handleFlowControl = false;
	p.write('\x13');
	await s.until(() => s.frames.some((f) => f.type === T.INPUT));
	assert.deepEqual(s.frames.find((f) => f.type === T.INPUT).data,
	    Buffer.from('\x13'));
	s.close();
});

test('an error instead of an exit: exitCode -1 and the error', TMO,
    async (t) => {
	const s = await fake();
	t.after(s.close);
	s.server.removeAllListeners('connection');
	s.server.on('connection', (c) => {
		c.end(codec.encodeFrame({ type: T.ERROR, code: 3, text: 'busy' }));
	});
	const p = open(s, 'true', []);
	const ev = await new Promise((r) => p.onExit(r));
	assert.equal(ev.exitCode, -1);
	assert.equal(ev.signal, 0);
	assert.equal(ev.error.code, 'ERR_BUSY');
	s.close();
});
