// SPDX-License-Identifier: MIT
// rsprog.rs - a Rust program for the symbolization tests: two allocating
// call paths, built with rustc -g (no .debug_aranges by default on some
// toolchains) and profiled under tcmalloc.
#[inline(never)]
fn make_buffers(n: usize) -> Vec<Vec<u8>> {
    (0..n).map(|i| vec![i as u8; 1000 + i % 100]).collect()
}
#[inline(never)]
fn keep_some(v: &mut Vec<Vec<u8>>) {
    for i in 0..2000 { v.push(vec![1u8; 4096 + i]); }
}
fn main() {
    let mut v = make_buffers(5000);
    keep_some(&mut v);
    std::mem::forget(v);
}
