'use strict';
// nodesim.js: test only, never installed.  The Node-side actor of the
// integration suite (regress/itlib.sh's `client`): run by the exact Node
// release as the MainPID of opencode-v2.service (user byk), it plays the
// Node service through the client module client/node/, taking the
// options of regress/tools/opty-nodesim that describe VALID client
// behaviour and printing the same result lines on stderr, so that a
// script's expectations hold whichever actor ran:
//
//	opty-nodesim: exit code=C status=S result=R bytes=N
//	opty-nodesim: error code=C text=TEXT
//	opty-nodesim: EOF without exit frame bytes=N
//	opty-nodesim: NAME: MESSAGE		(any other failure)
//
//	node nodesim.js [-q] [-n runs | -P n] [-t sec] [-i input] [-d dir]
//	    [-W rowsxcols] [-R rowsxcols] [-S signo] [-O] -- command [arg ...]
//
// With OPTY_NODE_MODULE=DIR in its environment it uses the module in DIR
// (an installed copy) instead of the repository's.
//
// -R/-S frames go in command-line order once the start frame is sent
// (the module holds them until then), or with -O once the first output
// arrived; the -i input follows them.  -P opens n sessions at once from
// this one process; -n runs sessions one after the other until one ends
// otherwise than by an exit frame.  Exit status as opty-nodesim's: 0
// after an exit frame, 3 after an error frame, 4 otherwise (-P: 1 if any
// session did not end by an exit frame).
//
// Everything else opty-nodesim can do is forging or byte-level timing a
// valid client never does (frames before the start, any payload or type,
// forged start frames, a held start frame, a replaced MainPID, a reader
// of N bytes a second, a delay after the start): this program refuses
// those options (status 2) rather than approximating them; itlib.sh runs
// opty-nodesim for them, and docs/TESTING.md lists them.
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)
// OPTY_NODE_MODULE names another copy of the module to play through:
// the installed one (itlib.sh: node_entry; regress/pkg/: the package's).
const pty = require(process.env.OPTY_NODE_MODULE || '../../client/node');

function usage(why) {
	process.stderr.write(`nodesim.js: usage: ${why}\n`);
	process.exit(2);
}

function count(s, min, max, what) {
	if (!/^\d+$/.test(s) || Number(s) < min || Number(s) > max)
		usage(`${what}: want ${min}..${max}, not '${s}'`);
	return Number(s);
}

function size(s) {
	const m = /^(\d+)x(\d+)$/.exec(s);
	if (!m || !pty.codec.winsizeValid(Number(m[1]), Number(m[2])))
		usage(`a size is ROWSxCOLS, both 1..4096, not '${s}'`);
	return [Number(m[1]), Number(m[2])];
}

function signo(s) {
	if (!/^\d+$/.test(s) || !pty.codec.signalAllowed(Number(s)))
		usage(`-S: not a signal of the fixed set: '${s}'`);
	return Number(s);
}

// The arguments as the kernel holds them: process.argv decodes them as
// UTF-8 and would replace a byte that is not, so the -i input is taken
// from here byte for byte, and an argv word that is not UTF-8 (the
// module takes strings) is refused rather than altered.
function rawArgs() {
	const b = require('node:fs').readFileSync('/proc/self/cmdline');
	const words = [];
	for (let off = 0; off < b.length;) {
		const end = b.indexOf(0, off);
		words.push(b.subarray(off, end === -1 ? b.length : end));
		off = end === -1 ? b.length : end + 1;
	}
	if (words.length !== process.argv.length)
		usage('/proc/self/cmdline does not match process.argv');
	return words.slice(2);
}

// getopt(3)-like: clustered flags, a value attached or the next word.
function parse(args, raw) {
	const o = { dir: '.', runs: 1, parallel: 0, actions: [] };
	let i = 0;
	for (; i < args.length; i++) {
		const a = args[i];
		if (a === '--') {
			i++;
			break;
		}
		if (a[0] !== '-' || a === '-')
			break;
		for (let k = 1; k < a.length; k++) {
			const c = a[k];
			if ('qO'.includes(c)) {
				if (c === 'q')
					o.quiet = true;
				else
					o.afterOutput = true;
				continue;
			}
			if (!'dintPWRS'.includes(c))
				usage(`-${c} is not an option of a valid client ` +
				    '(opty-nodesim only)');
			let v = a.slice(k + 1);
			let rv = raw[i].subarray(k + 1);	// ASCII before it
			if (v === '') {
				if (++i >= args.length)
					usage(`-${c} needs a value`);
				v = args[i];
				rv = raw[i];
			}
			switch (c) {
			case 'd': o.dir = v; break;
			case 'i': o.input = rv; break;
			case 'n': o.runs = count(v, 0, 1e9, '-n'); break;
			case 't': o.runtimeMaxSec = count(v, 1, 3600, '-t'); break;
			case 'P': o.parallel = count(v, 0, 64, '-P'); break;
			case 'W': [o.rows, o.cols] = size(v); break;
			case 'R': o.actions.push(['resize', size(v)]); break;
			case 'S': o.actions.push(['kill', signo(v)]); break;
			}
			break;
		}
	}
	o.argv = args.slice(i);
	for (let n = i; n < args.length; n++)
		if (!Buffer.from(args[n], 'utf8').equals(raw[n]))
			usage(`argument ${n - i} is not UTF-8 (opty-nodesim only)`);
	if (o.actions.length > 16)
		usage('at most 16 -R/-S frames');
	return o;
}

function act(p, o) {
	for (const [what, v] of o.actions) {
		if (what === 'resize')
			p.resize(v[0], v[1]);
		else
			p.kill(v);
	}
	if (o.input !== undefined)
		p.write(o.input);
}

function line(s) {
	process.stderr.write(`opty-nodesim: ${s}\n`);
}

// One session; resolves to opty-nodesim's status of it.
function session(o) {
	return new Promise((resolve) => {
		let p;
		try {
			p = pty.spawn(o.argv, { cwd: o.dir, rows: o.rows,
			    cols: o.cols, runtimeMaxSec: o.runtimeMaxSec,
			    encoding: null });
		} catch (e) {
			line(`${e.code || e.name}: ${e.message}`);
			resolve(2);
			return;
		}
		let bytes = 0;
		let acted = !o.afterOutput;
		if (acted)
			act(p, o);
		p.onData((b) => {
			bytes += b.length;
			if (!acted) {
				acted = true;
				act(p, o);
			}
			// Our own stdout is a consumer too: respect it.
			if (!o.quiet && !process.stdout.write(b)) {
				p.pause();
				process.stdout.once('drain', () => p.resume());
			}
		});
		p.onExit((ev) => {
			const e = ev.error;
			if (!e) {
				line(`exit code=${ev.code} status=${ev.status} ` +
				    `result=${ev.result} bytes=${bytes}`);
				resolve(0);
			} else if (e instanceof pty.SupervisorError) {
				line(`error code=${e.number} text=${e.text}`);
				resolve(3);
			} else if (e.code === 'EEOF') {
				line(`EOF without exit frame bytes=${bytes}`);
				resolve(4);
			} else {
				line(`${e.code}: ${e.message}`);
				resolve(4);
			}
		});
	});
}

async function main() {
	const o = parse(process.argv.slice(2), rawArgs());
	if (o.argv.length === 0)
		usage('no command');
	// A paused socket is no active handle in libuv: keep the process
	// alive while a session waits for our stdout to drain.
	const alive = setInterval(() => {}, 1 << 30);
	let r = 0;
	if (o.parallel > 0) {
		const all = [];
		for (let n = 0; n < o.parallel; n++)
			all.push(session(o));
		r = (await Promise.all(all)).some((s) => s !== 0) ? 1 : 0;
	} else {
		for (let n = 0; n < o.runs && r === 0; n++)
			r = await session(o);
	}
	clearInterval(alive);
	process.exitCode = r;
}

main();
