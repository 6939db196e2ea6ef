#include "files.h"

#include <stdio.h>
#include <stdlib.h>

uint8_t *g16_test_slurp(const char *path, size_t *n, size_t spare)
{
    *n = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    uint8_t *b = NULL;
    long size;
    if (fseek(fp, 0, SEEK_END) == 0 && (size = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0 &&
        (b = malloc((size_t)size + spare + 1)) != NULL) {
        if (fread(b, 1, (size_t)size, fp) == (size_t)size) {
            *n = (size_t)size;
        } else {
            free(b);
            b = NULL;
        }
    }
    fclose(fp);
    return b;
}
