pragma circom 2.0.0;
include "../../../node_modules/circomlib/circuits/poseidon.circom";
include "../../../node_modules/circomlib/circuits/mux1.circom";
// Membership proof: a private leaf and a path of DEPTH Poseidon hashes; the root is the
// public output (the verifier compares it with the root it trusts).
template MerklePath(DEPTH) {
    signal input leaf;
    signal input siblings[DEPTH];
    signal input pathBits[DEPTH];
    signal output root;
    component h[DEPTH];
    component mux[DEPTH];
    signal cur[DEPTH + 1];
    cur[0] <== leaf;
    for (var i = 0; i < DEPTH; i++) {
        pathBits[i] * (pathBits[i] - 1) === 0;
        mux[i] = MultiMux1(2);
        mux[i].c[0][0] <== cur[i];
        mux[i].c[0][1] <== siblings[i];
        mux[i].c[1][0] <== siblings[i];
        mux[i].c[1][1] <== cur[i];
        mux[i].s <== pathBits[i];
        h[i] = Poseidon(2);
        h[i].inputs[0] <== mux[i].out[0];
        h[i].inputs[1] <== mux[i].out[1];
        cur[i + 1] <== h[i].out;
    }
    root <== cur[DEPTH];
}
component main = MerklePath(4);
