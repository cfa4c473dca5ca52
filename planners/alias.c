/* alias.c — the in-place pre-pass (alias.h). */
#include "planners/alias.h"

#include <stdlib.h>
#include <string.h>

/* Root of x's chain: follow the inputs taken back to the chain's head. */
static uint32_t head_of(uint32_t *root, uint32_t x)
{
    uint32_t r = x;
    while (root[r] != r)
        r = root[r];
    while (root[x] != r) { /* path compression */
        uint32_t next = root[x];
        root[x] = r;
        x = next;
    }
    return r;
}

int arena_alias_merge(const struct arena_problem *p, struct arena_alias_merge *m)
{
    memset(m, 0, sizeof *m);
    size_t n = p->n, cap = n ? n : 1;
    m->group = malloc(cap * sizeof *m->group);
    m->takes = malloc(cap * sizeof *m->takes);
    uint32_t *root = malloc(cap * sizeof *root);
    unsigned char *given = calloc(cap, 1);
    struct arena_tensor *t = malloc(cap * sizeof *t);
    if (!m->group || !m->takes || !root || !given || !t) {
        free(root);
        free(given);
        free(t);
        arena_alias_merge_free(m);
        return ARENA_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        m->takes[i] = ARENA_ALIAS_NONE;
        root[i] = (uint32_t)i;
    }
    for (size_t k = 0; k < p->n_alias; k++) {
        uint32_t o = p->alias[k].out, i = p->alias[k].in;
        if (m->takes[o] != ARENA_ALIAS_NONE || given[i])
            continue;
        m->takes[o] = i;
        given[i] = 1;
        root[head_of(root, o)] = head_of(root, i);
        m->accepted++;
    }
    /* intervals numbered in the order of their lowest tensor id */
    size_t g = 0;
    for (size_t i = 0; i < n; i++)
        m->group[i] = ARENA_ALIAS_NONE;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = head_of(root, (uint32_t)i);
        if (m->group[r] == ARENA_ALIAS_NONE) {
            m->group[r] = (uint32_t)g;
            t[g++] = p->tensors[i];
        }
        uint32_t k = m->group[r];
        const struct arena_tensor *x = &p->tensors[i];
        m->group[i] = k;
        if (x->size > t[k].size)
            t[k].size = x->size;
        if (x->first < t[k].first)
            t[k].first = x->first;
        if (x->last > t[k].last)
            t[k].last = x->last;
    }
    free(root);
    free(given);
    m->merged = (struct arena_problem){.n = g, .tensors = t, .alignment = p->alignment};
    return ARENA_OK;
}

void arena_alias_merge_free(struct arena_alias_merge *m)
{
    free((void *)m->merged.tensors);
    free(m->group);
    free(m->takes);
    memset(m, 0, sizeof *m);
}

void arena_alias_expand(const struct arena_alias_merge *m, const struct arena_plan *mp,
                        struct arena_plan *plan)
{
    for (size_t i = 0; i < plan->n; i++)
        plan->offsets[i] = mp->offsets[m->group[i]];
    plan->arena = mp->arena;
    plan->buffers = mp->buffers;
    plan->status = mp->status;
    plan->bound = mp->bound;
    plan->nodes = mp->nodes;
}
