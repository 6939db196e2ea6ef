// Runs snarkjs's own Groth16 verifier (the function behind `snarkjs groth16 verify`)
// on many proofs in one process, so the curve is built once.
// stdin: lines "OK|BAD NAME VK PUBLIC PROOF"; OK lines must verify, BAD lines must not.
// Prints one line per mismatch and "snarkjs-verify: N passed, M failed"; exit 1 on any failure.
import fs from "fs";
import * as snarkjs from "snarkjs";

const lines = fs.readFileSync(0, "utf8").split("\n").filter((l) => l.trim());
let pass = 0, fail = 0;
for (const line of lines) {
    const [want, name, vk, pub, proof] = line.split(" ");
    const read = (p) => JSON.parse(fs.readFileSync(p, "utf8"));
    let ok;
    try {
        ok = await snarkjs.groth16.verify(read(vk), read(pub), read(proof));
    } catch (e) {
        ok = false;
    }
    if (ok === (want === "OK")) pass++;
    else {
        fail++;
        console.log(`FAIL: ${name}: snarkjs says ${ok ? "valid" : "invalid"}, want ${want}`);
    }
}
console.log(`snarkjs-verify: ${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
