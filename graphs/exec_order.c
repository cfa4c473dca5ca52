/* exec_order.c — the best execution order with a proof (exec_order.h). */
#include "graphs/exec_order.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "graphs/graph_internal.h"
#include "graphs/inplace.h"

#define NONE ARENA_GRAPH_NONE
/* Graphs up to this many (ops x tensors) get the ancestor-aware certificate;
 * larger ones the plain one (inputs + outputs of each op). */
#define CERT_WORK_MAX 50000000ull

const char *arena_order_mode_name(enum arena_order_mode m)
{
    switch (m) {
    case ARENA_ORDER_STORED: return "stored";
    case ARENA_ORDER_BEST: return "best";
    }
    return NULL;
}

int arena_order_mode_parse(const char *s, enum arena_order_mode *out)
{
    if (strcmp(s, "stored") == 0)
        *out = ARENA_ORDER_STORED;
    else if (strcmp(s, "best") == 0)
        *out = ARENA_ORDER_BEST;
    else
        return ARENA_ENOTFOUND;
    return ARENA_OK;
}

const char *arena_order_status_name(enum arena_order_status s)
{
    switch (s) {
    case ARENA_ORDER_KEPT: return "stored";
    case ARENA_ORDER_CERTIFIED: return "certified";
    case ARENA_ORDER_OPTIMAL: return "optimal";
    case ARENA_ORDER_LIMIT: return "limit";
    }
    return "?";
}

void arena_order_result_free(struct arena_order_result *r)
{
    free(r->order);
    memset(r, 0, sizeof *r);
}

/* ---- the graph as the search sees it ---------------------------------- */

struct prep {
    size_t n, nt, words;
    uint64_t *size;   /* aligned bytes per tensor */
    uint32_t *writer; /* op writing tensor t, NONE for graph inputs */
    unsigned char *is_out;
    uint32_t *rd_first, *rd;     /* readers of t (distinct ops) */
    uint32_t *in_first, *in;     /* distinct inputs of op o */
    uint32_t *out_first, *out;   /* distinct outputs of op o */
    uint32_t *pr_first, *pr;     /* distinct ops writing o's inputs */
    uint32_t *su_first, *su;     /* distinct ops reading o's outputs */
    uint64_t *out_bytes;  /* all outputs of o */
    uint64_t *keep_bytes; /* outputs of o still needed after its step */
    uint64_t resident0;   /* graph inputs */
    uint64_t *cert;       /* per op: live at its step in every order */
    uint32_t *by_cert;    /* ops, largest certificate first */
    uint32_t *pos;        /* stored step of each op */
    uint32_t *dying;      /* scratch: inputs dying at one step */
    const struct arena_order_hook *hook;
};

static void prep_free(struct prep *p)
{
    free(p->size);
    free(p->writer);
    free(p->is_out);
    free(p->rd_first);
    free(p->rd);
    free(p->in_first);
    free(p->in);
    free(p->out_first);
    free(p->out);
    free(p->pr_first);
    free(p->pr);
    free(p->su_first);
    free(p->su);
    free(p->out_bytes);
    free(p->keep_bytes);
    free(p->cert);
    free(p->by_cert);
    free(p->pos);
    free(p->dying);
    memset(p, 0, sizeof *p);
}

static inline int bit(const uint64_t *s, uint32_t i)
{
    return (int)((s[i >> 6] >> (i & 63)) & 1u);
}

static inline void set_bit(uint64_t *s, uint32_t i)
{
    s[i >> 6] |= (uint64_t)1 << (i & 63);
}

static void *xcalloc(size_t n, size_t elem)
{
    return calloc(n ? n : 1, elem);
}

/* Distinct ids of list[0, m) kept in order, stamped in mark with stamp. */
static size_t distinct(const uint32_t *list, size_t m, uint32_t *mark, uint32_t stamp,
                       uint32_t *dst)
{
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (mark[list[i]] != stamp) {
            mark[list[i]] = stamp;
            dst[k++] = list[i];
        }
    return k;
}

/* Builds the CSR lists. g must pass arena_graph_check. */
/* The transpose of a compressed list: row r holds col[row_first[r] ..
 * row_first[r + 1]) (values below cols); col_first (cols + 1 entries) and
 * list get, for each value, the rows holding it, in row order. fill: cols
 * entries of working space. */
static void transpose(const uint32_t *row_first, const uint32_t *col, size_t rows, size_t cols,
                      uint32_t *col_first, uint32_t *list, uint32_t *fill)
{
    memset(col_first, 0, (cols + 1) * sizeof *col_first);
    for (size_t k = 0; k < row_first[rows]; k++)
        col_first[col[k] + 1]++;
    for (size_t c = 0; c < cols; c++)
        col_first[c + 1] += col_first[c];
    memset(fill, 0, cols * sizeof *fill);
    for (size_t r = 0; r < rows; r++)
        for (uint32_t k = row_first[r]; k < row_first[r + 1]; k++)
            list[col_first[col[k]] + fill[col[k]]++] = (uint32_t)r;
}

static int prep_make(struct prep *p, const struct arena_graph *g,
                     const struct arena_order_options *opt)
{
    memset(p, 0, sizeof *p);
    size_t n = g->n_ops, nt = g->n_tensors;
    p->n = n;
    p->nt = nt;
    p->words = (n + 63) / 64;
    p->hook = opt->hook;
    p->size = xcalloc(nt, sizeof *p->size);
    p->writer = xcalloc(nt, sizeof *p->writer);
    p->is_out = xcalloc(nt, 1);
    p->rd_first = xcalloc(nt + 1, sizeof(uint32_t));
    p->rd = xcalloc(g->n_refs, sizeof(uint32_t));
    p->in_first = xcalloc(n + 1, sizeof(uint32_t));
    p->in = xcalloc(g->n_refs, sizeof(uint32_t));
    p->out_first = xcalloc(n + 1, sizeof(uint32_t));
    p->out = xcalloc(g->n_refs, sizeof(uint32_t));
    p->pr_first = xcalloc(n + 1, sizeof(uint32_t));
    p->pr = xcalloc(g->n_refs, sizeof(uint32_t));
    p->su_first = xcalloc(n + 1, sizeof(uint32_t));
    p->su = xcalloc(g->n_refs, sizeof(uint32_t));
    p->out_bytes = xcalloc(n, sizeof(uint64_t));
    p->keep_bytes = xcalloc(n, sizeof(uint64_t));
    p->cert = xcalloc(n, sizeof(uint64_t));
    p->by_cert = xcalloc(n, sizeof(uint32_t));
    p->pos = xcalloc(n, sizeof(uint32_t));
    p->dying = xcalloc(g->n_refs, sizeof(uint32_t));
    uint32_t *mark = xcalloc(nt > n ? nt : n, sizeof(uint32_t));
    uint32_t *fill = xcalloc(nt > n ? nt : n, sizeof(uint32_t));
    if (!p->size || !p->writer || !p->is_out || !p->rd_first || !p->rd || !p->in_first ||
        !p->in || !p->out_first || !p->out || !p->pr_first || !p->pr || !p->su_first ||
        !p->su || !p->out_bytes || !p->keep_bytes || !p->cert || !p->by_cert || !p->pos ||
        !p->dying || !mark || !fill) {
        free(mark);
        free(fill);
        prep_free(p);
        return ARENA_ENOMEM;
    }
    for (size_t t = 0; t < nt; t++) {
        /* arena_graph_problem has checked that every aligned size fits */
        if (arena_size_align(g->tensors[t].bytes, opt->alignment, &p->size[t]))
            p->size[t] = g->tensors[t].bytes;
        p->writer[t] = NONE;
        p->is_out[t] = g->tensors[t].is_output;
        if (g->tensors[t].is_input)
            p->resident0 += p->size[t];
    }
    for (size_t k = 0; k < n; k++)
        p->pos[arena_graph_op_at(g, k)] = (uint32_t)k;
    /* distinct inputs and outputs, stamps o + 1 */
    size_t ni = 0, no = 0;
    for (size_t o = 0; o < n; o++) {
        const struct arena_gop *op = &g->ops[o];
        p->in_first[o] = (uint32_t)ni;
        ni += distinct(g->refs + op->in_first, op->n_in, mark, (uint32_t)o + 1, p->in + ni);
        p->out_first[o] = (uint32_t)no;
        no += distinct(g->refs + op->out_first, op->n_out, mark, (uint32_t)o + 1, p->out + no);
        for (uint32_t k = p->out_first[o]; k < no; k++) {
            p->writer[p->out[k]] = (uint32_t)o;
            p->out_bytes[o] += p->size[p->out[k]];
        }
    }
    p->in_first[n] = (uint32_t)ni;
    p->out_first[n] = (uint32_t)no;
    /* readers of each tensor */
    transpose(p->in_first, p->in, n, nt, p->rd_first, p->rd, fill);
    for (size_t o = 0; o < n; o++)
        for (uint32_t k = p->out_first[o]; k < p->out_first[o + 1]; k++) {
            uint32_t t = p->out[k];
            if (p->is_out[t] || p->rd_first[t + 1] > p->rd_first[t])
                p->keep_bytes[o] += p->size[t];
        }
    /* predecessors (distinct writers of inputs), stamps n + o + 1 on ops */
    memset(mark, 0, (nt > n ? nt : n) * sizeof *mark);
    size_t np = 0;
    for (size_t o = 0; o < n; o++) {
        p->pr_first[o] = (uint32_t)np;
        for (uint32_t k = p->in_first[o]; k < p->in_first[o + 1]; k++) {
            uint32_t w = p->writer[p->in[k]];
            if (w != NONE && mark[w] != o + 1) {
                mark[w] = (uint32_t)o + 1;
                p->pr[np++] = w;
            }
        }
    }
    p->pr_first[n] = (uint32_t)np;
    transpose(p->pr_first, p->pr, n, n, p->su_first, p->su, fill);
    free(mark);
    free(fill);
    return ARENA_OK;
}

/* The bytes live at the step of o after the ops in S (o ready, not in S);
 * *next: resident bytes after it. */
static uint64_t step_cost(const struct prep *p, const uint64_t *S, uint64_t resident, uint32_t o,
                          uint64_t *next, uint64_t *freed_out)
{
    uint64_t freed = 0;
    size_t nd = 0;
    for (uint32_t k = p->in_first[o]; k < p->in_first[o + 1]; k++) {
        uint32_t x = p->in[k];
        if (p->is_out[x])
            continue;
        int dies = 1;
        for (uint32_t j = p->rd_first[x]; j < p->rd_first[x + 1] && dies; j++)
            if (p->rd[j] != o && !bit(S, p->rd[j]))
                dies = 0;
        if (dies) {
            freed += p->size[x];
            p->dying[nd++] = x;
        }
    }
    uint64_t save = 0;
    if (p->hook && p->hook->saving && nd) {
        save = p->hook->saving(p->hook->ctx, o, p->dying, nd);
        if (save > p->out_bytes[o])
            save = p->out_bytes[o];
    }
    *next = resident + p->keep_bytes[o] - freed;
    if (freed_out)
        *freed_out = freed;
    return resident + p->out_bytes[o] - save;
}

static int ready(const struct prep *p, const uint64_t *S, uint32_t o)
{
    for (uint32_t k = p->pr_first[o]; k < p->pr_first[o + 1]; k++)
        if (!bit(S, p->pr[k]))
            return 0;
    return 1;
}

/* The certificate of every op (see exec_order.h), and by_cert. */
static int prep_certify(struct prep *p)
{
    size_t n = p->n, nt = p->nt, W = p->words;
    int strong = (uint64_t)n * (uint64_t)(nt ? nt : 1) <= CERT_WORK_MAX &&
                 n <= SIZE_MAX / sizeof(uint64_t) / (W ? W : 1);
    uint64_t *desc = strong ? calloc(n * W, sizeof *desc) : NULL;
    uint32_t *inv = xcalloc(n, sizeof *inv);
    if ((strong && !desc) || !inv) {
        free(desc);
        free(inv);
        return ARENA_ENOMEM;
    }
    for (size_t o = 0; o < n; o++)
        inv[p->pos[o]] = (uint32_t)o;
    if (strong) /* descendants, in reverse stored (topological) order */
        for (size_t k = n; k-- > 0;) {
            uint32_t o = inv[k];
            uint64_t *d = desc + (size_t)o * W;
            for (uint32_t j = p->su_first[o]; j < p->su_first[o + 1]; j++) {
                uint32_t s = p->su[j];
                const uint64_t *ds = desc + (size_t)s * W;
                for (size_t w = 0; w < W; w++)
                    d[w] |= ds[w];
                set_bit(d, s);
            }
        }
    for (size_t o = 0; o < n; o++) {
        uint64_t c = p->out_bytes[o];
        size_t nd = 0;
        if (strong) {
            const uint64_t *dp = desc + o * W;
            for (size_t t = 0; t < nt; t++) {
                uint32_t w = p->writer[t];
                if (w == o)
                    continue;
                if (w != NONE && !bit(desc + (size_t)w * W, (uint32_t)o))
                    continue; /* not written before o in every order */
                int needed = p->is_out[t], own = 0, later = 0;
                for (uint32_t j = p->rd_first[t]; j < p->rd_first[t + 1]; j++) {
                    if (p->rd[j] == o)
                        own = 1;
                    else if (bit(dp, p->rd[j]))
                        later = 1;
                }
                if (needed || own || later)
                    c += p->size[t];
                if (own && !later && !p->is_out[t])
                    p->dying[nd++] = (uint32_t)t; /* may die at o */
            }
        } else {
            for (uint32_t k = p->in_first[o]; k < p->in_first[o + 1]; k++) {
                c += p->size[p->in[k]];
                if (!p->is_out[p->in[k]])
                    p->dying[nd++] = p->in[k];
            }
        }
        if (p->hook && p->hook->saving && nd) {
            uint64_t save = p->hook->saving(p->hook->ctx, (uint32_t)o, p->dying, nd);
            c -= save < p->out_bytes[o] ? save : p->out_bytes[o];
        }
        p->cert[o] = c;
    }
    free(desc);
    free(inv);
    return ARENA_OK;
}

struct keyed {
    uint64_t cert;
    uint32_t op;
};

/* Largest certificate first, ties by op id. */
static int keyed_cmp(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->cert != y->cert)
        return x->cert > y->cert ? -1 : 1;
    return x->op < y->op ? -1 : x->op > y->op;
}

static int sort_by_cert(struct prep *p)
{
    struct keyed *k = xcalloc(p->n, sizeof *k);
    if (!k)
        return ARENA_ENOMEM;
    for (size_t o = 0; o < p->n; o++)
        k[o] = (struct keyed){.cert = p->cert[o], .op = (uint32_t)o};
    qsort(k, p->n, sizeof *k, keyed_cmp);
    for (size_t o = 0; o < p->n; o++)
        p->by_cert[o] = k[o].op;
    free(k);
    return ARENA_OK;
}

/* The most certificate among ops not in S. */
static uint64_t h_of(const struct prep *p, const uint64_t *S)
{
    for (size_t k = 0; k < p->n; k++)
        if (!bit(S, p->by_cert[k]))
            return p->cert[p->by_cert[k]];
    return 0;
}

/* ---- checking and measuring an order ---------------------------------- */

int arena_order_check(const struct arena_graph *g, const uint32_t *order, size_t n, char *err,
                      size_t errlen)
{
    if (n != g->n_ops)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "order: %zu ops for a graph of %zu", n, g->n_ops);
    size_t nt = g->n_tensors;
    uint32_t *step = malloc((n ? n : 1) * sizeof *step);
    uint32_t *written = malloc((nt ? nt : 1) * sizeof *written);
    if (!step || !written) {
        free(step);
        free(written);
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "order: out of memory");
    }
    int rc = ARENA_OK;
    for (size_t o = 0; o < n; o++)
        step[o] = NONE;
    for (size_t k = 0; k < n && !rc; k++) {
        if (order[k] >= n)
            rc = arena_errorf(err, errlen, 0, ARENA_EINVAL, "order: step %zu names op %lu of %zu",
                              k, (unsigned long)order[k], n);
        else if (step[order[k]] != NONE)
            rc = arena_errorf(err, errlen, 0, ARENA_EINVAL,
                              "order: op '%s' runs twice (steps %lu and %zu)",
                              g->ops[order[k]].name, (unsigned long)step[order[k]], k);
        else
            step[order[k]] = (uint32_t)k;
    }
    /* the step at which each tensor is written */
    for (size_t t = 0; t < nt; t++)
        written[t] = NONE;
    for (size_t o = 0; o < n && !rc; o++) {
        const struct arena_gop *op = &g->ops[o];
        for (size_t k = 0; k < op->n_out; k++)
            written[g->refs[op->out_first + k]] = step[o];
    }
    for (size_t o = 0; o < n && !rc; o++) {
        const struct arena_gop *op = &g->ops[o];
        for (size_t k = 0; k < op->n_in && !rc; k++) {
            uint32_t t = g->refs[op->in_first + k];
            if (written[t] != NONE && written[t] >= step[o])
                rc = arena_errorf(err, errlen, 0, ARENA_EINVAL,
                                  "order: op '%s' at step %lu reads '%s', written at step %lu:"
                                  " not topological",
                                  op->name, (unsigned long)step[o], g->tensors[t].name,
                                  (unsigned long)written[t]);
        }
    }
    free(step);
    free(written);
    return rc;
}

/* Peak of order (assumed a topological permutation); S is scratch of
 * p->words words. */
static uint64_t peak_of(const struct prep *p, const uint32_t *order, uint64_t *S)
{
    memset(S, 0, p->words * sizeof *S);
    uint64_t res = p->resident0, peak = 0;
    for (size_t k = 0; k < p->n; k++) {
        uint64_t next, c = step_cost(p, S, res, order[k], &next, NULL);
        if (c > peak)
            peak = c;
        res = next;
        set_bit(S, order[k]);
    }
    return peak;
}

int arena_order_peak(const struct arena_graph *g, const uint32_t *order, size_t n,
                     const struct arena_order_options *opt, uint64_t *peak, char *err,
                     size_t errlen)
{
    int rc = arena_order_check(g, order, n, err, errlen);
    if (rc)
        return rc;
    struct prep p;
    if (prep_make(&p, g, opt))
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "order: out of memory");
    uint64_t *S = xcalloc(p.words, sizeof *S);
    if (!S) {
        prep_free(&p);
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "order: out of memory");
    }
    *peak = peak_of(&p, order, S);
    free(S);
    prep_free(&p);
    return ARENA_OK;
}

/* A greedy order: at each step the ready op that is least by rule 0 (the
 * step's cost, then the bytes kept minus freed, then the stored step) or
 * rule 1 (kept minus freed first, then cost, then stored step). */
static uint64_t greedy(const struct prep *p, int rule, uint32_t *order, uint64_t *S,
                       uint32_t *indeg, uint32_t *readyl)
{
    size_t n = p->n, nr = 0;
    memset(S, 0, p->words * sizeof *S);
    for (size_t o = 0; o < n; o++) {
        indeg[o] = p->pr_first[o + 1] - p->pr_first[o];
        if (!indeg[o])
            readyl[nr++] = (uint32_t)o;
    }
    uint64_t res = p->resident0, peak = 0;
    for (size_t k = 0; k < n; k++) {
        size_t best = 0;
        uint64_t bc = 0, bnext = 0;
        for (size_t i = 0; i < nr; i++) {
            uint64_t next, c = step_cost(p, S, res, readyl[i], &next, NULL);
            int better;
            if (i == 0)
                better = 1;
            else if (rule == 0)
                better = c != bc ? c < bc
                                 : next != bnext ? next < bnext
                                                 : p->pos[readyl[i]] < p->pos[readyl[best]];
            else
                better = next != bnext ? next < bnext
                                       : c != bc ? c < bc
                                                 : p->pos[readyl[i]] < p->pos[readyl[best]];
            if (better) {
                best = i;
                bc = c;
                bnext = next;
            }
        }
        uint32_t o = readyl[best];
        readyl[best] = readyl[--nr];
        order[k] = o;
        if (bc > peak)
            peak = bc;
        res = bnext;
        set_bit(S, o);
        for (uint32_t j = p->su_first[o]; j < p->su_first[o + 1]; j++)
            if (--indeg[p->su[j]] == 0)
                readyl[nr++] = p->su[j];
    }
    return peak;
}

/* ---- the search ------------------------------------------------------- */

struct heap_entry {
    uint64_t f, g;
    uint32_t depth, idx;
};

static int heap_less(const struct heap_entry *a, const struct heap_entry *b)
{
    if (a->f != b->f)
        return a->f < b->f;
    if (a->depth != b->depth)
        return a->depth > b->depth; /* deeper first: reaches an order sooner */
    return a->idx < b->idx;
}

struct search {
    const struct prep *p;
    size_t W, cap, count, max;
    uint64_t *words, *g, *res;
    uint32_t *parent, *via, *depth;
    unsigned char *closed;
    uint32_t *slots; /* hash: state index + 1, 0 empty */
    size_t nslots;
    struct heap_entry *heap;
    size_t hlen, hcap;
};

static uint64_t hash_words(const uint64_t *s, size_t W)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < W; i++) {
        h ^= s[i];
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h;
}

static int search_grow(struct search *s)
{
    size_t cap = s->cap ? s->cap * 2 : 1024;
    if (cap > s->max)
        cap = s->max;
    uint64_t *words = realloc(s->words, cap * s->W * sizeof *words);
    if (words)
        s->words = words;
    uint64_t *g = realloc(s->g, cap * sizeof *g);
    if (g)
        s->g = g;
    uint64_t *res = realloc(s->res, cap * sizeof *res);
    if (res)
        s->res = res;
    uint32_t *parent = realloc(s->parent, cap * sizeof *parent);
    if (parent)
        s->parent = parent;
    uint32_t *via = realloc(s->via, cap * sizeof *via);
    if (via)
        s->via = via;
    uint32_t *depth = realloc(s->depth, cap * sizeof *depth);
    if (depth)
        s->depth = depth;
    unsigned char *closed = realloc(s->closed, cap);
    if (closed)
        s->closed = closed;
    if (!words || !g || !res || !parent || !via || !depth || !closed)
        return ARENA_ENOMEM;
    s->cap = cap;
    /* the hash at most half full */
    if (s->nslots < 2 * cap) {
        size_t ns = s->nslots ? s->nslots : 2048;
        while (ns < 2 * cap)
            ns *= 2;
        uint32_t *slots = calloc(ns, sizeof *slots);
        if (!slots)
            return ARENA_ENOMEM;
        for (size_t i = 0; i < s->count; i++) {
            size_t h = (size_t)hash_words(s->words + i * s->W, s->W) & (ns - 1);
            while (slots[h])
                h = (h + 1) & (ns - 1);
            slots[h] = (uint32_t)i + 1;
        }
        free(s->slots);
        s->slots = slots;
        s->nslots = ns;
    }
    return ARENA_OK;
}

/* The index of state S, or SIZE_MAX; *slot: where it would go. */
static size_t search_find(const struct search *s, const uint64_t *S, size_t *slot)
{
    size_t h = (size_t)hash_words(S, s->W) & (s->nslots - 1);
    while (s->slots[h]) {
        size_t i = s->slots[h] - 1;
        if (memcmp(s->words + i * s->W, S, s->W * sizeof *S) == 0)
            return i;
        h = (h + 1) & (s->nslots - 1);
    }
    *slot = h;
    return SIZE_MAX;
}

static int heap_push(struct search *s, struct heap_entry e)
{
    if (s->hlen == s->hcap) {
        size_t cap = s->hcap ? s->hcap * 2 : 1024;
        struct heap_entry *h = realloc(s->heap, cap * sizeof *h);
        if (!h)
            return ARENA_ENOMEM;
        s->heap = h;
        s->hcap = cap;
    }
    size_t i = s->hlen++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!heap_less(&e, &s->heap[up]))
            break;
        s->heap[i] = s->heap[up];
        i = up;
    }
    s->heap[i] = e;
    return ARENA_OK;
}

static struct heap_entry heap_pop(struct search *s)
{
    struct heap_entry top = s->heap[0], last = s->heap[--s->hlen];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->hlen)
            break;
        if (c + 1 < s->hlen && heap_less(&s->heap[c + 1], &s->heap[c]))
            c++;
        if (!heap_less(&s->heap[c], &last))
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (s->hlen)
        s->heap[i] = last;
    return top;
}

static void search_free(struct search *s)
{
    free(s->words);
    free(s->g);
    free(s->res);
    free(s->parent);
    free(s->via);
    free(s->depth);
    free(s->closed);
    free(s->slots);
    free(s->heap);
}

/* A* from {} with incumbent peak U. Returns ARENA_OK with *found = 1 and
 * order filled when an order below U exists (its peak in *peak, proven
 * least), *found = 0 when none does (U is least) or the budget ran out
 * (*exhausted = 1, *bound the least open priority). */
static int search_run(const struct prep *p, uint64_t U, uint64_t max_states, uint32_t *order,
                      int *found, uint64_t *peak, int *exhausted, uint64_t *bound,
                      uint64_t *states)
{
    struct search s = {.p = p, .W = p->words ? p->words : 1, .max = max_states};
    uint64_t *S = xcalloc(s.W, sizeof *S), *T = xcalloc(s.W, sizeof *T);
    uint32_t *succ = xcalloc(p->n, sizeof *succ);
    int rc = ARENA_OK;
    *found = 0;
    *exhausted = 0;
    *bound = U;
    /* the memory cap: bitset, figures and hash slots of every state */
    size_t per_state = s.W * sizeof(uint64_t) + 2 * sizeof(uint64_t) + 3 * sizeof(uint32_t) + 1 +
                       2 * sizeof(uint32_t) + sizeof(struct heap_entry);
    if (s.max > ARENA_ORDER_MEMORY_MAX / per_state)
        s.max = ARENA_ORDER_MEMORY_MAX / per_state;
    if (s.max < 1)
        s.max = 1;
    if (s.max > UINT32_MAX - 1)
        s.max = UINT32_MAX - 1;
    if (!S || !T || !succ || search_grow(&s)) {
        rc = ARENA_ENOMEM;
        goto done;
    }
    /* state 0: nothing run */
    memset(s.words, 0, s.W * sizeof *s.words);
    s.g[0] = 0;
    s.res[0] = p->resident0;
    s.parent[0] = NONE;
    s.via[0] = NONE;
    s.depth[0] = 0;
    s.closed[0] = 0;
    s.count = 1;
    {
        size_t slot = 0;
        search_find(&s, s.words, &slot);
        s.slots[slot] = 1;
    }
    uint64_t h0 = h_of(p, s.words);
    if (h0 >= U)
        goto done; /* nothing can be below U */
    if ((rc = heap_push(&s, (struct heap_entry){.f = h0, .g = 0, .depth = 0, .idx = 0})))
        goto done;
    while (s.hlen) {
        struct heap_entry e = heap_pop(&s);
        if (s.closed[e.idx] || e.g != s.g[e.idx])
            continue;
        if (e.f >= U)
            break;
        if (e.depth == p->n) { /* every op run: the least peak */
            *found = 1;
            *peak = e.g;
            *bound = e.g;
            for (uint32_t i = e.idx; s.parent[i] != NONE; i = s.parent[i])
                order[s.depth[i] - 1] = s.via[i];
            goto done;
        }
        s.closed[e.idx] = 1;
        memcpy(S, s.words + (size_t)e.idx * s.W, s.W * sizeof *S);
        uint64_t res = s.res[e.idx];
        /* successors: one op that frees what it keeps at no extra cost, else
         * every ready op */
        size_t ns = 0;
        for (uint32_t o = 0; o < p->n; o++) {
            if (bit(S, o) || !ready(p, S, o))
                continue;
            uint64_t next, c = step_cost(p, S, res, o, &next, NULL);
            if (next <= res && c <= e.f) {
                succ[0] = o;
                ns = 1;
                break;
            }
            succ[ns++] = o;
        }
        for (size_t i = 0; i < ns; i++) {
            uint32_t o = succ[i];
            uint64_t next, c = step_cost(p, S, res, o, &next, NULL);
            uint64_t g2 = c > e.g ? c : e.g;
            if (g2 >= U)
                continue;
            memcpy(T, S, s.W * sizeof *T);
            set_bit(T, o);
            uint64_t h = h_of(p, T), f2 = g2 > h ? g2 : h;
            if (f2 >= U)
                continue;
            size_t slot = 0, j = search_find(&s, T, &slot);
            if (j != SIZE_MAX) {
                if (s.closed[j] || s.g[j] <= g2)
                    continue;
            } else {
                if (s.count == s.cap) {
                    if (s.cap >= s.max) {
                        *exhausted = 1;
                        *bound = e.f;
                        goto done;
                    }
                    if ((rc = search_grow(&s)))
                        goto done;
                    search_find(&s, T, &slot);
                }
                j = s.count++;
                memcpy(s.words + j * s.W, T, s.W * sizeof *T);
                s.slots[slot] = (uint32_t)j + 1;
                s.closed[j] = 0;
                s.depth[j] = e.depth + 1;
            }
            s.g[j] = g2;
            s.res[j] = next;
            s.parent[j] = e.idx;
            s.via[j] = o;
            if ((rc = heap_push(&s, (struct heap_entry){.f = f2, .g = g2, .depth = e.depth + 1,
                                                        .idx = (uint32_t)j})))
                goto done;
        }
    }
done:
    *states = s.count;
    search_free(&s);
    free(S);
    free(T);
    free(succ);
    return rc;
}

int arena_order_best(const struct arena_graph *g, const struct arena_order_options *opt,
                     struct arena_order_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    struct prep p;
    if (prep_make(&p, g, opt))
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "order: out of memory");
    size_t n = p.n;
    uint32_t *stored = xcalloc(n, sizeof *stored), *cand = xcalloc(n, sizeof *cand);
    uint32_t *indeg = xcalloc(n, sizeof *indeg), *readyl = xcalloc(n, sizeof *readyl);
    uint64_t *S = xcalloc(p.words, sizeof *S);
    int rc = ARENA_OK;
    if (!stored || !cand || !indeg || !readyl || !S || prep_certify(&p) || sort_by_cert(&p)) {
        rc = arena_errorf(err, errlen, 0, ARENA_ENOMEM, "order: out of memory");
        goto done;
    }
    for (size_t k = 0; k < n; k++)
        stored[k] = arena_graph_op_at(g, k);
    r->n_ops = n;
    r->stored_peak = peak_of(&p, stored, S);
    r->certificate = n ? p.cert[p.by_cert[0]] : 0;
    r->order = stored;
    stored = NULL;
    r->peak = r->stored_peak;
    if (r->certificate >= r->peak) {
        r->bound = r->peak;
        r->status = ARENA_ORDER_CERTIFIED;
        goto done;
    }
    /* the incumbent: the better greedy order when below the stored one */
    for (int rule = 0; rule < 2; rule++) {
        uint64_t pk = greedy(&p, rule, cand, S, indeg, readyl);
        if (pk < r->peak) {
            r->peak = pk;
            memcpy(r->order, cand, n * sizeof *cand);
        }
    }
    if (r->certificate >= r->peak) {
        r->bound = r->peak;
        r->status = ARENA_ORDER_OPTIMAL;
        goto done;
    }
    int found = 0, exhausted = 0;
    uint64_t pk = 0, bound = 0, states = 0;
    rc = search_run(&p, r->peak, opt->max_states ? opt->max_states : ARENA_ORDER_STATES_DEFAULT,
                    cand, &found, &pk, &exhausted, &bound, &states);
    if (rc) {
        arena_errorf(err, errlen, 0, rc, "order: out of memory in the search");
        goto done;
    }
    r->states = states;
    if (found) {
        r->peak = pk;
        memcpy(r->order, cand, n * sizeof *cand);
    }
    r->bound = bound > r->certificate ? bound : r->certificate;
    if (r->bound > r->peak)
        r->bound = r->peak;
    r->status = exhausted && r->bound < r->peak ? ARENA_ORDER_LIMIT : ARENA_ORDER_OPTIMAL;
done:
    if (rc)
        arena_order_result_free(r);
    free(stored);
    free(cand);
    free(indeg);
    free(readyl);
    free(S);
    prep_free(&p);
    return rc;
}

int arena_order_apply(struct arena_graph *g, enum arena_order_mode mode,
                      const struct arena_order_options *opt, struct arena_order_result *r,
                      char *err, size_t errlen)
{
    if (r)
        memset(r, 0, sizeof *r);
    if (mode == ARENA_ORDER_STORED && !r)
        return ARENA_OK;
    int rc = arena_graph_check(g, NULL, err, errlen);
    if (rc)
        return rc;
    if (mode == ARENA_ORDER_STORED) {
        r->n_ops = g->n_ops;
        r->order = xcalloc(g->n_ops, sizeof *r->order);
        if (!r->order)
            return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "order: out of memory");
        for (size_t k = 0; k < g->n_ops; k++)
            r->order[k] = arena_graph_op_at(g, k);
        rc = arena_order_peak(g, r->order, g->n_ops, opt, &r->stored_peak, err, errlen);
        r->peak = r->stored_peak;
        r->status = ARENA_ORDER_KEPT;
        if (rc)
            arena_order_result_free(r);
        return rc;
    }
    struct arena_order_result own;
    struct arena_order_result *out = r ? r : &own;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = arena_order_best(g, opt, out, err, errlen);
    if (rc)
        return rc;
    rc = arena_order_check(g, out->order, out->n_ops, err, errlen);
    int same = 1;
    for (size_t k = 0; k < g->n_ops && same; k++)
        same = out->order[k] == arena_graph_op_at(g, k);
    if (!rc && !same)
        rc = arena_graph_order_set(g, out->order, out->n_ops);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->ns = (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)t1.tv_nsec -
              (uint64_t)t0.tv_nsec;
    if (rc || !r)
        arena_order_result_free(out);
    return rc;
}

/* The in-place rule as the search's hook: an op's output takes the place
 * of an input that dies there when the rule allows the pair
 * (arena_inplace_op_may); it then adds no bytes at its step. */
struct inplace_ctx {
    const struct arena_graph *g;
    enum arena_inplace_rule rule;
    uint64_t alignment;
};

static uint64_t inplace_saving(void *ctx, uint32_t op, const uint32_t *dying, size_t n)
{
    const struct inplace_ctx *c = ctx;
    for (size_t i = 0; i < n; i++)
        if (arena_inplace_op_may(c->g, op, dying[i], c->rule)) {
            uint64_t y = c->g->tensors[c->g->refs[c->g->ops[op].out_first]].bytes, a;
            return arena_size_align(y, c->alignment, &a) ? y : a;
        }
    return 0;
}

/* The bound the planners see for g in its current order: max-live, or
 * under an in-place rule max-live once its chains are merged. */
static int planned_bound(const struct arena_graph *g, uint64_t alignment,
                         enum arena_inplace_rule rule, uint64_t *bound)
{
    struct arena_problem p;
    int rc = arena_graph_problem_inplace(g, alignment, rule, &p, NULL, NULL, 0);
    if (rc)
        return rc;
    struct arena_bounds b;
    rc = arena_problem_bounds(&p, &b);
    free((void *)p.tensors);
    free((void *)p.alias);
    *bound = b.inplace_bound;
    return rc;
}

int arena_order_transform(struct arena_graph *g, enum arena_order_mode mode, uint64_t alignment,
                          uint64_t max_states, enum arena_inplace_rule rule,
                          struct arena_order_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (mode == ARENA_ORDER_STORED)
        return ARENA_OK;
    uint64_t stored_bound = 0, chosen_bound = 0;
    int rc = planned_bound(g, alignment, rule, &stored_bound);
    if (rc)
        return arena_errorf(err, errlen, 0, rc, "order: %s", arena_strerror(rc));
    struct inplace_ctx ic = {.g = g, .rule = rule, .alignment = alignment};
    struct arena_order_hook hook = {.saving = inplace_saving, .ctx = &ic};
    struct arena_order_options oo = {.alignment = alignment,
                                     .max_states = max_states,
                                     .hook = rule != ARENA_INPLACE_NONE ? &hook : NULL};
    rc = arena_order_apply(g, mode, &oo, r, err, errlen);
    if (rc)
        return rc;
    /* The search's cost is exact for outputs of their input's size (every
     * elementwise pair). A depthwise output smaller than its input keeps
     * the input's size in the merged chain after its step, which the cost
     * does not count: its minimum is then only a lower bound. So the order
     * is measured as the planners see it; if that is worse than the stored
     * order, the stored order is kept; and the proof is claimed only where
     * the bound meets what was measured. */
    rc = planned_bound(g, alignment, rule, &chosen_bound);
    if (!rc && chosen_bound > stored_bound && g->order) {
        free(g->order);
        g->order = NULL; /* the stored order: ops in insertion order */
        for (size_t k = 0; k < r->n_ops; k++)
            r->order[k] = (uint32_t)k;
        chosen_bound = stored_bound;
    }
    if (rc) {
        arena_order_result_free(r);
        return arena_errorf(err, errlen, 0, rc, "order: %s", arena_strerror(rc));
    }
    r->stored_peak = stored_bound;
    r->peak = chosen_bound;
    if (r->bound > r->peak)
        r->bound = r->peak;
    if (r->certificate > r->bound)
        r->certificate = r->bound;
    if (r->bound < r->peak)
        r->status = ARENA_ORDER_LIMIT;
    return ARENA_OK;
}
