/* Montgomery multiplication for 6-limb (Fp) and 4-limb (Fr) moduli with
 * mulx/adcx/adox (BMI2 + ADX).  Contract as g16_mont_mul in field/mont.h and
 * declared in field/mont_x86_64.h: inputs < p, output < p, r may alias a or b,
 * p < 2^(64n-1).  Called only when cpu.c found BMI2 and ADX.
 *
 * Algorithm: CIOS, one multiply pass t += a·b[i] followed by one reduction pass
 * t = (t + m·p) / 2^64 with m = t[0]·n0 mod 2^64, per limb of b.  Each pass
 * runs two carry chains at once: low halves of the products go through CF
 * (adcx), high halves through OF (adox), so a pass is one straight chain of
 * single-cycle adds instead of the add/adc pairs a one-flag machine needs.
 *
 * Why n+1 words suffice: before each pass t < 2p; after the multiply pass
 * t < 2p + (2^64-1)p, after the reduction pass (before the shift) it is below
 * 2p·2^64 < 2^(64n+64), and after the shift below 2p < 2^(64n) again (p's top
 * bit is clear).  So the word that falls off in the shift is always zero and
 * is reused as the next top word, which rotates the register names by one per
 * limb; the macros below take the accumulator registers as arguments for that.
 * The final t < 2p needs one conditional subtraction of p.
 *
 * All state is in registers except, in the 6-limb version, r (needed only at
 * the end) and n0 (read by imul straight from the stack). */

        .text

/* Shared register roles. */
#define A       %rsi    /* a */
#define B       %rbx    /* b (rdx is mulx's implicit operand, so b moves) */
#define P       %rcx    /* p */
#define ZERO    %rax    /* 0 after each "xorl %eax, %eax", which also clears CF and OF */

/* ------------------------------------------------------------------------ */
/* 6 limbs: accumulator in r9..r15, product halves in LO/HI. */
#define LO      %rbp
#define HI      %rdi
#define ONES    %r8             /* 2^64 - 1; n0 arrives in r8 and moves to... */
#define N0_SAVED 8(%rsp)        /* ...the stack, just above the saved r */

/* t = a·b[0]: t starts at zero, so a plain add/adc chain, no reduction input. */
#define MUL384_FIRST(t0, t1, t2, t3, t4, t5, t6)                               \
        movq    0(B), %rdx;                                                    \
        mulxq   0(A), t0, t1;                                                  \
        mulxq   8(A), LO, t2;   addq LO, t1;                                   \
        mulxq   16(A), LO, t3;  adcq LO, t2;                                   \
        mulxq   24(A), LO, t4;  adcq LO, t3;                                   \
        mulxq   32(A), LO, t5;  adcq LO, t4;                                   \
        mulxq   40(A), LO, t6;  adcq LO, t5;                                   \
        adcq    $0, t6

/* t += a·b[i]; on entry t6 = 0 (the word freed by the previous shift). */
#define MUL384(i, t0, t1, t2, t3, t4, t5, t6)                                  \
        movq    8*(i)(B), %rdx;                                                \
        xorl    %eax, %eax;                                                    \
        mulxq   0(A), LO, HI;   adcxq LO, t0;   adoxq HI, t1;                  \
        mulxq   8(A), LO, HI;   adcxq LO, t1;   adoxq HI, t2;                  \
        mulxq   16(A), LO, HI;  adcxq LO, t2;   adoxq HI, t3;                  \
        mulxq   24(A), LO, HI;  adcxq LO, t3;   adoxq HI, t4;                  \
        mulxq   32(A), LO, HI;  adcxq LO, t4;   adoxq HI, t5;                  \
        mulxq   40(A), LO, HI;  adcxq LO, t5;   adoxq HI, t6;                  \
        adcxq   ZERO, t6

/* t = (t + m·p) / 2^64.  The sum of t0 and m·p[0]'s low half is 0 mod 2^64 by
 * the choice of m, so only its carry matters, and that carry is 1 exactly when
 * t0 != 0: adding 2^64-1 to t0 gives it without waiting for the product,
 * which takes the multiplier's latency off the chain from one m to the next
 * (about 4% of a multiplication).  The result is in t1..t6 and t0 is cleared
 * to be the free zero word for the next pass. */
#define REDC384(t0, t1, t2, t3, t4, t5, t6)                                    \
        movq    t0, %rdx;                                                      \
        imulq   N0_SAVED, %rdx;                                                \
        xorl    %eax, %eax;                                                    \
        adcxq   ONES, t0;       /* CF = (t0 != 0), see above */                \
        mulxq   0(P), LO, HI;   adoxq HI, t1;                                  \
        mulxq   8(P), LO, HI;   adcxq LO, t1;   adoxq HI, t2;                  \
        mulxq   16(P), LO, HI;  adcxq LO, t2;   adoxq HI, t3;                  \
        mulxq   24(P), LO, HI;  adcxq LO, t3;   adoxq HI, t4;                  \
        mulxq   32(P), LO, HI;  adcxq LO, t4;   adoxq HI, t5;                  \
        mulxq   40(P), LO, HI;  adcxq LO, t5;   adoxq HI, t6;                  \
        adcxq   ZERO, t6;                                                      \
        movq    ZERO, t0

/* r = t - p if t >= p else t (t < 2p), branch-free.  a, b, the all-ones
 * word and the product halves are dead by now, so their registers hold the
 * difference, and r8 receives r. */
#define FINAL384(t0, t1, t2, t3, t4, t5)                                       \
        popq    %r8;                                                           \
        movq    t0, %rax;       movq t1, %rdx;  movq t2, %rbp;                 \
        movq    t3, %rdi;       movq t4, %rsi;  movq t5, %rbx;                 \
        subq    0(P), %rax;     sbbq 8(P), %rdx;        sbbq 16(P), %rbp;      \
        sbbq    24(P), %rdi;    sbbq 32(P), %rsi;       sbbq 40(P), %rbx;      \
        cmovcq  t0, %rax;       cmovcq t1, %rdx;        cmovcq t2, %rbp;       \
        cmovcq  t3, %rdi;       cmovcq t4, %rsi;        cmovcq t5, %rbx;       \
        movq    %rax, 0(%r8);   movq %rdx, 8(%r8);      movq %rbp, 16(%r8);    \
        movq    %rdi, 24(%r8);  movq %rsi, 32(%r8);     movq %rbx, 40(%r8)

/* void g16_mulx_mont_384(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
 *                        const uint64_t p[6], uint64_t n0)
 * rdi = r, rsi = a, rdx = b, rcx = p, r8 = n0 */
/* Lazy variant's ending: r = t as it is (t < 2p), see g16_mulx_mont_384_lazy. */
#define STORE384(t0, t1, t2, t3, t4, t5)                                       \
        popq    %r8;                                                           \
        movq    t0, 0(%r8);     movq t1, 8(%r8);        movq t2, 16(%r8);      \
        movq    t3, 24(%r8);    movq t4, 32(%r8);       movq t5, 40(%r8)

/* One body for both entry points; lazy = 1 skips the final subtraction. */
        .macro MULX384_FN name, lazy
        .globl  \name
        .type   \name, @function
        .p2align 5
\name:
        .cfi_startproc
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbp, -16
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbx, -24
        pushq   %r12
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r12, -32
        pushq   %r13
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r13, -40
        pushq   %r14
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r14, -48
        pushq   %r15
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r15, -56
        pushq   %r8                     /* n0 */
        .cfi_adjust_cfa_offset 8
        pushq   %rdi                    /* r, reloaded by FINAL384 */
        .cfi_adjust_cfa_offset 8
        movq    %rdx, B
        movq    $-1, ONES

        MUL384_FIRST(%r9, %r10, %r11, %r12, %r13, %r14, %r15)
        REDC384(%r9, %r10, %r11, %r12, %r13, %r14, %r15)
        MUL384(1, %r10, %r11, %r12, %r13, %r14, %r15, %r9)
        REDC384(%r10, %r11, %r12, %r13, %r14, %r15, %r9)
        MUL384(2, %r11, %r12, %r13, %r14, %r15, %r9, %r10)
        REDC384(%r11, %r12, %r13, %r14, %r15, %r9, %r10)
        MUL384(3, %r12, %r13, %r14, %r15, %r9, %r10, %r11)
        REDC384(%r12, %r13, %r14, %r15, %r9, %r10, %r11)
        MUL384(4, %r13, %r14, %r15, %r9, %r10, %r11, %r12)
        REDC384(%r13, %r14, %r15, %r9, %r10, %r11, %r12)
        MUL384(5, %r14, %r15, %r9, %r10, %r11, %r12, %r13)
        REDC384(%r14, %r15, %r9, %r10, %r11, %r12, %r13)
        .if \lazy
        STORE384(%r15, %r9, %r10, %r11, %r12, %r13)
        .else
        FINAL384(%r15, %r9, %r10, %r11, %r12, %r13)
        .endif
        .cfi_adjust_cfa_offset -8
        popq    %rax                    /* n0 */
        .cfi_adjust_cfa_offset -8

        popq    %r15
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r15
        popq    %r14
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r14
        popq    %r13
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r13
        popq    %r12
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r12
        popq    %rbx
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbx
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbp
        ret
        .cfi_endproc
        .size   \name, .-\name
        .endm

        MULX384_FN g16_mulx_mont_384, 0

/* void g16_mulx_mont_384_lazy(uint64_t r[6], const uint64_t a[6],
 *                             const uint64_t b[6], const uint64_t p[6], uint64_t n0)
 * r ≡ a·b·2^-384 (mod p) with r < 2p, NOT fully reduced; a and b may be below
 * 2p too.  The header comment's bound holds for such inputs: with a, b < 2p
 * the running value stays below (4p² + 2^384·p)/2^384 < 2p because 4p < 2^384
 * (p < 2^381), so the final conditional subtraction only matters when the
 * result must be canonical; chains of products (batch inversion) skip it. */
        MULX384_FN g16_mulx_mont_384_lazy, 1

/* void g16_mulx_sqr_mont_384(uint64_t r[6], const uint64_t a[6],
 *                            const uint64_t p[6], uint64_t n0)
 * rdi = r, rsi = a, rdx = p, rcx = n0.
 *
 * Dedicated squaring (SOS): T = a² from the 15 products a_i·a_j (i < j),
 * doubled, plus the 6 squares a_i², 21 mulx instead of 36; then the low half
 * T_lo is reduced by six REDC384 passes, u = (T_lo + M·p) / 2^384 <= p, and
 * r = u + T_hi (T_hi = T / 2^384 < p/2 even for a < 2p, as 4p < 2^384), which
 * is below 2p, so FINAL384's one conditional subtraction makes it canonical.
 * Inputs below 2p are accepted, like the multiplication.
 *
 * Stack while running: 0 r, 8 n0 (N0_SAVED), 16 p, 24 T0, 32..72 T6..T11. */
#define S_LO    %rcx
#define S_HI    %rdi
/* Row i of the off-diagonal products, a_i·a_j for j > i, added into the
 * accumulator from word 2i+1 on; the last product's high half opens a new word. */
#define SQR_ROW_LAST(j, sj, snew)                                              \
        mulxq   8*(j)(A), S_LO, snew;                                          \
        adcxq   S_LO, sj;                                                      \
        adoxq   ZERO, snew;                                                    \
        adcxq   ZERO, snew
#define SQR_ROW_MID(j, sj, sj1)                                                \
        mulxq   8*(j)(A), S_LO, S_HI;                                          \
        adcxq   S_LO, sj;                                                      \
        adoxq   S_HI, sj1
/* doubling through CF, the diagonal square a_i² through OF */
#define SQR_DIAG(i, slo, shi)                                                  \
        movq    8*(i)(A), %rdx;                                                \
        mulxq   %rdx, S_LO, S_HI;                                              \
        adcxq   slo, slo;       adoxq S_LO, slo;                               \
        adcxq   shi, shi;       adoxq S_HI, shi

        .globl  g16_mulx_sqr_mont_384
        .type   g16_mulx_sqr_mont_384, @function
        .p2align 5
g16_mulx_sqr_mont_384:
        .cfi_startproc
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbp, -16
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbx, -24
        pushq   %r12
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r12, -32
        pushq   %r13
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r13, -40
        pushq   %r14
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r14, -48
        pushq   %r15
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r15, -56
        subq    $56, %rsp               /* T0, T6..T11 */
        .cfi_adjust_cfa_offset 56
        pushq   %rdx                    /* p */
        .cfi_adjust_cfa_offset 8
        pushq   %rcx                    /* n0 */
        .cfi_adjust_cfa_offset 8
        pushq   %rdi                    /* r, popped by FINAL384 */
        .cfi_adjust_cfa_offset 8

        /* row 0: a0·a1..a5 into s1..s6 = r8..r13 (plain add/adc: nothing to add to) */
        movq    0(A), %rdx
        mulxq   8(A), %r8, %r9
        mulxq   16(A), S_LO, %r10;      addq S_LO, %r9
        mulxq   24(A), S_LO, %r11;      adcq S_LO, %r10
        mulxq   32(A), S_LO, %r12;      adcq S_LO, %r11
        mulxq   40(A), S_LO, %r13;      adcq S_LO, %r12
        adcq    $0, %r13
        /* row 1: a1·a2..a5 into s3..s7 (s7 = r14) */
        movq    8(A), %rdx
        xorl    %eax, %eax
        SQR_ROW_MID(2, %r10, %r11)
        SQR_ROW_MID(3, %r11, %r12)
        SQR_ROW_MID(4, %r12, %r13)
        SQR_ROW_LAST(5, %r13, %r14)
        /* row 2: a2·a3..a5 into s5..s8 (s8 = r15) */
        movq    16(A), %rdx
        xorl    %eax, %eax
        SQR_ROW_MID(3, %r12, %r13)
        SQR_ROW_MID(4, %r13, %r14)
        SQR_ROW_LAST(5, %r14, %r15)
        /* row 3: a3·a4..a5 into s7..s9 (s9 = rbx) */
        movq    24(A), %rdx
        xorl    %eax, %eax
        SQR_ROW_MID(4, %r14, %r15)
        SQR_ROW_LAST(5, %r15, %rbx)
        /* row 4: a4·a5 into s9..s10 (s10 = rbp) */
        movq    32(A), %rdx
        mulxq   40(A), S_LO, %rbp
        addq    S_LO, %rbx
        adcq    $0, %rbp
        /* T = 2·S + Σ a_i²·2^(128i): T0 alone, T1..T10 in place, T11 in S_HI */
        movq    0(A), %rdx
        mulxq   %rdx, S_LO, S_HI
        movq    S_LO, 24(%rsp)          /* T0 */
        xorl    %eax, %eax
        adcxq   %r8, %r8;       adoxq S_HI, %r8
        SQR_DIAG(1, %r9, %r10)
        SQR_DIAG(2, %r11, %r12)
        SQR_DIAG(3, %r13, %r14)
        SQR_DIAG(4, %r15, %rbx)
        movq    40(A), %rdx
        mulxq   %rdx, S_LO, S_HI
        adcxq   %rbp, %rbp;     adoxq S_LO, %rbp
        adcxq   ZERO, S_HI;     adoxq ZERO, S_HI
        /* T_hi = T6..T11 = r13, r14, r15, rbx, rbp, S_HI to the stack */
        movq    %r13, 32(%rsp)
        movq    %r14, 40(%rsp)
        movq    %r15, 48(%rsp)
        movq    %rbx, 56(%rsp)
        movq    %rbp, 64(%rsp)
        movq    S_HI, 72(%rsp)
        /* T_lo = T0..T5 into REDC384's accumulator r9..r14, r15 = 0 */
        movq    %r12, %r14
        movq    %r11, %r13
        movq    %r10, %r12
        movq    %r9, %r11
        movq    %r8, %r10
        movq    24(%rsp), %r9
        xorl    %r15d, %r15d
        movq    16(%rsp), P
        movq    $-1, ONES
        REDC384(%r9, %r10, %r11, %r12, %r13, %r14, %r15)
        REDC384(%r10, %r11, %r12, %r13, %r14, %r15, %r9)
        REDC384(%r11, %r12, %r13, %r14, %r15, %r9, %r10)
        REDC384(%r12, %r13, %r14, %r15, %r9, %r10, %r11)
        REDC384(%r13, %r14, %r15, %r9, %r10, %r11, %r12)
        REDC384(%r14, %r15, %r9, %r10, %r11, %r12, %r13)
        /* u + T_hi < 2p < 2^384: no carry out */
        addq    32(%rsp), %r15
        adcq    40(%rsp), %r9
        adcq    48(%rsp), %r10
        adcq    56(%rsp), %r11
        adcq    64(%rsp), %r12
        adcq    72(%rsp), %r13
        FINAL384(%r15, %r9, %r10, %r11, %r12, %r13)
        .cfi_adjust_cfa_offset -8
        addq    $72, %rsp               /* n0, p, T */
        .cfi_adjust_cfa_offset -72
        popq    %r15
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r15
        popq    %r14
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r14
        popq    %r13
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r13
        popq    %r12
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r12
        popq    %rbx
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbx
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbp
        ret
        .cfi_endproc
        .size   g16_mulx_sqr_mont_384, .-g16_mulx_sqr_mont_384

#undef S_LO
#undef S_HI

#undef LO
#undef HI
#undef ONES
#undef N0_SAVED

/* ------------------------------------------------------------------------ */
/* 4 limbs: accumulator in r9..r13, product halves in LO/HI, r stays in rdi,
 * n0 in r8 and the all-ones word in rbp. */
#define LO      %r14
#define HI      %r15
#define N0_4    %r8
#define ONES_4  %rbp

#define MUL256_FIRST(t0, t1, t2, t3, t4)                                       \
        movq    0(B), %rdx;                                                    \
        mulxq   0(A), t0, t1;                                                  \
        mulxq   8(A), LO, t2;   addq LO, t1;                                   \
        mulxq   16(A), LO, t3;  adcq LO, t2;                                   \
        mulxq   24(A), LO, t4;  adcq LO, t3;                                   \
        adcq    $0, t4

#define MUL256(i, t0, t1, t2, t3, t4)                                          \
        movq    8*(i)(B), %rdx;                                                \
        xorl    %eax, %eax;                                                    \
        mulxq   0(A), LO, HI;   adcxq LO, t0;   adoxq HI, t1;                  \
        mulxq   8(A), LO, HI;   adcxq LO, t1;   adoxq HI, t2;                  \
        mulxq   16(A), LO, HI;  adcxq LO, t2;   adoxq HI, t3;                  \
        mulxq   24(A), LO, HI;  adcxq LO, t3;   adoxq HI, t4;                  \
        adcxq   ZERO, t4

#define REDC256(t0, t1, t2, t3, t4)                                            \
        movq    t0, %rdx;                                                      \
        imulq   N0_4, %rdx;                                                    \
        xorl    %eax, %eax;                                                    \
        adcxq   ONES_4, t0;     /* CF = (t0 != 0), as in REDC384 */            \
        mulxq   0(P), LO, HI;   adoxq HI, t1;                                  \
        mulxq   8(P), LO, HI;   adcxq LO, t1;   adoxq HI, t2;                  \
        mulxq   16(P), LO, HI;  adcxq LO, t2;   adoxq HI, t3;                  \
        mulxq   24(P), LO, HI;  adcxq LO, t3;   adoxq HI, t4;                  \
        adcxq   ZERO, t4;                                                      \
        movq    ZERO, t0

#define FINAL256(t0, t1, t2, t3)                                               \
        movq    t0, %rax;       movq t1, %rdx;  movq t2, LO;    movq t3, HI;   \
        subq    0(P), %rax;     sbbq 8(P), %rdx;                               \
        sbbq    16(P), LO;      sbbq 24(P), HI;                                \
        cmovcq  t0, %rax;       cmovcq t1, %rdx;                               \
        cmovcq  t2, LO;         cmovcq t3, HI;                                 \
        movq    %rax, 0(%rdi);  movq %rdx, 8(%rdi);                            \
        movq    LO, 16(%rdi);   movq HI, 24(%rdi)

/* void g16_mulx_mont_256(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
 *                        const uint64_t p[4], uint64_t n0) */
        .globl  g16_mulx_mont_256
        .type   g16_mulx_mont_256, @function
        .p2align 5
g16_mulx_mont_256:
        .cfi_startproc
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbx, -16
        pushq   %r12
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r12, -24
        pushq   %r13
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r13, -32
        pushq   %r14
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r14, -40
        pushq   %r15
        .cfi_adjust_cfa_offset 8
        .cfi_offset %r15, -48
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbp, -56
        movq    %rdx, B
        movq    $-1, ONES_4

        MUL256_FIRST(%r9, %r10, %r11, %r12, %r13)
        REDC256(%r9, %r10, %r11, %r12, %r13)
        MUL256(1, %r10, %r11, %r12, %r13, %r9)
        REDC256(%r10, %r11, %r12, %r13, %r9)
        MUL256(2, %r11, %r12, %r13, %r9, %r10)
        REDC256(%r11, %r12, %r13, %r9, %r10)
        MUL256(3, %r12, %r13, %r9, %r10, %r11)
        REDC256(%r12, %r13, %r9, %r10, %r11)
        FINAL256(%r13, %r9, %r10, %r11)

        popq    %rbp
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbp
        popq    %r15
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r15
        popq    %r14
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r14
        popq    %r13
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r13
        popq    %r12
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r12
        popq    %rbx
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbx
        ret
        .cfi_endproc
        .size   g16_mulx_mont_256, .-g16_mulx_mont_256

/* void g16_mulx_sqr_mont_256(uint64_t r[4], const uint64_t a[4],
 *                            const uint64_t p[4], uint64_t n0) */
        .globl  g16_mulx_sqr_mont_256
        .type   g16_mulx_sqr_mont_256, @function
        .p2align 4
g16_mulx_sqr_mont_256:
        .cfi_startproc
        movq    %rcx, %r8
        movq    %rdx, %rcx
        movq    %rsi, %rdx
        jmp     g16_mulx_mont_256
        .cfi_endproc
        .size   g16_mulx_sqr_mont_256, .-g16_mulx_sqr_mont_256

        .section .note.GNU-stack,"",@progbits
