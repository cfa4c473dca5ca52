/* main.c — the bench executable; everything else is in bench_lib. */
#include "bench/bench.h"

int main(int argc, char **argv)
{
    return arena_bench_main(argc, argv);
}
