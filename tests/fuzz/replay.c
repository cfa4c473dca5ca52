/* replay.c — runs a fuzz target's entry point over files, without libFuzzer,
 * so every committed seed and every crash input kept in tests/fuzz/corpus is
 * a regular test in every build (`meson test fuzz-replay-NAME`), and targets
 * cannot rot unbuilt. Arguments are files or folders (their files, sorted);
 * prints TAP, one line a file; a broken property aborts, as under libFuzzer. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends path, or the files of the folder at path, to *list. */
static void collect(const char *path, char ***list, size_t *n, size_t *cap)
{
    DIR *d = opendir(path);
    size_t first = *n;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        if (*n == *cap) {
            *cap = *cap ? *cap * 2 : 64;
            *list = realloc(*list, *cap * sizeof **list);
            if (!*list)
                abort();
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        (*list)[*n] = malloc(len);
        if (!(*list)[*n])
            abort();
        snprintf((*list)[(*n)++], len, "%s/%s", path, e->d_name);
    }
    if (d) {
        closedir(d);
        qsort(*list + first, *n - first, sizeof **list, cmp_str);
        return;
    }
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        *list = realloc(*list, *cap * sizeof **list);
        if (!*list)
            abort();
    }
    size_t len = strlen(path) + 1;
    (*list)[*n] = malloc(len);
    if (!(*list)[*n])
        abort();
    memcpy((*list)[(*n)++], path, len);
}

int main(int argc, char **argv)
{
    char **files = NULL;
    size_t n = 0, cap = 0;
    for (int i = 1; i < argc; i++)
        collect(argv[i], &files, &n, &cap);
    printf("1..%zu\n", n);
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        FILE *f = fopen(files[i], "rb");
        unsigned char *data = NULL;
        size_t len = 0;
        if (f) {
            data = malloc(1 << 20);
            len = data ? fread(data, 1, 1 << 20, f) : 0;
            fclose(f);
        }
        if (!data) {
            printf("not ok %zu - %s: cannot read\n", i + 1, files[i]);
            failed = 1;
        } else {
            /* an exact-size copy, so ASan sees any read past the input */
            unsigned char *exact = malloc(len ? len : 1);
            if (!exact)
                abort();
            memcpy(exact, data, len);
            free(data);
            LLVMFuzzerTestOneInput(exact, len);
            free(exact);
            printf("ok %zu - %s\n", i + 1, files[i]);
        }
        fflush(stdout);
        free(files[i]);
    }
    free(files);
    return failed;
}
