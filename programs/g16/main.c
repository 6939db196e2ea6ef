/* g16 command-line tool: dispatches to the subcommands in this folder. */
#include <stdio.h>
#include <string.h>

#include "g16.h"

int main(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version"))) {
        printf("g16 %s (field arithmetic: %s)\n", g16_version(), g16_arith_path());
        return 0;
    }
    fprintf(stderr, "usage: g16 --version\n");
    return 2;
}
