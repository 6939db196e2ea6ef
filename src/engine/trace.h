/* The engine's timeline as Chrome trace-event JSON (trace.c). */
#ifndef G16_ENGINE_TRACE_H
#define G16_ENGINE_TRACE_H

#include "engine/tracker.h"

void g16_trace_span(g16_engine *e, const char *name, double t_begin, double t_end, unsigned lane,
                    const g16_part *p);
/* As g16_trace_span, for a span on device dev (its args name the device). */
void g16_trace_span_dev(g16_engine *e, const char *name, double t_begin, double t_end, unsigned lane,
                        const g16_part *p, int dev);
void g16_trace_counters(g16_engine *e);
/* Writes the trace file with the summary (mu not held).  Returns G16_OK or G16_ERR_IO. */
g16_status g16_trace_write(g16_engine *e, const char *path, const g16_engine_stats *st);
void g16_trace_free(g16_trace *t);

#endif
