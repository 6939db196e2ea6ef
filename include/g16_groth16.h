/* Public API, part of g16.h: Groth16 keys, proving (split API), verification. */
#ifndef G16_GROTH16_PUBLIC_H
#define G16_GROTH16_PUBLIC_H

#include "g16.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
