'use strict';
// fake.js: a fake supervisor for the module's tests (test code): a Node
// listening socket in a temporary directory, one connection, the frames
// it got, a way to answer.
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const codec = require('../codec.js');

// The real helper the sessions run, and the tests' time bound.
const HELPER = process.env.OPTY_HELPER ||
    path.join(__dirname, '..', '..', '..', 'build', 'bin',
    'opencode-pty-client');
const TMO = { timeout: 8000 };

// A fake supervisor: one connection, its frames, a way to answer.
async function fake() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opty-node-'));
	const sockPath = path.join(dir, 'sup.sock');
	const s = { dir, sockPath, frames: [], waiters: [], ended: false };
	s.server = net.createServer((c) => {
		s.conn = c;
		const r = new codec.FrameReader();
		c.on('data', (b) => {
			r.push(b);
			let f;
			while ((f = r.next()) !== null)
				s.frames.push(f);
			s.poke();
		});
		c.on('end', () => { s.ended = true; s.poke(); });
		c.on('error', () => {});
		s.poke();
	});
	s.poke = () => {
		for (const w of s.waiters.splice(0))
			w();
	};
	// until(pred): resolves once pred() holds.
	s.until = (pred) => new Promise((resolve) => {
		const check = () => {
			if (pred())
				resolve();
			else
				s.waiters.push(check);
		};
		check();
	});
	s.send = (f) => s.conn.write(codec.encodeFrame(f));
	s.ptys = [];
	// Idempotent; also run by t.after, so a failed test leaves nothing
	// open that would keep this process alive.
	s.close = () => {
		for (const p of s.ptys)
			p.destroy();
		if (s.conn)
			s.conn.destroy();
		if (s.server.listening)
			s.server.close();
		fs.rmSync(dir, { recursive: true, force: true });
	};
	await new Promise((r) => s.server.listen(sockPath, r));
	return s;
}

module.exports = { fake, HELPER, TMO };
