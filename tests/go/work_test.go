// SPDX-License-Identifier: MIT
// work_test.go - a small Go benchmark whose CPU and heap profiles the
// interop tests feed through profconv and back into go tool pprof.
package gowork

import (
	"crypto/sha256"
	"testing"
)

var sink [][]byte

//go:noinline
func allocSmall(n int) {
	for i := 0; i < n; i++ {
		sink = append(sink, make([]byte, 64+i%200))
	}
}

//go:noinline
func allocLarge(n int) {
	for i := 0; i < n; i++ {
		sink = append(sink, make([]byte, 1<<16))
	}
}

//go:noinline
func hash(rounds int) [32]byte {
	var h [32]byte
	for i := 0; i < rounds; i++ {
		h = sha256.Sum256(h[:])
	}
	return h
}

func BenchmarkWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = nil
		allocSmall(2000)
		allocLarge(20)
		hash(20000)
	}
}
