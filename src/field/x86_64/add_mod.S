/* Modular addition, subtraction and negation for 6-limb (Fp) and 4-limb (Fr)
 * moduli, declared in add_mod.h.  Contract as g16_mont_add / _sub / _neg in
 * field/mont.h: inputs < p, output < p, r may alias a or b, p < 2^(64n-1).
 * Branch-free.  Used only when cpu.c found BMI2 and ADX (subtraction uses adox).
 *
 * Why assembly for something this small: the portable C version compiles into
 * scalar stores followed by vector loads of the same bytes, a store-forwarding
 * stall that made an Fp addition cost 40% of an Fp multiplication. */

        .text

/* ------------------------------------------------------------------------ */
/* Subtraction: t = a - b; if it borrowed, add p back.  "sbb %rdx, %rdx" turns
 * the borrow into nothing we need but leaves CF = borrow and OF = 0, so the
 * add-back can run on OF (adox) while each limb of p is picked with cmovc on
 * the untouched CF: no masks, no second copy of t. */
#define SUB_ADDBACK(off, t)                                                    \
        movl    $0, %edx;       /* mov, not xor: flags must survive */         \
        cmovcq  off(%rcx), %rdx;                                               \
        adoxq   %rdx, t

/* void g16_sub_mod_384(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
 *                      const uint64_t p[6]) */
        .globl  g16_sub_mod_384
        .type   g16_sub_mod_384, @function
        .p2align 4
g16_sub_mod_384:
        .cfi_startproc
        movq    0(%rsi), %r8
        subq    0(%rdx), %r8
        movq    8(%rsi), %r9
        sbbq    8(%rdx), %r9
        movq    16(%rsi), %r10
        sbbq    16(%rdx), %r10
        movq    24(%rsi), %r11
        sbbq    24(%rdx), %r11
        movq    32(%rsi), %rax
        sbbq    32(%rdx), %rax
        movq    40(%rsi), %rsi
        sbbq    40(%rdx), %rsi
        sbbq    %rdx, %rdx
        SUB_ADDBACK(0, %r8)
        SUB_ADDBACK(8, %r9)
        SUB_ADDBACK(16, %r10)
        SUB_ADDBACK(24, %r11)
        SUB_ADDBACK(32, %rax)
        SUB_ADDBACK(40, %rsi)
        movq    %r8, 0(%rdi)
        movq    %r9, 8(%rdi)
        movq    %r10, 16(%rdi)
        movq    %r11, 24(%rdi)
        movq    %rax, 32(%rdi)
        movq    %rsi, 40(%rdi)
        ret
        .cfi_endproc
        .size   g16_sub_mod_384, .-g16_sub_mod_384

/* void g16_sub_mod_256(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
 *                      const uint64_t p[4]) */
        .globl  g16_sub_mod_256
        .type   g16_sub_mod_256, @function
        .p2align 4
g16_sub_mod_256:
        .cfi_startproc
        movq    0(%rsi), %r8
        subq    0(%rdx), %r8
        movq    8(%rsi), %r9
        sbbq    8(%rdx), %r9
        movq    16(%rsi), %r10
        sbbq    16(%rdx), %r10
        movq    24(%rsi), %r11
        sbbq    24(%rdx), %r11
        sbbq    %rdx, %rdx
        SUB_ADDBACK(0, %r8)
        SUB_ADDBACK(8, %r9)
        SUB_ADDBACK(16, %r10)
        SUB_ADDBACK(24, %r11)
        movq    %r8, 0(%rdi)
        movq    %r9, 8(%rdi)
        movq    %r10, 16(%rdi)
        movq    %r11, 24(%rdi)
        ret
        .cfi_endproc
        .size   g16_sub_mod_256, .-g16_sub_mod_256

/* ------------------------------------------------------------------------ */
/* Addition: t = a + b (< 2p < 2^(64n): no carry out), s = t - p, keep t when
 * the subtraction borrowed.  Both t and s stay in registers, which for six
 * limbs takes five callee-saved ones; that costs less than the longer
 * dependency chain of subtracting in place and adding p back. */

/* void g16_add_mod_384(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
 *                      const uint64_t p[6]) */
        .globl  g16_add_mod_384
        .type   g16_add_mod_384, @function
        .p2align 4
g16_add_mod_384:
        .cfi_startproc
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbx, -16
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbp, -24
        pushq   %r12
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r12, -32
        pushq   %r13
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r13, -40
        pushq   %r14
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r14, -48
        movq    0(%rsi), %r8
        addq    0(%rdx), %r8
        movq    8(%rsi), %r9
        adcq    8(%rdx), %r9
        movq    16(%rsi), %r10
        adcq    16(%rdx), %r10
        movq    24(%rsi), %r11
        adcq    24(%rdx), %r11
        movq    32(%rsi), %rax
        adcq    32(%rdx), %rax
        movq    40(%rsi), %rsi
        adcq    40(%rdx), %rsi

        movq    %r8, %rdx
        subq    0(%rcx), %rdx
        movq    %r9, %rbx
        sbbq    8(%rcx), %rbx
        movq    %r10, %rbp
        sbbq    16(%rcx), %rbp
        movq    %r11, %r12
        sbbq    24(%rcx), %r12
        movq    %rax, %r13
        sbbq    32(%rcx), %r13
        movq    %rsi, %r14
        sbbq    40(%rcx), %r14

        cmovcq  %r8, %rdx
        cmovcq  %r9, %rbx
        cmovcq  %r10, %rbp
        cmovcq  %r11, %r12
        cmovcq  %rax, %r13
        cmovcq  %rsi, %r14
        movq    %rdx, 0(%rdi)
        movq    %rbx, 8(%rdi)
        movq    %rbp, 16(%rdi)
        movq    %r12, 24(%rdi)
        movq    %r13, 32(%rdi)
        movq    %r14, 40(%rdi)

        popq    %r14
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r14
        popq    %r13
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r13
        popq    %r12
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r12
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbp
        popq    %rbx
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbx
        ret
        .cfi_endproc
        .size   g16_add_mod_384, .-g16_add_mod_384

/* void g16_add_mod_256(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
 *                      const uint64_t p[4]) */
        .globl  g16_add_mod_256
        .type   g16_add_mod_256, @function
        .p2align 4
g16_add_mod_256:
        .cfi_startproc
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbx, -16
        movq    0(%rsi), %r8
        addq    0(%rdx), %r8
        movq    8(%rsi), %r9
        adcq    8(%rdx), %r9
        movq    16(%rsi), %r10
        adcq    16(%rdx), %r10
        movq    24(%rsi), %r11
        adcq    24(%rdx), %r11

        movq    %r8, %rax
        subq    0(%rcx), %rax
        movq    %r9, %rdx
        sbbq    8(%rcx), %rdx
        movq    %r10, %rsi
        sbbq    16(%rcx), %rsi
        movq    %r11, %rbx
        sbbq    24(%rcx), %rbx

        cmovcq  %r8, %rax
        cmovcq  %r9, %rdx
        cmovcq  %r10, %rsi
        cmovcq  %r11, %rbx
        movq    %rax, 0(%rdi)
        movq    %rdx, 8(%rdi)
        movq    %rsi, 16(%rdi)
        movq    %rbx, 24(%rdi)

        popq    %rbx
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbx
        ret
        .cfi_endproc
        .size   g16_add_mod_256, .-g16_add_mod_256

/* ------------------------------------------------------------------------ */
/* Negation: r = p - a, then zeroed through a mask when a = 0 so that 0 maps
 * to 0 (p itself is not a reduced value). */
#define NEG_OR(off)     orq off(%rsi), %rcx

/* void g16_neg_mod_384(uint64_t r[6], const uint64_t a[6], const uint64_t p[6]) */
        .globl  g16_neg_mod_384
        .type   g16_neg_mod_384, @function
        .p2align 4
g16_neg_mod_384:
        .cfi_startproc
        movq    0(%rdx), %r8
        subq    0(%rsi), %r8
        movq    8(%rdx), %r9
        sbbq    8(%rsi), %r9
        movq    16(%rdx), %r10
        sbbq    16(%rsi), %r10
        movq    24(%rdx), %r11
        sbbq    24(%rsi), %r11
        movq    32(%rdx), %rax
        sbbq    32(%rsi), %rax
        movq    40(%rdx), %rdx
        sbbq    40(%rsi), %rdx
        movq    0(%rsi), %rcx
        NEG_OR(8)
        NEG_OR(16)
        NEG_OR(24)
        NEG_OR(32)
        NEG_OR(40)
        negq    %rcx                    /* CF = (a != 0) */
        sbbq    %rcx, %rcx              /* all ones when a != 0 */
        andq    %rcx, %r8
        andq    %rcx, %r9
        andq    %rcx, %r10
        andq    %rcx, %r11
        andq    %rcx, %rax
        andq    %rcx, %rdx
        movq    %r8, 0(%rdi)
        movq    %r9, 8(%rdi)
        movq    %r10, 16(%rdi)
        movq    %r11, 24(%rdi)
        movq    %rax, 32(%rdi)
        movq    %rdx, 40(%rdi)
        ret
        .cfi_endproc
        .size   g16_neg_mod_384, .-g16_neg_mod_384

/* void g16_neg_mod_256(uint64_t r[4], const uint64_t a[4], const uint64_t p[4]) */
        .globl  g16_neg_mod_256
        .type   g16_neg_mod_256, @function
        .p2align 4
g16_neg_mod_256:
        .cfi_startproc
        movq    0(%rdx), %r8
        subq    0(%rsi), %r8
        movq    8(%rdx), %r9
        sbbq    8(%rsi), %r9
        movq    16(%rdx), %r10
        sbbq    16(%rsi), %r10
        movq    24(%rdx), %r11
        sbbq    24(%rsi), %r11
        movq    0(%rsi), %rcx
        NEG_OR(8)
        NEG_OR(16)
        NEG_OR(24)
        negq    %rcx
        sbbq    %rcx, %rcx
        andq    %rcx, %r8
        andq    %rcx, %r9
        andq    %rcx, %r10
        andq    %rcx, %r11
        movq    %r8, 0(%rdi)
        movq    %r9, 8(%rdi)
        movq    %r10, 16(%rdi)
        movq    %r11, 24(%rdi)
        ret
        .cfi_endproc
        .size   g16_neg_mod_256, .-g16_neg_mod_256

        .section .note.GNU-stack,"",@progbits
