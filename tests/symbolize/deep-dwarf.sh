# SPDX-License-Identifier: MIT
# deep-dwarf.sh - deep_asm N prints assembly for a program whose DWARF
# nests N lexical blocks inside main(), with an inlined call at the
# bottom and one more function after main: a walk that recurses per
# level overflows the stack, one that rescans subtrees is quadratic.
deep_asm() {
cat <<'A'
	.text
	.globl main
	.type main,@function
main:
	xorl %eax, %eax
	.rept 64
	nop
	.endr
	ret
.Lmain_end:
	.size main, .-main
	.globl after_nest
	.type after_nest,@function
after_nest:
	.rept 32
	nop
	.endr
	ret
.Lafter_end:
	.size after_nest, .-after_nest
	.section .debug_abbrev,"",@progbits
.Labbrev:
	.uleb128 1, 0x11
	.byte 1
	.uleb128 0x03, 0x08, 0x11, 0x01, 0x12, 0x01, 0, 0
	.uleb128 2, 0x2e
	.byte 1
	.uleb128 0x03, 0x08, 0x11, 0x01, 0x12, 0x01, 0, 0
	.uleb128 3, 0x0b
	.byte 1
	.uleb128 0, 0
	.uleb128 4, 0x1d
	.byte 0
	.uleb128 0x03, 0x08, 0x11, 0x01, 0x12, 0x01, 0x59, 0x0b, 0, 0
	.uleb128 5, 0x2e
	.byte 0
	.uleb128 0x03, 0x08, 0x11, 0x01, 0x12, 0x01, 0, 0
	.byte 0
	.section .debug_info,"",@progbits
	.long .Linfo_end - .Linfo_start
.Linfo_start:
	.value 4
	.long .Labbrev
	.byte 8
	.uleb128 1
	.string "deep.c"
	.quad main, .Lafter_end
	.uleb128 2
	.string "main"
	.quad main, .Lmain_end
A
printf '\t.rept %d\n\t.uleb128 3\n\t.endr\n' "$1"
cat <<'A'
	.uleb128 4
	.string "deepest_inline"
	.quad main, .Lmain_end
	.byte 7
A
printf '\t.rept %d\n\t.byte 0\n\t.endr\n' "$1"
cat <<'A'
	.byte 0
	.uleb128 5
	.string "after_nest"
	.quad after_nest, .Lafter_end
	.byte 0
.Linfo_end:
A
}
