pragma circom 2.0.0;
include "../../../node_modules/circomlib/circuits/poseidon.circom";
// One Poseidon hash of two private inputs; the hash is the public output.
// (circomlib's constants are BN254's: on bls12381 this is a valid circuit, not a standard hash.)
template Hash2() {
    signal input x[2];
    signal output h;
    component p = Poseidon(2);
    p.inputs[0] <== x[0];
    p.inputs[1] <== x[1];
    h <== p.out;
}
component main = Hash2();
