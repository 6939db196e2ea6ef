/* Public API, part of g16.h: circuits (compiled R1CS), witnesses, synthetic circuit generation. */
#ifndef G16_CIRCUIT_PUBLIC_H
#define G16_CIRCUIT_PUBLIC_H

#include "g16.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
