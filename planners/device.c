/* device.c — TFLM's placement of online buffers around offline ones
 * (device.h). The placed buffers are kept in a list ordered by offset; an
 * online buffer walks it, skipping those not alive with it, and takes the
 * first gap between the end of the highest one passed and the next one's
 * start that holds it, else the end of the last. */
#include "planners/device.h"

#include <stdlib.h>
#include <string.h>

#include "planners/status.h"

static int overlaps(const struct arena_tensor *a, const struct arena_tensor *b)
{
    return a->first <= b->last && b->first <= a->last;
}

/* ids of the online tensors, largest first, equal sizes by id (TFLM's
 * bubble sort swaps only strictly smaller neighbours, so it is stable). */
static int cmp_size_desc(const void *x, const void *y, const struct arena_tensor *t)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    if (t[a].size != t[b].size)
        return t[a].size > t[b].size ? -1 : 1;
    return (a > b) - (a < b);
}

static void sort_online(uint32_t *ids, size_t n, const struct arena_tensor *t)
{
    for (size_t i = 1; i < n; i++) { /* insertion sort: stable, few buffers */
        uint32_t v = ids[i];
        size_t j = i;
        while (j > 0 && cmp_size_desc(&ids[j - 1], &v, t) > 0) {
            ids[j] = ids[j - 1];
            j--;
        }
        ids[j] = v;
    }
}

int arena_device_place(const struct arena_problem *p, const uint64_t *offsets,
                       const unsigned char *online, uint64_t *out, uint64_t *arena)
{
    size_t n = p->n;
    const struct arena_tensor *t = p->tensors;
    *arena = 0;
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);  /* placed, by offset */
    uint32_t *todo = malloc((n ? n : 1) * sizeof *todo);    /* online, to place */
    uint64_t *at = malloc((n ? n : 1) * sizeof *at);
    if (!order || !todo || !at) {
        free(order);
        free(todo);
        free(at);
        return ARENA_ENOMEM;
    }
    size_t placed = 0, m = 0;
    for (size_t i = 0; i < n; i++) {
        if (online[i]) {
            todo[m++] = (uint32_t)i;
            continue;
        }
        at[i] = offsets[i];
        size_t k = placed++; /* insert after every entry at or below its offset */
        while (k > 0 && at[order[k - 1]] > at[i]) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = (uint32_t)i;
    }
    sort_online(todo, m, t);
    for (size_t j = 0; j < m; j++) {
        uint32_t id = todo[j];
        uint64_t cand = 0;
        for (size_t k = 0; k < placed; k++) {
            const uint32_t e = order[k];
            if (!overlaps(&t[e], &t[id]))
                continue;
            if (at[e] >= cand && at[e] - cand >= t[id].size)
                break; /* the gap before e holds it */
            if (at[e] + t[e].size > cand)
                cand = at[e] + t[e].size;
        }
        at[id] = cand;
        size_t k = placed++;
        while (k > 0 && at[order[k - 1]] > cand) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = id;
    }
    for (size_t i = 0; i < n; i++) {
        if (at[i] + t[i].size > *arena)
            *arena = at[i] + t[i].size;
    }
    if (out)
        memcpy(out, at, n * sizeof *out);
    free(order);
    free(todo);
    free(at);
    return ARENA_OK;
}
