/* pairset.c — a set of (text, number) pairs (pairset.h). */
#include "bench/base/pairset.h"

#include <stdlib.h>
#include <string.h>

static uint64_t pair_hash(const char *t, uint64_t num)
{
    uint64_t h = 0xcbf29ce484222325ull ^ num;
    for (; *t; t++) h = (h ^ (unsigned char)*t) * 0x100000001b3ull;
    return h;
}

int arena_pairset_add(struct arena_pairset *s, const char *t, uint64_t num)
{
    if (2 * (s->n + 1) > s->cap) {
        struct arena_pairset grown = {NULL, NULL, s->cap ? 2 * s->cap : 64, 0};
        grown.text = calloc(grown.cap, sizeof *grown.text);
        grown.num = calloc(grown.cap, sizeof *grown.num);
        if (!grown.text || !grown.num) {
            free(grown.text);
            free(grown.num);
            return -1;
        }
        for (size_t i = 0; i < s->cap; i++)
            if (s->text[i]) arena_pairset_add(&grown, s->text[i], s->num[i]);
        free(s->text);
        free(s->num);
        *s = grown;
    }
    size_t i = (size_t)pair_hash(t, num) & (s->cap - 1);
    for (; s->text[i]; i = (i + 1) & (s->cap - 1))
        if (s->num[i] == num && strcmp(s->text[i], t) == 0) return 0;
    s->text[i] = t;
    s->num[i] = num;
    s->n++;
    return 1;
}

void arena_pairset_free(struct arena_pairset *s)
{
    free(s->text);
    free(s->num);
    memset(s, 0, sizeof *s);
}
