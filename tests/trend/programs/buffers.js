// SPDX-License-Identifier: MIT
// buffers.js MODE STEPS - a node program whose memory behaviour is known,
// for proftrend's verdicts on real dumps (tests/cli/trend-programs.sh).
// Each step makes 64 KiB Buffers outside the V8 heap (the allocator's
// memory) and garbage Buffers the collector frees now and then:
//   keep:    every kept Buffer stays: a leak, a ramp with GC dips (the
//            garbage, 2 MiB a step, is collected every other step);
//   bounded: a cache of the last 48 kept Buffers: fills, then holds.
const mode = process.argv[2], steps = +process.argv[3];
const kept = [];
let garbage = [];
for (let s = 0; s < steps; s++) {
	for (let i = 0; i < 16; i++) {
		kept.push(Buffer.alloc(64 * 1024, s & 0xff));
		if (mode === 'bounded' && kept.length > 48)
			kept.shift();
	}
	for (let i = 0; i < 128; i++)
		garbage.push(Buffer.alloc(16 * 1024, 1));
	if (s % 2 === 1) {
		garbage = [];
		if (global.gc)
			global.gc();
	}
}
