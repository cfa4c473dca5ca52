/* z3.c — Z3's C API (4.8.12) behind z3.h. Errors: Z3's default error
 * handler ends the process, so a handler that does nothing is set, and the
 * context's error code is read after the calls that can fail (an
 * exception inside Z3, out of memory included, becomes an error code at
 * the API boundary): the call answers LCG_Z3_FAILED and the engine ends
 * the part's rounds, never the run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "planners/optimal/lcg/z3.h"

struct lcg_z3 {
    Z3_context c;
    Z3_solver s;
    const struct lcg_z3_hooks *h;
    Z3_ast *pos, *neg; /* terms: each registered Boolean and its negation */
    Z3_ast no;         /* false: a conflict's consequence */
    uint32_t terms;
    int failed;        /* Z3 reported an error */
};

static void ignore_error(Z3_context c, Z3_error_code e)
{
    (void)c;
    (void)e;
}

static int failed(struct lcg_z3 *z)
{
    if (Z3_get_error_code(z->c) != Z3_OK)
        z->failed = 1;
    return z->failed;
}

static void push_cb(void *ctx)
{
    struct lcg_z3 *z = ctx;
    z->h->push(z->h->ctx);
}

static void pop_cb(void *ctx, unsigned scopes)
{
    struct lcg_z3 *z = ctx;
    z->h->pop(z->h->ctx, scopes);
}

/* Z3 asks for a copy of the propagator when it clones the solver (its
 * parallel mode and some tactics), none of which this solver runs. */
static void *fresh_cb(void *ctx, Z3_context c)
{
    (void)c;
    return ctx;
}

static void fixed_cb(void *ctx, Z3_solver_callback cb, unsigned id, Z3_ast value)
{
    struct lcg_z3 *z = ctx;
    z->h->fixed(z->h->ctx, cb, id, Z3_get_bool_value(z->c, value) == Z3_L_TRUE);
}

static void final_cb(void *ctx, Z3_solver_callback cb)
{
    struct lcg_z3 *z = ctx;
    z->h->final(z->h->ctx, cb);
}

static void set_uint(struct lcg_z3 *z, Z3_params p, const char *name, unsigned v)
{
    Z3_params_set_uint(z->c, p, Z3_mk_string_symbol(z->c, name), v);
}

/* Solver parameters: relevancy off, so that every registered Boolean is
 * decided (none appears in a clause, and with relevancy Z3 decides only
 * those some clause makes relevant); the conflict limit and timeout of
 * the next check. */
static int set_params(struct lcg_z3 *z, uint64_t conflicts, uint64_t timeout_ms)
{
    Z3_params p = Z3_mk_params(z->c);
    if (failed(z))
        return -1;
    Z3_params_inc_ref(z->c, p);
    set_uint(z, p, "relevancy", 0);
    set_uint(z, p, "max_conflicts", conflicts == 0 || conflicts > UINT32_MAX ? UINT32_MAX
                                                                                : (unsigned)conflicts);
    set_uint(z, p, "timeout", timeout_ms == 0 || timeout_ms > UINT32_MAX ? UINT32_MAX
                                                                          : (unsigned)timeout_ms);
    Z3_solver_set_params(z->c, z->s, p);
    Z3_params_dec_ref(z->c, p);
    return failed(z) ? -1 : 0;
}

struct lcg_z3 *arena_lcg_z3_open(const struct lcg_z3_hooks *h, uint32_t terms, uint64_t memory_mb)
{
    struct lcg_z3 *z = calloc(1, sizeof *z);
    if (z == NULL)
        return NULL;
    z->h = h;
    z->terms = terms;
    z->pos = malloc(2 * (size_t)(terms ? terms : 1) * sizeof *z->pos);
    char mb[24];
    snprintf(mb, sizeof mb, "%llu", (unsigned long long)memory_mb);
    Z3_global_param_set("memory_max_size", mb);
    Z3_config cfg = Z3_mk_config();
    if (z->pos == NULL || cfg == NULL) {
        if (cfg != NULL)
            Z3_del_config(cfg);
        free(z->pos);
        free(z);
        return NULL;
    }
    z->neg = z->pos + terms;
    z->c = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    if (z->c == NULL) {
        free(z->pos);
        free(z);
        return NULL;
    }
    Z3_set_error_handler(z->c, ignore_error);
    z->s = Z3_mk_simple_solver(z->c);
    if (failed(z)) {
        arena_lcg_z3_close(z);
        return NULL;
    }
    Z3_solver_inc_ref(z->c, z->s);
    z->no = Z3_mk_false(z->c);
    Z3_solver_propagate_init(z->c, z->s, z, push_cb, pop_cb, fresh_cb);
    Z3_solver_propagate_fixed(z->c, z->s, fixed_cb);
    Z3_solver_propagate_final(z->c, z->s, final_cb);
    Z3_sort b = Z3_mk_bool_sort(z->c);
    for (uint32_t t = 0; t < terms && !failed(z); t++) {
        z->pos[t] = Z3_mk_const(z->c, Z3_mk_int_symbol(z->c, (int)t), b);
        z->neg[t] = Z3_mk_not(z->c, z->pos[t]);
        /* ids are handed out in order from 0 (the propagator's table) */
        if (Z3_solver_propagate_register(z->c, z->s, z->pos[t]) != t)
            z->failed = 1;
    }
    if (failed(z) || set_params(z, 0, 0) != 0) {
        arena_lcg_z3_close(z);
        return NULL;
    }
    return z;
}

int arena_lcg_z3_propagate(struct lcg_z3 *z, void *cb, const unsigned *ids, uint32_t n, uint32_t id,
                     int value)
{
    Z3_ast conseq = id == LCG_Z3_CONFLICT ? z->no : value ? z->pos[id] : z->neg[id];
    Z3_solver_propagate_consequence(z->c, cb, n, ids, 0, NULL, NULL, conseq);
    return failed(z) ? -1 : 0;
}

enum lcg_z3_answer arena_lcg_z3_check(struct lcg_z3 *z, uint64_t conflicts, uint64_t timeout_ms)
{
    if (z->failed || set_params(z, conflicts, timeout_ms) != 0)
        return LCG_Z3_FAILED;
    Z3_lbool res = Z3_solver_check(z->c, z->s);
    if (failed(z))
        return LCG_Z3_FAILED;
    return res == Z3_L_TRUE ? LCG_Z3_SAT : res == Z3_L_FALSE ? LCG_Z3_UNSAT : LCG_Z3_UNKNOWN;
}

uint64_t arena_lcg_z3_conflicts(struct lcg_z3 *z)
{
    uint64_t n = 0;
    Z3_stats st = Z3_solver_get_statistics(z->c, z->s);
    if (failed(z))
        return 0;
    Z3_stats_inc_ref(z->c, st);
    for (unsigned i = 0; i < Z3_stats_size(z->c, st); i++)
        if (strcmp(Z3_stats_get_key(z->c, st, i), "conflicts") == 0 &&
            Z3_stats_is_uint(z->c, st, i))
            n = Z3_stats_get_uint_value(z->c, st, i);
    Z3_stats_dec_ref(z->c, st);
    return n;
}

void arena_lcg_z3_interrupt(struct lcg_z3 *z)
{
    Z3_interrupt(z->c);
}

void arena_lcg_z3_close(struct lcg_z3 *z)
{
    if (z == NULL)
        return;
    if (z->s != NULL)
        Z3_solver_dec_ref(z->c, z->s);
    Z3_del_context(z->c);
    free(z->pos);
    free(z);
}
