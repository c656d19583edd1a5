// SPDX-License-Identifier: MIT
// pprof-format.js MODULE FILE - decode the pprof FILE (gzipped or not)
// with the npm package pprof-format (MODULE: its directory) and print
// what it read: a line "TYPE/UNIT TOTAL" per sample type, then
// "samples N" (those with a value other than 0, the ones go tool pprof
// keeps), "locations N", "functions N", "mappings N".  Exits 1 with
// a message when the package cannot decode it or when the profile
// refers to a string, location, function or mapping it does not have.
'use strict';
const fs = require('fs');
const zlib = require('zlib');
const { Profile } = require(process.argv[2]);

function die(msg) {
	process.stderr.write(process.argv[3] + ': ' + msg + '\n');
	process.exit(1);
}

let buf = fs.readFileSync(process.argv[3]);
if (buf[0] === 0x1f && buf[1] === 0x8b)
	buf = zlib.gunzipSync(buf);
let p;
try {
	p = Profile.decode(buf);
} catch (e) {
	die('pprof-format cannot decode it: ' + e.message);
}
const strs = p.stringTable.strings;
const str = (i) => {
	const n = Number(i);
	if (!(n >= 0 && n < strs.length))
		die('string index ' + i + ' out of range');
	return strs[n];
};
const ids = (list) => new Set(list.map((x) => Number(x.id)));
const locs = ids(p.location), funcs = ids(p.function), maps = ids(p.mapping);
if (strs[0] !== '')
	die('string 0 is not empty');
for (const l of p.location) {
	if (Number(l.mappingId) !== 0 && !maps.has(Number(l.mappingId)))
		die('location ' + l.id + ': no mapping ' + l.mappingId);
	for (const ln of l.line)
		if (!funcs.has(Number(ln.functionId)))
			die('location ' + l.id + ': no function ' + ln.functionId);
}
for (const f of p.function) {
	str(f.name);
	str(f.systemName);
	str(f.filename);
}
for (const m of p.mapping) {
	str(m.filename);
	str(m.buildId);
}
const totals = p.sampleType.map(() => 0n);
let nonzero = 0;
for (const s of p.sample) {
	if (s.value.some((v) => BigInt(v) !== 0n))
		nonzero++;
	if (s.value.length !== p.sampleType.length)
		die('a sample has ' + s.value.length + ' values for ' +
		    p.sampleType.length + ' types');
	for (const id of s.locationId)
		if (!locs.has(Number(id)))
			die('a sample refers to no location ' + id);
	for (const lb of s.label) {
		str(lb.key);
		str(lb.str);
		str(lb.numUnit);
	}
	s.value.forEach((v, i) => { totals[i] += BigInt(v); });
}
p.sampleType.forEach((t, i) => {
	console.log(str(t.type) + '/' + str(t.unit) + ' ' + totals[i]);
});
console.log('samples ' + nonzero);
console.log('locations ' + p.location.length);
console.log('functions ' + p.function.length);
console.log('mappings ' + p.mapping.length);
