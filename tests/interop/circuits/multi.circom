pragma circom 2.0.0;
// Several public inputs and outputs: a dot product and a sum of squares.
template Multi(N) {
    signal input xs[N];
    signal input ws[N];
    signal input secret;
    signal output dot;
    signal output sq;
    signal prod[N];
    signal sqs[N];
    var acc = 0;
    var acc2 = 0;
    for (var i = 0; i < N; i++) {
        prod[i] <== xs[i] * ws[i];
        sqs[i] <== xs[i] * xs[i];
        acc += prod[i];
        acc2 += sqs[i];
    }
    signal t;
    t <== secret * secret;
    dot <== acc + t;
    sq <== acc2;
}
component main {public [xs, ws]} = Multi(5);
