/* The process's resident memory, for the memory budget's promise (which is
 * about RSS) and the benches that check it. */
#ifndef G16_COMMON_RSS_H
#define G16_COMMON_RSS_H

#include <stdint.h>

/* Returns: resident bytes of this process now (/proc/self/statm), 0 if unknown. */
uint64_t g16_rss_bytes(void);

#endif
