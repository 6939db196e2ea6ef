pragma circom 2.0.0;
include "../../../node_modules/circomlib/circuits/bitify.circom";
include "../../../node_modules/circomlib/circuits/comparators.circom";
// Range checks: x fits in 32 bits, lo <= x < hi (lo, hi public), and x != 0.
template Range() {
    signal input x;
    signal input lo;
    signal input hi;
    signal output ok;
    component bits = Num2Bits(32);
    bits.in <== x;
    component ge = GreaterEqThan(32);
    ge.in[0] <== x;
    ge.in[1] <== lo;
    component lt = LessThan(32);
    lt.in[0] <== x;
    lt.in[1] <== hi;
    component z = IsZero();
    z.in <== x;
    ok <== ge.out * lt.out;
    ok === 1;
    z.out === 0;
}
component main {public [lo, hi]} = Range();
