pragma circom 2.0.0;
// Two constraints: out = a * b * c (one public output, private inputs).
template Multiplier() {
    signal input a;
    signal input b;
    signal input c;
    signal ab;
    signal output out;
    ab <== a * b;
    out <== ab * c;
}
component main = Multiplier();
