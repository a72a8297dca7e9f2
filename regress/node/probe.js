'use strict';
// probe.js: test only, never installed.  The Node inheritance probe
// (`make node-probe`, regress/it/77-node-probe.sh), built into
// a single executable application by regress/node/sea.sh and run as the
// MainPID of opencode-v2.service (user byk) against the real supervisor.
// While sessions of client/node are live it checks that only the fixed
// helper inherits the connected socket and the directory:
//
//  * the helper's own table, recorded before it does anything else by
//    opty-fdtable bind-mounted over the helper's path in this service's
//    mount namespace (it then executes the shipped helper), must be
//    exactly 0, 1, 2, 3 = this session's socket, connected to the
//    supervisor, and 4 = the directory;
//  * unrelated children (child_process spawn, spawnSync, exec, execFile,
//    fork, and a worker thread's spawn) report their tables, taken while
//    a session's directory and socket are open here and again with two
//    sessions live: none may hold a session socket or the directory;
//  * positive control: the reporter, given the socket and the directory
//    on purpose, sees both.
//
// Prints a report; exits 0 only if every check passed.
//
//	opty-node-probe run --cwd DIR --fdtable PATH --records DIR
//	    --start FILE --ready FILE --go FILE [--helper PATH]
//
// --helper names the client helper of the install under test (the
// module's helperPath option); without it, the one the bundled module
// names (HELPER_PATH, the default install's).
// It starts its sessions once FILE --start exists (the recorder is in
// place), writes "PID FD..." (its session sockets) to --ready when they
// are live and ends them once --go exists.
//	opty-node-probe hold --cwd DIR --ready FILE	(a connection held
//	    open, for the dumpability control of 77-node-probe.sh)
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const cp = require('node:child_process');
const { Worker } = require('node:worker_threads');
const pty = require('../../client/node');

const SOCKET = pty.SOCKET_PATH;

function parseArgs(args) {
	const o = { mode: args[0] };
	for (let i = 1; i < args.length; i += 2) {
		if (!/^--[a-z]+$/.test(args[i]) || i + 1 >= args.length)
			throw new Error(`bad argument ${args[i]}`);
		o[args[i].slice(2)] = args[i + 1];
	}
	return o;
}

// glibc's dev_t encoding, as stat(2) and Node's bigint stats give it.
function devName(dev) {
	const d = BigInt(dev);
	const major = ((d >> 8n) & 0xfffn) | ((d >> 32n) & ~0xfffn);
	const minor = (d & 0xffn) | ((d >> 12n) & ~0xffn);
	return `${major}:${minor}`;
}

function statType(st) {
	if (st.isSocket())
		return 'socket';
	if (st.isDirectory())
		return 'dir';
	if (st.isCharacterDevice())
		return 'chr';
	if (st.isFIFO())
		return 'fifo';
	if (st.isFile())
		return 'reg';
	return 'other';
}

// This process's own table (the fork child's report), as opty-fdtable
// prints it.  The listing's own descriptor is gone by the fstat.
function ownTable() {
	const rows = [];
	for (const n of fs.readdirSync('/proc/self/fd').map(Number)
	    .sort((a, b) => a - b)) {
		let st;
		try {
			st = fs.fstatSync(n, { bigint: true });
		} catch {
			continue;
		}
		const t = statType(st);
		rows.push(t === 'socket' ? `fd ${n} socket ino=${st.ino} peer=?` :
		    `fd ${n} ${t} dev=${devName(st.dev)} ino=${st.ino}`);
	}
	return rows.join('\n') + '\n';
}

function parseTable(text) {
	const t = [];
	for (const l of text.split('\n')) {
		const m = /^fd (\d+) (\S+)(.*)$/.exec(l);
		if (!m)
			continue;
		const e = { fd: Number(m[1]), type: m[2] };
		for (const kv of m[3].trim().split(/\s+/)) {
			const i = kv.indexOf('=');
			if (i > 0)
				e[kv.slice(0, i)] = kv.slice(i + 1);
		}
		t.push(e);
	}
	return t;
}

function show(table) {
	return table.map((e) => `${e.fd}:${e.type}`).join(' ');
}

class Probe {
	constructor(o) {
		this.o = o;
		this.failed = 0;
		this.checks = 0;
		const st = fs.statSync(o.cwd, { bigint: true });
		this.dir = { dev: devName(st.dev), ino: String(st.ino) };
		this.sessionSockets = new Set();
		this.sessions = [];
		this.step = 'starting';
	}

	// What the probe waits for now, for the report of a probe stopped by
	// its unit's time bound.
	waitingFor(step) {
		this.step = step;
	}

	stopped(sig) {
		this.check(false, `stopped by ${sig} while waiting for ` +
		    `${this.step}`);
		for (const s of this.sessions)
			this.line(`  session ${s.name}: output so far ` +
			    `${JSON.stringify(s.out())}`);
	}

	line(s) {
		process.stdout.write(`${s}\n`);
	}

	check(ok, what) {
		this.checks++;
		if (!ok)
			this.failed++;
		this.line(`${ok ? 'PASS' : 'FAIL'}: ${what}`);
		return ok;
	}

	isDir(e) {
		return e.type === 'dir' && e.dev === this.dir.dev &&
		    e.ino === this.dir.ino;
	}

	isSessionSocket(e) {
		return e.type === 'socket' && this.sessionSockets.has(e.ino);
	}

	helper() {
		return this.o.helper || pty.HELPER_PATH;
	}

	records() {
		return new Set(fs.readdirSync(this.o.records)
		    .filter((f) => f.startsWith('helper.')));
	}

	// A session running cat; resolves once its first output arrived
	// (the helper is done and the command runs).  The socket is known
	// from the start: it exists as soon as spawn() returns.
	session(name) {
		const p = pty.spawn(['/bin/sh', '-c', `echo ready-${name}; exec cat`],
		    { cwd: this.o.cwd, helperPath: this.helper() });
		const fd = p._sock._handle && p._sock._handle.fd;
		const ino = String(fs.fstatSync(fd, { bigint: true }).ino);
		this.sessionSockets.add(ino);
		let out = '';
		const live = new Promise((resolve, reject) => {
			p.onData((d) => {
				out += d;
				if (out.includes(`ready-${name}`))
					resolve();
			});
			p.onExit((ev) => reject(new Error(`session ${name} ended: ` +
			    `${ev.error ? ev.error.message : ev.exitCode}`)));
		});
		const exit = new Promise((resolve) => p.onExit(resolve));
		const s = { name, p, fd, ino, live, exit, out: () => out };
		this.sessions.push(s);
		return s;
	}

	// The helper's records since `before`, oldest first.
	freshRecords(before) {
		const at = (f) => fs.statSync(path.join(this.o.records, f))
		    .mtimeMs;
		return [...this.records()].filter((f) => !before.has(f))
		    .sort((x, y) => at(x) - at(y));
	}

	/*
	 * One helper ran; or two, the first refused for a descriptor it
	 * should not have had and run again by the module (docs/NODE.md):
	 * its table is shown, and it may hold neither a session socket nor
	 * the directory beyond its own 3 and 4.
	 */
	checkHelper(s, before) {
		const fresh = this.freshRecords(before);
		if (!this.check(fresh.length === 1 || fresh.length === 2,
		    `session ${s.name}: one helper ran and recorded its table ` +
		    `(${fresh.length} records${fresh.length === 2 ?
		    ', the first refused and run again' : ''})`))
			return;
		if (fresh.length === 2) {
			const t0 = fs.readFileSync(path.join(this.o.records,
			    fresh[0]), 'utf8');
			this.line(`refused helper of session ${s.name} ` +
			    `(${fresh[0]}):`);
			for (const l of t0.trim().split('\n'))
				this.line(`  ${l}`);
			const bad = parseTable(t0).filter((e) => e.fd > 4 &&
			    (this.isSessionSocket(e) || this.isDir(e)));
			this.check(bad.length === 0, `session ${s.name}: the ` +
			    `refused helper held no session socket nor the ` +
			    `directory above fd 4 [${show(bad)}]`);
		}
		const text = fs.readFileSync(path.join(this.o.records,
		    fresh[fresh.length - 1]), 'utf8');
		const t = parseTable(text);
		this.line(`helper of session ${s.name} ` +
		    `(${fresh[fresh.length - 1]}):`);
		for (const l of text.trim().split('\n'))
			this.line(`  ${l}`);
		const fds = t.map((e) => e.fd).join(',');
		this.check(fds === '0,1,2,3,4', `session ${s.name}: the helper saw ` +
		    `exactly 0,1,2,3,4 (${fds})`);
		const e3 = t.find((e) => e.fd === 3) || {};
		this.check(e3.type === 'socket' && e3.ino === s.ino &&
		    e3.peer === SOCKET, `session ${s.name}: fd 3 is this session's ` +
		    `socket (ino ${s.ino}), connected to ${SOCKET}`);
		const e4 = t.find((e) => e.fd === 4) || {};
		this.check(this.isDir(e4), `session ${s.name}: fd 4 is the ` +
		    `directory ${this.o.cwd} (${this.dir.dev} ino ${this.dir.ino})`);
	}

	// The unrelated children, all started now (the worker's a little
	// later, from its own thread); each resolves to [name, table text].
	children(tag) {
		const fdt = this.o.fdtable;
		const out = (name, c) => new Promise((resolve) => {
			let s = '';
			c.stdout.setEncoding('utf8');
			c.stdout.on('data', (d) => { s += d; });
			c.on('close', () => resolve([name, s]));
			c.on('error', (e) => resolve([name, `error ${e.message}`]));
		});
		const cb = (name, f) => new Promise((resolve) => f((err, s) =>
		    resolve([name, err ? `error ${err.message}` : s])));
		const jobs = [];
		jobs.push(out('child_process.spawn', cp.spawn(fdt, [],
		    { stdio: ['ignore', 'pipe', 'inherit'] })));
		jobs.push(Promise.resolve(['child_process.spawnSync',
		    cp.spawnSync(fdt, [], { encoding: 'utf8' }).stdout]));
		jobs.push(cb('child_process.exec', (f) => cp.exec(fdt, f)));
		jobs.push(cb('child_process.execFile',
		    (f) => cp.execFile(fdt, [], f)));
		jobs.push(new Promise((resolve) => {
			const c = cp.fork(__filename, ['fork-child'], {
				env: { ...process.env, OPTY_PROBE_ROLE: 'fork-child' },
				stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
			});
			c.on('message', (m) => resolve(['child_process.fork', m]));
			c.on('error', (e) => resolve(['child_process.fork',
			    `error ${e.message}`]));
		}));
		jobs.push(new Promise((resolve) => {
			const w = new Worker(`
				const cp = require('node:child_process');
				const { parentPort, workerData } = require('node:worker_threads');
				const c = cp.spawn(workerData, [], { stdio: ['ignore', 'pipe', 'inherit'] });
				let s = '';
				c.stdout.setEncoding('utf8');
				c.stdout.on('data', (d) => { s += d; });
				c.on('close', () => parentPort.postMessage(s));
				c.on('error', (e) => parentPort.postMessage('error ' + e.message));
			`, { eval: true, workerData: fdt });
			w.on('message', (m) => {
				resolve(['worker thread child_process.spawn', m]);
				w.terminate();
			});
			w.on('error', (e) => resolve(['worker thread',
			    `error ${e.message}`]));
		}));
		return Promise.all(jobs).then((r) => r.map(([n, s]) =>
		    [`${n} (${tag})`, s]));
	}

	checkChild(name, text) {
		const t = parseTable(text || '');
		const ok = t.some((e) => e.fd === 0) && t.some((e) => e.fd === 2);
		const bad = t.filter((e) => this.isSessionSocket(e) || this.isDir(e));
		this.check(ok && bad.length === 0, `${name}: neither the socket ` +
		    `nor the directory [${show(t)}]` + (ok ? '' : ' (no table: ' +
		    `${String(text).slice(0, 200)})`) + (bad.length ? ` HOLDS ` +
		    `${show(bad)}` : ''));
	}

	// The reporter given a session's socket and the directory as fds 3
	// and 4 on purpose must show them: the negative results mean
	// something.
	control(s) {
		const dfd = fs.openSync(this.o.cwd, fs.constants.O_RDONLY |
		    fs.constants.O_DIRECTORY);
		const r = cp.spawnSync(this.o.fdtable, [], { encoding: 'utf8',
		    stdio: ['ignore', 'pipe', 'inherit', s.fd, dfd] });
		fs.closeSync(dfd);
		const t = parseTable(r.stdout || '');
		const e3 = t.find((e) => e.fd === 3) || {};
		const e4 = t.find((e) => e.fd === 4) || {};
		this.check(this.isSessionSocket(e3) && e3.peer === SOCKET &&
		    this.isDir(e4), 'positive control: the reporter given the ' +
		    `socket and the directory on purpose sees both [${show(t)}]`);
	}

	async run() {
		const sea = require('node:sea');
		this.line('== opencode-pty Node inheritance probe');
		this.line(`node ${process.version} ${process.platform}-` +
		    `${process.arch}; single executable application: ` +
		    `${sea.isSea() ? 'yes' : 'no'}`);
		this.line(`binary ${process.execPath}; pid ${process.pid}; ` +
		    `uid ${process.getuid()}; cwd for sessions ${this.o.cwd}`);
		this.line(`helper ${this.helper()}; socket ${SOCKET}`);

		this.waitingFor(`${this.o.start}`);
		while (!fs.existsSync(this.o.start))
			await new Promise((r) => setTimeout(r, 20));
		let before = this.records();
		const a = this.session('A');
		this.waitingFor('session A\'s first output');
		await a.live;
		this.checkHelper(a, before);
		this.control(a);

		// B's directory descriptor and socket are open here now: the
		// children below start while the helper is being spawned.
		before = this.records();
		const b = this.session('B');
		const during = this.children('while session B starts');
		// The window is real: this process held B's socket and the
		// directory while those children were started.
		const mine = parseTable(ownTable());
		this.check(mine.some((e) => e.type === 'socket' && e.ino === b.ino) &&
		    mine.some((e) => this.isDir(e)), 'the children above were ' +
		    'started while this process held session B\'s socket and ' +
		    'the directory');
		this.waitingFor('session B\'s first output');
		await b.live;
		this.checkHelper(b, before);
		this.waitingFor('the children\'s tables');
		const idle = await this.children('two sessions live');
		for (const [n, s] of [...await during, ...idle])
			this.checkChild(n, s);

		// Both sessions stay live while the script outside tries to take
		// them from an unrelated byk process.
		fs.writeFileSync(this.o.ready, `${process.pid} ${a.fd} ${b.fd}\n`);
		this.waitingFor(`${this.o.go}`);
		while (!fs.existsSync(this.o.go))
			await new Promise((r) => setTimeout(r, 50));

		for (const s of [a, b])
			s.p.write('\x04');
		for (const s of [a, b]) {
			this.waitingFor(`session ${s.name}'s end`);
			const ev = await s.exit;
			this.check(ev.exitCode === 0 && ev.result === 'success',
			    `session ${s.name} served by the SEA ended: exit ` +
			    `${ev.exitCode}, ${ev.result || ev.error}`);
		}
		this.line(`== verdict: ${this.failed === 0 ? 'PASS' : 'FAIL'} ` +
		    `(${this.checks - this.failed} of ${this.checks} checks passed)`);
		return this.failed === 0 ? 0 : 1;
	}
}

// The dumpability control: a connection and the directory held open.
function hold(o) {
	const dfd = fs.openSync(o.cwd, fs.constants.O_RDONLY |
	    fs.constants.O_DIRECTORY);
	const s = net.connect(SOCKET);
	s.on('error', () => {});
	s.on('connect', () => fs.writeFileSync(o.ready,
	    `${process.pid} ${s._handle.fd} ${dfd}\n`));
	setInterval(() => {}, 1 << 30);
}

function main() {
	if (process.env.OPTY_PROBE_ROLE === 'fork-child' && process.send) {
		process.send(ownTable(), () => process.exit(0));
		return;
	}
	const o = parseArgs(process.argv.slice(2));
	if (o.mode === 'hold') {
		hold(o);
		return;
	}
	if (o.mode !== 'run' || !o.cwd || !o.fdtable || !o.records ||
	    !o.start || !o.ready || !o.go)
		throw new Error('usage: run --cwd DIR --fdtable PATH --records DIR ' +
		    '--start FILE --ready FILE --go FILE [--helper PATH] | ' +
		    'hold --cwd DIR --ready FILE');
	const probe = new Probe(o);
	process.on('SIGTERM', () => {
		probe.stopped('SIGTERM');
		process.exit(1);
	});
	probe.run().then((rc) => process.exit(rc),
	    (e) => {
		// The sessions' sockets keep the loop alive: end now.
		process.stdout.write(`FAIL: ${e.stack || e}\n`, () =>
		    process.exit(1));
	    });
}

main();
