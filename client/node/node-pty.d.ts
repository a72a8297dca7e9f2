// node-pty.d.ts: TypeScript declarations of node-pty.js, node-pty's
// interface (IPty, IPtyForkOptions) as it holds here (docs/NODE.md).
//
// SPDX-License-Identifier: ISC
// Copyright (c) 2026 The opencode-pty authors (see LICENSE)

/// <reference types="node" />

import type { IDisposable, SupervisorError, PtyError } from './index.js';

export type { IDisposable };

/** The TERM every session has; `name` may only repeat it. */
export declare const TERM: 'xterm-256color';

export interface IPtyForkOptions {
	name?: 'xterm-256color';
	cols?: number;
	rows?: number;
	/** Default process.cwd(). */
	cwd?: string;
	/** Default 'utf8'; null gives Buffers. */
	encoding?: BufferEncoding | null;
	handleFlowControl?: boolean;
	flowControlPause?: string;
	flowControlResume?: string;
	/** Not node-pty's: seconds before systemd stops the command. */
	runtimeMaxSec?: number;
	/** Refused by spawn(): the supervisor fixes them. */
	env?: never;
	uid?: never;
	gid?: never;
}

export interface IExitEvent {
	/**
	 * The status of an exit, 0 for a death by signal; -1 when the
	 * session ended without an exit frame (see error).
	 */
	exitCode: number;
	/** The number of the signal that killed the command, else 0. */
	signal: number;
	error?: SupervisorError | PtyError;
}

export interface IPty<T extends string | Buffer = string> {
	/** NaN: no PID of this process's world names the command. */
	readonly pid: number;
	readonly cols: number;
	readonly rows: number;
	/** The file spawn() was given. */
	readonly process: string;
	handleFlowControl: boolean;
	readonly onData: (listener: (data: T) => void) => IDisposable;
	readonly onExit: (listener: (e: IExitEvent) => void) => IDisposable;
	resize(columns: number, rows: number): void;
	/** node-pty's clear() acts on Windows only. */
	clear(): void;
	write(data: string | Buffer): void;
	kill(signal?: string): void;
	pause(): void;
	resume(): void;
}

export declare function spawn(file: string, args: string[],
    options: IPtyForkOptions & { encoding: null }): IPty<Buffer>;
export declare function spawn(file: string, args?: string[],
    options?: IPtyForkOptions & { encoding?: BufferEncoding }): IPty<string>;
