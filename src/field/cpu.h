/* Run-time choice of the field-arithmetic path.
 *
 * On x86-64 builds with G16_HAVE_MULX the mulx/adcx/adox assembly is used when
 * CPUID reports BMI2 and ADX; otherwise the portable C core.  Tests force either
 * path with g16_field_force_portable() to compare the two. */
#ifndef G16_FIELD_CPU_H
#define G16_FIELD_CPU_H

/* 1 when the assembly path is in use; read on every multiplication, so a plain int. */
extern int g16_use_mulx;

/* Returns 1 if this build has the assembly path and this CPU can run it. */
int g16_cpu_can_mulx(void);

/* Selects the portable path (on != 0) or the best available (on == 0). */
void g16_field_force_portable(int on);

#endif
