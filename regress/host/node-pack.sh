#!/bin/sh
# node-pack.sh: host-level test (run by `make check-unit`; test-only;
# root, or any user with writable OPTY_NODE_CACHE and OPTY_TS_CACHE):
# the Node module as an npm package.  `npm pack` of the module as built
# ($BUILD/nodejs/opencode-pty) gives a tarball of exactly the package's
# files; installed into an empty directory with `npm install` (offline:
# a tarball with no dependency), it is used by name from CommonJS and
# from ESM under the exact Node (NODE_VERSION); TypeScript (pinned,
# build-aux/typescript.sh) compiles a consumer in both styles, and one
# written for node-pty (opencode-pty/node-pty), with --strict against its
# declarations, and fails on the wrong uses a
# consumer may make (the positive control: each is named by its error).
# Its version is the project's (debian/changelog).
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)
set -u
cd "$(dirname "$0")/../.." || exit 1
BUILD=${BUILD:-build}
MOD=$BUILD/nodejs/opencode-pty
fails=0
ok() { echo "PASS: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

node=$(sh build-aux/node.sh "${NODE_VERSION:-26.4.0}") ||
    { echo "FAIL: no Node ${NODE_VERSION:-26.4.0}"; exit 1; }
mods=$(sh build-aux/typescript.sh) || { echo "FAIL: no TypeScript"; exit 1; }
command -v npm >/dev/null || { echo "FAIL: npm is missing (make deps)"; exit 1; }
[ -f "$MOD/package.json" ] || { echo "FAIL: $MOD not built (make all)"; exit 1; }
t=$(mktemp -d "${TMPDIR:-/tmp}/opty-pack.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
export npm_config_cache="$t/npm-cache" npm_config_update_notifier=false \
    npm_config_fund=false npm_config_audit=false

# --- the tarball ----------------------------------------------------------
ver=$(dpkg-parsechangelog -l debian/changelog -S Version | sed 's/-[^-]*$//')
pver=$("$node" -p "require('./$MOD/package.json').version")
[ -n "$ver" ] && [ "$pver" = "$ver" ] &&
    ok "package.json's version is the project's ($ver)" ||
    bad "package.json's version '$pver' is not debian/changelog's '$ver'"
(cd "$MOD" && npm pack --offline --pack-destination "$t" > "$t/pack.out" \
    2> "$t/pack.err") || { cat "$t/pack.err"; bad "npm pack"; }
tgz=$t/opencode-pty-$pver.tgz
if [ -f "$tgz" ]; then
	got=$(tar -tzf "$tgz" | sed 's|^package/||' | LC_ALL=C sort | tr '\n' ' ')
	want=$(cd "$MOD" && ls | LC_ALL=C sort | tr '\n' ' ')
	[ "$got" = "$want" ] && ok "npm pack: ${tgz##*/} holds $got" ||
	    bad "npm pack: ${tgz##*/} holds '$got', not '$want'"
else
	bad "npm pack made no ${tgz##*/}"
fi

# --- installed by name, used from CommonJS and ESM ----------------------------
mkdir "$t/app" && cd "$t/app" || exit 1
printf '{ "name": "consumer", "private": true }\n' > package.json
npm install --offline --no-save "$tgz" > "$t/install.out" 2>&1 &&
    [ -f node_modules/opencode-pty/index.js ] &&
    ok "npm install of the tarball into an empty directory" ||
    { sed 's/^/  | /' "$t/install.out"; bad "npm install of the tarball"; }
names="spawn Pty SupervisorError PtyError FrameError ERRORS SIGNALS SOCKET_PATH HELPER_PATH codec"
cat > cjs.cjs <<'JS'
const pty = require('opencode-pty');
const want = process.argv[2].split(' ');
const miss = want.filter((n) => pty[n] === undefined);
if (miss.length || typeof pty.spawn !== 'function')
	throw new Error(`missing: ${miss}`);
const e = new pty.SupervisorError(3, 'x');
if (e.code !== 'ERR_BUSY' || e.number !== 3 || e.name !== 'SupervisorError')
	throw new Error(`SupervisorError: ${e.name} ${e.code} ${e.number}`);
const np = require('opencode-pty/node-pty');
if (typeof np.spawn !== 'function' || np.TERM !== 'xterm-256color')
	throw new Error('opencode-pty/node-pty');
console.log(`cjs ${require.resolve('opencode-pty')}`);
JS
cat > esm.mjs <<'JS'
import pty, { spawn, SupervisorError, ERRORS } from 'opencode-pty';
import * as ns from 'opencode-pty';
const want = process.argv[2].split(' ');
const miss = want.filter((n) => ns[n] === undefined);
if (miss.length || spawn !== pty.spawn || ERRORS.ERR_BUSY !== 3)
	throw new Error(`missing: ${miss}`);
if (new SupervisorError(15, 'x').code !== 'ERR_SHUTDOWN')
	throw new Error('SupervisorError');
const np = await import('opencode-pty/node-pty');
if (typeof np.spawn !== 'function' || np.TERM !== 'xterm-256color')
	throw new Error('opencode-pty/node-pty');
console.log(`esm ${import.meta.resolve('opencode-pty')}`);
JS
for f in cjs.cjs esm.mjs; do
	out=$("$node" "$f" "$names" 2>&1) &&
	    case $out in *"/node_modules/opencode-pty/index."*) true ;; *) false ;; esac &&
	    ok "by name from ${f#*.}: $out" ||
	    bad "by name from ${f#*.}: $out"
done

# --- the declarations, from TypeScript --------------------------------------
mkdir -p node_modules/@types
ln -s "$mods/typescript" node_modules/typescript
ln -s "$mods/@types/node" node_modules/@types/node
ln -s "$mods/undici-types" node_modules/undici-types
cat > tsconfig.json <<'JSON'
{
	"compilerOptions": {
		"strict": true, "noEmit": true, "module": "nodenext",
		"moduleResolution": "nodenext", "target": "es2022",
		"types": ["node"], "skipLibCheck": false
	},
	"files": ["cjs.cts", "esm.mts", "nodepty.mts"]
}
JSON
cat > cjs.cts <<'TS'
import pty = require('opencode-pty');
const s: pty.Pty<string> = pty.spawn(['ls'], { cwd: '/' });
s.onData((d: string) => { d.toUpperCase(); });
const b = pty.spawn(['ls'], { cwd: '/', encoding: null });
b.onData((d: Buffer) => { d.readUInt8(0); });
const n: pty.Pty = new pty.Pty(['ls'], { cwd: '/', rows: 24, cols: 80 });
n.resize(24, 80);
s.onExit((e) => {
	if (e.error instanceof pty.SupervisorError && e.error.code === 'ERR_BUSY')
		console.log(e.error.number + 1);
});
TS
cat > esm.mts <<'TS'
import pty, { spawn, SupervisorError, type ExitEvent } from 'opencode-pty';
const s = spawn(['ls'], { cwd: '/' });
s.onData((d: string) => { d.toUpperCase(); });
const b = pty.spawn(['ls'], { cwd: '/', encoding: null });
b.onData((d: Buffer) => { d.readUInt8(0); });
s.onExit((e: ExitEvent) => {
	if (e.error instanceof SupervisorError && e.error.code === 'ERR_SHUTDOWN')
		console.log(e.error.number + 1);
});
TS
# Code written for node-pty, unchanged but for the module's name.
cat > nodepty.mts <<'TS'
import * as pty from 'opencode-pty/node-pty';
const term = pty.spawn('bash', [], { name: 'xterm-256color', cols: 80,
    rows: 30, cwd: process.env.HOME });
const sock = { write(d: string): boolean { return d.length > 0; } };
term.onData((d) => sock.write(d));
term.onExit(({ exitCode, signal }) => console.log(exitCode, signal));
term.resize(100, 40);
term.write('ls\r');
console.log(term.pid.toString(), term.process, term.cols, term.rows);
term.kill();
TS
tsc() { "$node" node_modules/typescript/bin/tsc "$@"; }
out=$(tsc -p tsconfig.json 2>&1) && ok "tsc --strict: the three consumers compile" ||
    { printf '%s\n' "$out" | sed 's/^/  | /'; bad "tsc --strict on the consumers"; }

# The control: each wrong use is an error tsc names, at its line.
cat > wrong.mts <<'TS'
import { spawn, SupervisorError, Pty } from 'opencode-pty';
const s = spawn(['ls'], { cwd: '/' });
s.onData((d: Buffer) => { d.readUInt8(0); });
const b = spawn(['ls'], { cwd: '/', encoding: null });
b.onData((d: string) => { d.toUpperCase(); });
s.onExit((e) => {
	if (e.error instanceof SupervisorError && e.error.code === 3) {}
});
new Pty(['ls']);
import * as np from 'opencode-pty/node-pty';
np.spawn('sh', [], { env: { A: '1' } });
TS
sed 's/"files": \[.*\]/"files": ["wrong.mts"]/' tsconfig.json > tsconfig.wrong.json
out=$(tsc -p tsconfig.wrong.json 2>&1)
rc=$?
[ $rc != 0 ] && ok "control: tsc refuses the wrong uses (exit $rc)" ||
    bad "control: tsc accepted the wrong uses"
for w in "wrong.mts(3,10): error TS2345|string data taken as a Buffer" \
    "wrong.mts(5,10): error TS2345|Buffer data taken as a string" \
    "wrong.mts(7,44): error TS2367|an error code compared with a number" \
    "wrong.mts(9,1): error TS2554|a Pty made without its options" \
    "wrong.mts(11,22): error TS2769|node-pty's env, which the supervisor fixes"; do
	case $out in
	*"${w%%|*}"*) ok "control: ${w#*|}: ${w%%|*}" ;;
	*) printf '%s\n' "$out" | sed 's/^/  | /'
	   bad "control: ${w#*|}: no '${w%%|*}'" ;;
	esac
done

[ $fails = 0 ] && echo "all passed" || echo "$fails failed"
[ $fails = 0 ]
