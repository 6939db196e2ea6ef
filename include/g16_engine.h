/* Public API, part of g16.h: the proving engine (job queue, workers, memory budget). */
#ifndef G16_ENGINE_PUBLIC_H
#define G16_ENGINE_PUBLIC_H

#include "g16.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif
#endif
