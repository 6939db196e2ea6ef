/* The backend layer: the CPU and CUDA implementations of the ops table
 * (groth16/ops.h) behind g16_backend_open (include/g16.h). */
#ifndef G16_BACKEND_BACKEND_H
#define G16_BACKEND_BACKEND_H

#include "g16.h"
#include "groth16/ops.h"

/* The CUDA backend on one GPU (cuda_backend.c).  Without CUDA in the build the
 * open returns G16_ERR_BACKEND. */
g16_status g16_cuda_backend_open(g16_backend **out, int device);
void g16_cuda_backend_close(g16_backend *be);

/* 1 when be is a CUDA backend. */
int g16_backend_is_cuda(const g16_backend *be);

/* Bytes of device memory the backend keeps for resident key queries at most
 * (least recently used keys are evicted beyond it); 0 for the CPU. */
size_t g16_backend_resident_bytes(const g16_backend *be);

/* Uploads key to several CUDA backends (different GPUs) with one page-locking of each
 * query for all of them, instead of one locking and unlocking per GPU (at 2^27, ≈ 6 s
 * of the 47 GB key's ≈ 7 s per GPU).  A backend busy with a proof is left out (its lock
 * is only tried: never waits behind a proof), as is one without room for the query.
 * Returns: bit i set for each bes[i] on which every query is resident now; 0 when not
 * every backend is CUDA, n < 2, or G16_CUDA_KEY_PIN=0.  Callers upload the rest one by
 * one (key_upload). */
uint64_t g16_backend_key_upload_all(g16_backend *const *bes, unsigned n, const struct g16_key *key);

/* Page-locks a host buffer the device will read (a, b, c, z) so it is copied at
 * full bus speed; no-op for the CPU backend or when locking fails (the copy is
 * then staged, slower but correct).  Unpin before freeing. */
void g16_backend_pin(const g16_backend *be, void *p, size_t bytes);
void g16_backend_unpin(const g16_backend *be, void *p);

#endif
