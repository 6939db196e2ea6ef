/* Filecoin FallbackPoSt sector vanilla proofs as serde_json writes them
 * (g16_fc_vproof_parse_json); what an accepted proof must satisfy: vproof_check.h. */
#include "vproof_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g16_fc_vproof v;
    if (g16_fc_vproof_parse_json(&v, data, size, "fuzz") == G16_OK) {
        vproof_check(&v);
        g16_fc_vproof_free(&v);
    }
    return 0;
}
