/* guest.c — a planner's own copy of its inputs, and the check after its
 * calls (guest.h). */
#include "bench/external/guest.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The guard zones' pattern: no planner writes it by chance. */
#define GUARD_BYTE 0xa5u

static void guard_fill(unsigned char *zone)
{
    memset(zone, GUARD_BYTE, ARENA_GUEST_GUARD);
}

/* The first byte of zone[0, len) that is not the pattern, or len. */
static size_t broken(const unsigned char *zone, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (zone[i] != GUARD_BYTE) return i;
    return len;
}

/* bytes rounded up to the guard's size, so the zone after starts aligned. */
static size_t round_up(size_t bytes)
{
    return (bytes + ARENA_GUEST_GUARD - 1) / ARENA_GUEST_GUARD * ARENA_GUEST_GUARD;
}

int arena_guest_init(struct arena_guest *g, const struct arena_problem *p,
                     const struct arena_plan_options *opt, size_t n_values)
{
    memset(g, 0, sizeof *g);
    size_t n = p->n, na = p->n_alias;
    size_t spans = p->span ? n * sizeof *g->span : 0;
    size_t nv = opt->values ? n_values : 0;
    size_t bytes = nv * sizeof *g->values + n * sizeof *g->tensors + spans + na * sizeof *g->alias;
    size_t offs = round_up((n ? n : 1) * sizeof *g->offsets);
    g->mem = malloc(bytes ? bytes : 1);
    g->offsets_mem = malloc(offs + 2 * ARENA_GUEST_GUARD);
    if (!g->mem || !g->offsets_mem) {
        arena_guest_free(g);
        return ARENA_ENOMEM;
    }
    /* the values, then the tensors: every array holds 8-byte-aligned records */
    g->values = nv ? g->mem : NULL;
    g->n_values = nv;
    if (nv) memcpy(g->values, opt->values, nv * sizeof *g->values);
    g->tensors = (struct arena_tensor *)((char *)g->mem + nv * sizeof *g->values);
    g->span = p->span ? (uint64_t *)(g->tensors + n) : NULL;
    g->alias = na ? (struct arena_alias *)((char *)(g->tensors + n) + spans) : NULL;
    if (n) memcpy(g->tensors, p->tensors, n * sizeof *g->tensors);
    if (g->span) memcpy(g->span, p->span, n * sizeof *g->span);
    if (na) memcpy(g->alias, p->alias, na * sizeof *g->alias);
    g->p = *p;
    g->p.tensors = g->tensors;
    g->p.alias = g->alias;
    g->p.span = g->span;
    g->opt = *opt;
    g->opt.values = g->values;
    unsigned char *o = g->offsets_mem;
    guard_fill(o);
    guard_fill(o + ARENA_GUEST_GUARD + offs);
    g->offsets = (uint64_t *)(o + ARENA_GUEST_GUARD);
    /* the bytes between the n entries and the zone after are the zone's too */
    memset(o + ARENA_GUEST_GUARD + n * sizeof *g->offsets, GUARD_BYTE,
           offs - n * sizeof *g->offsets);
    return ARENA_OK;
}

int arena_guest_configure(struct arena_guest *g, const struct arena_planner *pl)
{
    if (!pl->configure || g->config) return ARENA_OK;
    void *config = NULL;
    int rc = pl->configure(g->values, &config);
    if (rc != ARENA_OK) {
        if (config && pl->release) pl->release(config);
        return rc;
    }
    g->config = config;
    g->opt.config = config;
    return ARENA_OK;
}

void arena_guest_release(struct arena_guest *g, const struct arena_planner *pl)
{
    if (g->config && pl->release) pl->release(g->config);
    g->config = NULL;
    g->opt.config = NULL;
}

void arena_guest_free(struct arena_guest *g)
{
    free(g->mem);
    free(g->offsets_mem);
    free(g->scratch_mem);
    memset(g, 0, sizeof *g);
}

size_t arena_guest_scratch_block(size_t bytes)
{
    if (bytes > SIZE_MAX - 3 * ARENA_GUEST_GUARD) return 0;
    return round_up(bytes) + 2 * ARENA_GUEST_GUARD;
}

void arena_guest_scratch_at(struct arena_guest *g, void *mem, size_t bytes)
{
    unsigned char *s = mem;
    guard_fill(s);
    g->scratch = s + ARENA_GUEST_GUARD;
    g->scratch_size = bytes;
    /* the zone after the scratch runs from its last byte to the block's end */
    memset(s + ARENA_GUEST_GUARD + bytes, GUARD_BYTE, round_up(bytes) - bytes + ARENA_GUEST_GUARD);
}

int arena_guest_scratch(struct arena_guest *g, size_t bytes)
{
    size_t block = arena_guest_scratch_block(bytes);
    void *mem = block ? malloc(block) : NULL;
    if (!mem) return ARENA_ENOMEM;
    free(g->scratch_mem);
    g->scratch_mem = mem;
    arena_guest_scratch_at(g, mem, bytes);
    return ARENA_OK;
}

static int fault(struct arena_guest_fault *f, uint32_t what, uint32_t field, uint64_t index,
                 uint64_t was, uint64_t now)
{
    *f = (struct arena_guest_fault){.what = what, .field = field, .index = index, .was = was,
                                    .now = now};
    return 1;
}

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double from_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* The fields of the problem, the options and the plan, by number (the
 * fault's field) and name. */
static const char *const problem_field[] = {"n", "tensors (the pointer)", "alignment", "n_alias",
                                            "alias (the pointer)", "span (the pointer)"};
static const char *const tensor_field[] = {"size", "first", "last"};
static const char *const alias_field[] = {"out", "in"};
static const char *const option_field[] = {"time_limit", "node_limit", "seed", "capacity",
                                           "stop (the pointer)", "values (the pointer)",
                                           "config (the pointer)"};
static const char *const value_field[] = {"u", "r", "choice"};

static int check_problem(const struct arena_guest *g, const struct arena_problem *p,
                         struct arena_guest_fault *f)
{
    const struct arena_problem *c = &g->p;
    uint64_t was[] = {p->n, (uintptr_t)g->tensors, p->alignment, p->n_alias,
                      (uintptr_t)g->alias, (uintptr_t)g->span};
    uint64_t now[] = {c->n, (uintptr_t)c->tensors, c->alignment, c->n_alias,
                      (uintptr_t)c->alias, (uintptr_t)c->span};
    for (uint32_t k = 0; k < sizeof was / sizeof was[0]; k++)
        if (was[k] != now[k]) return fault(f, ARENA_GUEST_PROBLEM, k, 0, was[k], now[k]);
    if (p->n && memcmp(g->tensors, p->tensors, p->n * sizeof *p->tensors) != 0)
        for (size_t i = 0; i < p->n; i++) {
            const struct arena_tensor *a = &p->tensors[i], *b = &g->tensors[i];
            if (a->size != b->size) return fault(f, ARENA_GUEST_TENSOR, 0, i, a->size, b->size);
            if (a->first != b->first) return fault(f, ARENA_GUEST_TENSOR, 1, i, a->first, b->first);
            if (a->last != b->last) return fault(f, ARENA_GUEST_TENSOR, 2, i, a->last, b->last);
        }
    for (size_t i = 0; i < p->n_alias; i++) {
        const struct arena_alias *a = &p->alias[i], *b = &g->alias[i];
        if (a->out != b->out) return fault(f, ARENA_GUEST_ALIAS, 0, i, a->out, b->out);
        if (a->in != b->in) return fault(f, ARENA_GUEST_ALIAS, 1, i, a->in, b->in);
    }
    for (size_t i = 0; g->span && i < p->n; i++)
        if (g->span[i] != p->span[i])
            return fault(f, ARENA_GUEST_SPAN, 0, i, p->span[i], g->span[i]);
    return 0;
}

static int check_options(const struct arena_guest *g, const struct arena_plan_options *opt,
                         struct arena_guest_fault *f)
{
    const struct arena_plan_options *c = &g->opt;
    uint64_t was[] = {bits(opt->time_limit), opt->node_limit, opt->seed, opt->capacity,
                      (uintptr_t)opt->stop, (uintptr_t)g->values, (uintptr_t)g->config};
    uint64_t now[] = {bits(c->time_limit), c->node_limit, c->seed, c->capacity,
                      (uintptr_t)c->stop, (uintptr_t)c->values, (uintptr_t)c->config};
    for (uint32_t k = 0; k < sizeof was / sizeof was[0]; k++)
        if (was[k] != now[k]) return fault(f, ARENA_GUEST_OPTIONS, k, 0, was[k], now[k]);
    for (size_t i = 0; i < g->n_values; i++) {
        const struct arena_key_value *a = &opt->values[i], *b = &g->values[i];
        if (a->u != b->u) return fault(f, ARENA_GUEST_VALUE, 0, i, a->u, b->u);
        if (bits(a->r) != bits(b->r)) return fault(f, ARENA_GUEST_VALUE, 1, i, bits(a->r), bits(b->r));
        if (a->choice != b->choice)
            return fault(f, ARENA_GUEST_VALUE, 2, i, a->choice, b->choice);
    }
    if (c->stop && *c->stop != 0) return fault(f, ARENA_GUEST_STOP, 0, 0, 0, (uint64_t)*c->stop);
    return 0;
}

/* The guard zones around the len bytes at mem (the zone after them runs
 * to the next multiple of the guard's size, and a whole guard on): 1 with
 * the first byte written in f (what: before, or after; was: size), or 0. */
static int check_zones(const void *mem, size_t len, uint32_t before, uint32_t after,
                       uint64_t size, struct arena_guest_fault *f)
{
    const unsigned char *m = mem;
    size_t at = broken(m - ARENA_GUEST_GUARD, ARENA_GUEST_GUARD);
    if (at < ARENA_GUEST_GUARD) return fault(f, before, 0, ARENA_GUEST_GUARD - at, size, 0);
    size_t tail = round_up(len) - len + ARENA_GUEST_GUARD;
    at = broken(m + len, tail);
    return at < tail ? fault(f, after, 0, at, size, 0) : 0;
}

int arena_guest_check(const struct arena_guest *g, const struct arena_problem *p,
                      const struct arena_plan_options *opt, const struct arena_plan *plan,
                      struct arena_guest_fault *f)
{
    memset(f, 0, sizeof *f);
    if (check_problem(g, p, f) || check_options(g, opt, f)) return 1;
    if (plan->n != p->n) return fault(f, ARENA_GUEST_PLAN, 0, 0, p->n, plan->n);
    if (plan->offsets != g->offsets)
        return fault(f, ARENA_GUEST_PLAN, 1, 0, (uintptr_t)g->offsets, (uintptr_t)plan->offsets);
    return check_zones(g->offsets, p->n * sizeof *g->offsets, ARENA_GUEST_OFFSETS_BEFORE,
                       ARENA_GUEST_OFFSETS_AFTER, p->n, f) ||
           (g->scratch && check_zones(g->scratch, g->scratch_size, ARENA_GUEST_SCRATCH_BEFORE,
                                      ARENA_GUEST_SCRATCH_AFTER, g->scratch_size, f));
}

void arena_guest_describe(const struct arena_guest_fault *f, char *buf, size_t len)
{
    const char *ro = "(a planner's problem and options are read-only: its plan, made from"
                     " other inputs, is not checked)";
    switch (f->what) {
    case ARENA_GUEST_PROBLEM:
        snprintf(buf, len, "planner wrote to its problem: %s was %" PRIu64 ", is %" PRIu64 " %s",
                 problem_field[f->field], f->was, f->now, ro);
        break;
    case ARENA_GUEST_TENSOR:
        snprintf(buf, len, "planner wrote to its problem: tensor %" PRIu64 "'s %s was %" PRIu64
                           ", is %" PRIu64 " %s",
                 f->index, tensor_field[f->field], f->was, f->now, ro);
        break;
    case ARENA_GUEST_ALIAS:
        snprintf(buf, len, "planner wrote to its problem: alias pair %" PRIu64 "'s %s was %" PRIu64
                           ", is %" PRIu64 " %s",
                 f->index, alias_field[f->field], f->was, f->now, ro);
        break;
    case ARENA_GUEST_SPAN:
        snprintf(buf, len, "planner wrote to its problem: span[%" PRIu64 "] was %" PRIu64
                           ", is %" PRIu64 " %s",
                 f->index, f->was, f->now, ro);
        break;
    case ARENA_GUEST_OPTIONS:
        if (f->field == 0)
            snprintf(buf, len, "planner wrote to its options: time_limit was %g, is %g %s",
                     from_bits(f->was), from_bits(f->now), ro);
        else
            snprintf(buf, len,
                     "planner wrote to its options: %s was %" PRIu64 ", is %" PRIu64 " %s",
                     option_field[f->field], f->was, f->now, ro);
        break;
    case ARENA_GUEST_VALUE:
        if (f->field == 1)
            snprintf(buf, len, "planner wrote to its options: key value %" PRIu64 "'s r was %g,"
                               " is %g %s",
                     f->index, from_bits(f->was), from_bits(f->now), ro);
        else
            snprintf(buf, len, "planner wrote to its options: key value %" PRIu64 "'s %s was %"
                               PRIu64 ", is %" PRIu64 " %s",
                     f->index, value_field[f->field], f->was, f->now, ro);
        break;
    case ARENA_GUEST_STOP:
        snprintf(buf, len, "planner wrote %" PRIu64 " to its options' stop flag, which only a"
                           " signal sets %s",
                 f->now, ro);
        break;
    case ARENA_GUEST_PLAN:
        if (f->field == 0)
            snprintf(buf, len, "planner changed plan->n from %" PRIu64 " to %" PRIu64
                               " (the caller sets it)",
                     f->was, f->now);
        else
            snprintf(buf, len, "planner changed plan->offsets, the pointer (the caller owns the"
                               " array; a plan fills it)");
        break;
    case ARENA_GUEST_SCRATCH_BEFORE:
    case ARENA_GUEST_OFFSETS_BEFORE:
        snprintf(buf, len, "planner wrote before its %s: byte %" PRIu64 " before its start, in"
                           " the guard zone there",
                 f->what == ARENA_GUEST_SCRATCH_BEFORE ? "scratch" : "plan->offsets", f->index);
        break;
    case ARENA_GUEST_SCRATCH_AFTER:
        snprintf(buf, len, "planner wrote past its scratch: byte %" PRIu64 " after the %" PRIu64
                           " bytes its scratch_bytes asked for, in the guard zone there",
                 f->index + 1, f->was);
        break;
    case ARENA_GUEST_OFFSETS_AFTER:
        snprintf(buf, len, "planner wrote past plan->offsets: byte %" PRIu64 " after its %" PRIu64
                           " entries, in the guard zone there",
                 f->index + 1, f->was);
        break;
    default: snprintf(buf, len, "planner wrote nothing of its inputs"); break;
    }
}
