'use strict';
// runtime-fds.test.js: what the runtime running the tests (Node, or
// Bun: regress/host/node-unit.sh runs every test file under both) does
// with descriptors in child_process.spawn, measured, so that a new
// release that behaves otherwise fails here (docs/NODE.md, "Bun").
// The module depends on the first test; the second is where Node and
// Bun differ.  Test code.
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const childProcess = require('node:child_process');

const BUN = typeof process.versions.bun === 'string';
const TMO = { timeout: 15000 };

// table(stdio): the child's descriptors as { fd: link }, without the
// descriptor ls opens itself to read /proc/self/fd.
async function table(stdio) {
	const c = childProcess.spawn('/bin/ls', ['-l', '/proc/self/fd'],
	    { stdio });
	let out = '';
	c.stdout.setEncoding('utf8');
	c.stdout.on('data', (d) => { out += d; });
	const code = await new Promise((r) => c.on('close', r));
	assert.equal(code, 0);
	const t = {};
	for (const m of out.matchAll(/ (\d+) -> (.*)$/gm))
		if (!/^\/proc\/\d+\/fd$/.test(m[2]))
			t[m[1]] = m[2];
	return t;
}

test('stdio [ignore, pipe, ignore, socket fd, directory fd]: exactly ' +
    '0-4, 3 the same socket, 4 the directory', TMO, async (t) => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opty-rt-'));
	const server = net.createServer((c) => c.on('error', () => {}));
	t.after(() => {
		server.close();
		fs.rmSync(dir, { recursive: true, force: true });
	});
	await new Promise((r) => server.listen(path.join(dir, 's'), r));
	const sock = net.connect(path.join(dir, 's'));
	t.after(() => sock.destroy());
	await new Promise((r) => sock.on('connect', r));
	// The module's way to the descriptor (index.js, _spawnHelper).
	const fd = sock._handle && sock._handle.fd;
	assert.ok(Number.isInteger(fd) && fd > 2, `_handle.fd is ${fd}`);
	const dirFd = fs.openSync(dir, fs.constants.O_RDONLY |
	    fs.constants.O_DIRECTORY);
	t.after(() => fs.closeSync(dirFd));
	const own = fs.readlinkSync(`/proc/self/fd/${fd}`);
	const got = await table(['ignore', 'pipe', 'ignore', fd, dirFd]);
	assert.deepEqual(Object.keys(got).sort(), ['0', '1', '2', '3', '4']);
	assert.equal(got[0], '/dev/null');
	assert.equal(got[2], '/dev/null');
	assert.equal(got[3], own);
	assert.equal(got[4], dir);
	// Both are close-on-exec in this process: a child given neither
	// has neither (the control: the same listing above has them).
	const none = await table(['ignore', 'pipe', 'ignore']);
	assert.deepEqual(Object.keys(none).sort(), ['0', '1', '2']);
});

/*
 * A descriptor this process inherited without close-on-exec (as make's
 * jobserver pipes, socket activation's LISTEN_FDS or OpenFile=): Node
 * leaves it so and its children get it (the helper then refuses to run:
 * "descriptor N is open"); Bun marks it close-on-exec at start and its
 * children do not get it.  Measured with descriptor 40 handed to a
 * second process of the same runtime.
 */
test('an inherited descriptor: Node passes it on to its children, ' +
    'Bun does not', TMO, async () => {
	const N = 40;
	const f = fs.openSync('/dev/null', 'r');
	const stdio = ['ignore', 'pipe', 'inherit'];
	for (let i = 3; i < N; i++)
		stdio.push('ignore');
	stdio.push(f);
	const c = childProcess.spawn(process.execPath,
	    [path.join(__dirname, 'fixtures', 'inherited-fd.js'), String(N)],
	    { stdio });
	fs.closeSync(f);
	let out = '';
	c.stdout.setEncoding('utf8');
	c.stdout.on('data', (d) => { out += d; });
	const code = await new Promise((r) => c.on('close', r));
	assert.equal(code, 0, out);
	const got = JSON.parse(out);
	if (BUN)
		assert.deepEqual(got, { open: true, cloexec: true, child: false },
		    `Bun ${process.versions.bun}`);
	else
		assert.deepEqual(got, { open: true, cloexec: false, child: true },
		    `Node ${process.version}`);
});
