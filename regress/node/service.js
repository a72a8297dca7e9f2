'use strict';
// service.js: test only, never installed.  The Node service of the
// integration tests (regress/it/76-node.sh): run by the exact Node
// release as the MainPID of opencode-v2.service (user byk), it uses the
// client module client/node/ the way the real service does.  Output of
// the session on stdout; one last line per session on stderr:
//
//	node-service: exit code=C signal=NAME|- result=R
//	node-service: error name=CLASS code=CODE [number=N]
//
//	node service.js [--cwd DIR] [--size RxC] [--runtime SEC]
//	    [--input STR] [--parallel N] [--after-output]
//	    [--resize RxC] [--kill SIG] [--pause] [--destroy] -- argv...
//
// --input is written at once (the module holds it until the start
// frame); --resize, --kill, --pause (stop reading for good) and
// --destroy (disconnect) act on the first output when --after-output
// is given, else at once.
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)
// OPTY_NODE_MODULE names the installed copy of the module (itlib.sh).
const pty = require(process.env.OPTY_NODE_MODULE || '../../client/node');

function usage(why) {
	process.stderr.write(`node-service: usage: ${why}\n`);
	process.exit(2);
}

function parse(args) {
	const o = { cwd: '/home/byk/work', parallel: 1, actions: [] };
	let i = 0;
	const val = () => {
		if (i + 1 >= args.length)
			usage(`${args[i]} needs a value`);
		return args[++i];
	};
	const size = (s) => {
		const m = /^(\d+)x(\d+)$/.exec(s);
		if (!m)
			usage(`bad size ${s}`);
		return [Number(m[1]), Number(m[2])];
	};
	for (; i < args.length && args[i] !== '--'; i++) {
		switch (args[i]) {
		case '--cwd': o.cwd = val(); break;
		case '--size': [o.rows, o.cols] = size(val()); break;
		case '--runtime': o.runtimeMaxSec = Number(val()); break;
		case '--input': o.input = val(); break;
		case '--parallel': o.parallel = Number(val()); break;
		case '--after-output': o.afterOutput = true; break;
		case '--resize': o.actions.push(['resize', size(val())]); break;
		case '--kill': o.actions.push(['kill', val()]); break;
		case '--pause': o.actions.push(['pause']); break;
		case '--destroy': o.actions.push(['destroy']); break;
		default: usage(`unknown option ${args[i]}`);
		}
	}
	o.argv = args.slice(i + 1);
	if (o.argv.length === 0)
		usage('no command');
	return o;
}

function act(p, actions) {
	for (const [what, v] of actions) {
		if (what === 'resize')
			p.resize(v[0], v[1]);
		else if (what === 'kill')
			p.kill(v);
		else if (what === 'pause')
			p.pause();
		else if (what === 'destroy')
			p.destroy();
	}
}

function session(o, quiet) {
	return new Promise((resolve) => {
		const p = pty.spawn(o.argv, { cwd: o.cwd, rows: o.rows, cols: o.cols,
		    runtimeMaxSec: o.runtimeMaxSec, encoding: null });
		let acted = !o.afterOutput;
		if (acted)
			act(p, o.actions);
		if (o.input !== undefined)
			p.write(o.input);
		p.onData((b) => {
			if (!acted) {
				acted = true;
				act(p, o.actions);
			}
			// The service's own stdout is a consumer too: respect it.
			if (!quiet && !process.stdout.write(b)) {
				p.pause();
				process.stdout.once('drain', () => p.resume());
			}
		});
		p.onExit((ev) => {
			let line;
			if (ev.error) {
				const n = ev.error.number;
				line = `error name=${ev.error.name} ` +
				    `code=${ev.error.code}` +
				    (n === undefined ? '' : ` number=${n}`);
			} else {
				line = `exit code=${ev.exitCode} ` +
				    `signal=${ev.signal || '-'} result=${ev.result}`;
			}
			process.stderr.write(`node-service: ${line}\n`);
			resolve();
		});
	});
}

async function main() {
	const o = parse(process.argv.slice(2));
	// A paused socket is no active handle in libuv: with every session
	// paused nothing would keep the process alive.  A service has its
	// own server for that; this one has a timer.
	const alive = setInterval(() => {}, 1 << 30);
	const all = [];
	for (let n = 0; n < o.parallel; n++)
		all.push(session(o, o.parallel > 1));
	await Promise.all(all);
	clearInterval(alive);
}

main();
