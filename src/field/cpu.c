#include "field/cpu.h"
#include "field/fp_batch.h"

#include "g16.h"

#if defined(__x86_64__) && defined(G16_HAVE_MULX)
#include <cpuid.h>
static int probe(void)
{
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    /* EBX bit 8: BMI2 (mulx), bit 19: ADX (adcx/adox) */
    return ((b >> 8) & 1) && ((b >> 19) & 1);
}
#else
static int probe(void) { return 0; }
#endif

int g16_use_mulx;

__attribute__((constructor)) static void field_cpu_init(void) { g16_use_mulx = probe(); }

int g16_cpu_can_mulx(void) { return probe(); }

void g16_field_force_portable(int on) { g16_use_mulx = on ? 0 : probe(); }

const char *g16_arith_path(void)
{
    if (g16_use_ifma) return g16_use_mulx ? "x86-64 mulx/adx, AVX-512 IFMA batches" : "portable C, AVX-512 IFMA batches";
    return g16_use_mulx ? "x86-64 mulx/adx" : "portable C";
}
