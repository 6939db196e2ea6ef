/* The host buffer pool and its freer thread (bufpool.c): page-aligned mappings
 * reused by exact size, page-locked through a CUDA backend; mu held unless noted. */
#ifndef G16_ENGINE_BUFPOOL_H
#define G16_ENGINE_BUFPOOL_H

#include "engine/tracker.h"

/* Rounds a byte count up to whole pages (the pool's size classes). */
size_t g16_buf_round(size_t bytes);

g16_status g16_bufpool_start(g16_engine *e);            /* mu not held */
void g16_bufpool_stop(g16_engine *e);                   /* mu not held; frees everything */
/* Takes an idle buffer of exactly `bytes` (rounded) into *b; returns 0 when none. */
int g16_bufpool_take_idle(g16_engine *e, g16_buf *b, size_t bytes);
/* Counts idle buffers of `bytes` (rounded). */
size_t g16_bufpool_count_idle(const g16_engine *e, size_t bytes);
/* Maps a fresh buffer (mu not held).  Pinned bytes are counted here. */
g16_status g16_bufpool_alloc(g16_engine *e, g16_buf *b, size_t bytes);
/* Returns a buffer to the idle list (charged bytes stay charged). */
void g16_bufpool_put(g16_engine *e, g16_buf *b);
/* Hands every idle buffer to the freer except up to n_a of size keep_a and n_b of
 * size keep_b (the ones the partition waiting for room will reuse). */
void g16_bufpool_evict(g16_engine *e, size_t keep_a, size_t n_a, size_t keep_b, size_t n_b);
/* Waits (mu held) until the freer queue is empty. */
void g16_bufpool_wait_freer(g16_engine *e);

#endif
