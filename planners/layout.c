/* layout.c — the scratch cursor every planner sizes and carves with. */
#include "planners/layout.h"

#include <assert.h>

#include "planners/status.h"

void arena_layout_init(struct arena_layout *l, void *base)
{
    l->base = base;
    l->used = 0;
    l->overflow = 0;
}

void *arena_layout_take(struct arena_layout *l, size_t count, size_t size)
{
    if (l->overflow || count == 0 || size == 0)
        return NULL;
    if (count > SIZE_MAX / size) {
        l->overflow = 1;
        return NULL;
    }
    size_t bytes = count * size;
    size_t pad = (ARENA_LAYOUT_ALIGN - bytes % ARENA_LAYOUT_ALIGN) % ARENA_LAYOUT_ALIGN;
    if (bytes > SIZE_MAX - pad || l->used > SIZE_MAX - (bytes + pad)) {
        l->overflow = 1;
        return NULL;
    }
    void *at = l->base ? l->base + l->used : NULL;
    l->used += bytes + pad;
    return at;
}

int arena_layout_bytes(const struct arena_layout *l, size_t *bytes)
{
    if (l->overflow)
        return ARENA_EOVERFLOW;
    *bytes = l->used;
    return ARENA_OK;
}

int arena_layout_count(arena_layout_fn *describe, const struct arena_problem *p, void *work,
                       size_t *bytes)
{
    struct arena_layout l;
    arena_layout_init(&l, NULL);
    int rc = describe(&l, p, work);
    return rc != ARENA_OK ? rc : arena_layout_bytes(&l, bytes);
}

void arena_layout_carve(arena_layout_fn *describe, const struct arena_problem *p, void *work,
                        void *scratch, size_t scratch_size)
{
    struct arena_layout l;
    arena_layout_init(&l, scratch);
    int rc = describe(&l, p, work);
    assert(rc == ARENA_OK && !l.overflow && l.used <= scratch_size);
    (void)rc;
    (void)scratch_size;
}
