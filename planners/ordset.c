/* ordset.c — a treap over caller-owned nodes (see ordset.h). */
#include "planners/ordset.h"

#define NIL ARENA_ORDSET_NIL
#define LEFT(s, x) ((s)->node[x].child[0])
#define RIGHT(s, x) ((s)->node[x].child[1])
#define KEY(s, x) ((s)->node[x].key)

uint32_t arena_treap_prio(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x *= 0xc2b2ae35u;
    x ^= x >> 16;
    return x;
}

static int less(const struct arena_ordset *s, uint32_t a, uint32_t b)
{
    return KEY(s, a) < KEY(s, b) || (KEY(s, a) == KEY(s, b) && a < b);
}

/* Splits tree t into the nodes ordered before x (*l) and after x (*r). */
static void split(const struct arena_ordset *s, uint32_t t, uint32_t x, uint32_t *l, uint32_t *r)
{
    while (t != NIL) {
        if (less(s, t, x)) {
            *l = t;
            l = &RIGHT(s, t);
            t = *l;
        } else {
            *r = t;
            r = &LEFT(s, t);
            t = *r;
        }
    }
    *l = NIL;
    *r = NIL;
}

/* Joins trees l and r, every node of l ordered before every node of r. */
static uint32_t merge(const struct arena_ordset *s, uint32_t l, uint32_t r)
{
    uint32_t root = NIL;
    uint32_t *slot = &root;
    while (l != NIL && r != NIL) {
        if (arena_treap_prio(l) > arena_treap_prio(r)) {
            *slot = l;
            slot = &RIGHT(s, l);
            l = *slot;
        } else {
            *slot = r;
            slot = &LEFT(s, r);
            r = *slot;
        }
    }
    *slot = l != NIL ? l : r;
    return root;
}

static uint32_t leftmost(const struct arena_ordset *s, uint32_t t)
{
    if (t != NIL)
        while (LEFT(s, t) != NIL)
            t = LEFT(s, t);
    return t;
}

static uint32_t rightmost(const struct arena_ordset *s, uint32_t t)
{
    if (t != NIL)
        while (RIGHT(s, t) != NIL)
            t = RIGHT(s, t);
    return t;
}

void arena_ordset_insert(const struct arena_ordset *s, uint32_t *root, uint32_t x,
                         uint32_t *pred, uint32_t *succ)
{
    uint32_t p = NIL, q = NIL, px = arena_treap_prio(x);
    uint32_t *slot = root;
    while (*slot != NIL && arena_treap_prio(*slot) > px) {
        uint32_t t = *slot;
        if (less(s, t, x)) {
            p = t;
            slot = &RIGHT(s, t);
        } else {
            q = t;
            slot = &LEFT(s, t);
        }
    }
    split(s, *slot, x, &LEFT(s, x), &RIGHT(s, x));
    *slot = x;
    if (pred)
        *pred = LEFT(s, x) != NIL ? rightmost(s, LEFT(s, x)) : p;
    if (succ)
        *succ = RIGHT(s, x) != NIL ? leftmost(s, RIGHT(s, x)) : q;
}

void arena_ordset_remove(const struct arena_ordset *s, uint32_t *root, uint32_t x)
{
    uint32_t *slot = root;
    while (*slot != x && *slot != NIL)
        slot = less(s, x, *slot) ? &LEFT(s, *slot) : &RIGHT(s, *slot);
    if (*slot == x)
        *slot = merge(s, LEFT(s, x), RIGHT(s, x));
}
