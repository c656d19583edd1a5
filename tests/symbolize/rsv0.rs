// SPDX-License-Identifier: MIT
// rsv0.rs - a Rust program built with -C symbol-mangling-version=v0 for
// the demangling tests: generics, const generics, traits, closures, dyn
// bounds, fn pointers, raw pointers, a non-ASCII (Punycode) name, and
// allocations under tcmalloc on named call paths.
use std::collections::HashMap;
use std::fmt::Debug;
pub mod outer { pub mod inner {
    pub struct Holder<T, const N: usize> { pub items: [T; N] }
    impl<T: Copy + Default, const N: usize> Holder<T, N> {
        #[inline(never)] pub fn new() -> Self { Holder { items: [T::default(); N] } }
        #[inline(never)] pub fn first(&self) -> T { self.items[0] }
    }
    pub trait Shape { fn area(&self) -> f64; fn name(&self) -> String { String::from("shape") } }
    pub struct Sq(pub f64);
    impl Shape for Sq { #[inline(never)] fn area(&self) -> f64 { self.0 * self.0 } }
    impl<'a> Shape for &'a [u8] { #[inline(never)] fn area(&self) -> f64 { self.len() as f64 } }
}}
use outer::inner::*;
#[inline(never)] fn apply<F: Fn(i32) -> i32>(f: F, x: i32) -> i32 { f(x) }
#[inline(never)] fn takes_fn(f: fn(&str, u8) -> bool) -> bool { f("x", 1) }
#[inline(never)] fn dynamic(v: &dyn Shape) -> f64 { v.area() }
#[inline(never)] fn boxed(v: Box<dyn Fn(u64) -> u64 + Send>) -> u64 { v(3) }
#[inline(never)] fn tuple<A: Debug, B: Debug>(t: (A, B)) -> String { format!("{:?}", t) }
#[inline(never)] fn flag<const B: bool, const C: char, const I: i32>() -> i64 { if B { C as i64 + I as i64 } else { -1 } }
#[inline(never)] fn ptrs(p: *const u8, q: *mut i16, r: &mut [i128], s: &'static str) -> usize { p as usize + q as usize + r.len() + s.len() }
fn is_x(s: &str, _b: u8) -> bool { s == "x" }
#[inline(never)] fn größe_puffer(n: usize) -> Vec<Vec<u8>> { (0..n).map(|i| vec![i as u8; 4096 + i]).collect() }
#[inline(never)] fn keep_in<T: Clone>(v: &mut Vec<T>, x: T, n: usize) { for _ in 0..n { v.push(x.clone()); } }
fn main() {
    let h: Holder<u32, 4> = Holder::new();
    let k: Holder<(u8, bool), 2> = Holder::new();
    let mut m: HashMap<String, Vec<Option<char>>> = HashMap::new();
    m.insert("a".into(), vec![Some('a'), None]);
    let bytes: &[u8] = b"abc";
    let total = apply(|x| x + h.first() as i32, 2) as f64 + dynamic(&Sq(2.0)) + dynamic(&bytes) + k.first().0 as f64;
    let c = boxed(Box::new(move |y| y * 2 + m.len() as u64));
    let mut arr = [1i128, 2];
    let n = ptrs(std::ptr::null(), std::ptr::null_mut(), &mut arr, "hey");
    let mut keep = größe_puffer(500);
    keep_in(&mut keep, vec![7u8; 10000], 300);
    std::mem::forget(keep);
    println!("{} {} {} {} {} {} {} {}", total, c, takes_fn(is_x), tuple((1u16, "s")), flag::<true, 'z', -5>(), flag::<false, '\'', 7>(), n, Sq(1.0).name());
}
