/* randwire.c — randomly wired cells (RandWire, Xie et al. 2019), the kind
 * of branchy network on which SERENITY and HMCOS show that the execution
 * order decides the peak memory.
 *
 * `cells` cells in a row; cell c works at resolution res / 2^c and
 * channels × 2^c. Its `nodes` nodes are wired by a Watts-Strogatz graph
 * WS(nodes, k, p): a ring where each node links to its k/2 neighbours on
 * each side, each link rewired with probability p to a node chosen
 * uniformly (no self links or repeats); or, with wiring=er, an
 * Erdos-Renyi graph ER(nodes, p): each pair linked with probability p (k
 * unused). Every edge is then directed from the lower to the higher node
 * number. A node is one op ("node": the weighted
 * sum of its inputs, ReLU, a separable conv, BN, fused as RandWire's code
 * counts them) reading every predecessor's output, or the cell input when
 * it has none (those ops downsample by 2 and double the channels, but in
 * the first cell), and writing one tensor of the cell's shape; an "add" op
 * sums the nodes without successors into the cell output. The first cell's
 * input is the graph input, the last cell's output the graph output.
 * Execution order: cell by cell, nodes in their number order (the order
 * RandWire's code defines and an exporter writes them in). */
#include <stdio.h>
#include <stdlib.h>

#include "graphs/family.h"
#include "graphs/rng.h"

enum { K_CELLS, K_NODES, K_WIRING, K_K, K_P, K_CHANNELS, K_RES, K_DTYPE, K_SEED };

static const char *const wirings[] = {"ws", "er", NULL};

static const struct arena_key keys[] = {
    [K_CELLS] = {.name = "cells", .kind = ARENA_KEY_UINT, .def = "3", .min = 1, .max = 8},
    [K_NODES] = {.name = "nodes", .kind = ARENA_KEY_UINT, .def = "32", .min = 2, .max = 256},
    [K_WIRING] = {.name = "wiring", .kind = ARENA_KEY_CHOICE, .def = "ws", .choices = wirings},
    [K_K] = {.name = "k", .kind = ARENA_KEY_UINT, .def = "4", .min = 2, .max = 254},
    [K_P] = {.name = "p", .kind = ARENA_KEY_REAL, .def = "0.75", .rmin = 0, .rmax = 1},
    [K_CHANNELS] = {.name = "channels", .kind = ARENA_KEY_UINT, .def = "78", .min = 1,
                    .max = 1u << 20},
    [K_RES] = {.name = "res", .kind = ARENA_KEY_UINT, .def = "56", .min = 1, .max = 1u << 16},
    [K_DTYPE] = {.name = "dtype", .kind = ARENA_KEY_CHOICE, .def = "int8",
                 .choices = arena_dtype_choices},
    [K_SEED] = {.name = "seed", .kind = ARENA_KEY_UINT, .def = NULL, .min = 0, .max = UINT64_MAX},
};

/* The WS graph as an n x n symmetric adjacency matrix. */
static void watts_strogatz(unsigned char *adj, size_t n, size_t k, double p,
                           struct arena_rng *rng)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 1; j <= k / 2; j++) {
            size_t t = (i + j) % n;
            adj[i * n + t] = adj[t * n + i] = 1;
        }
    for (size_t j = 1; j <= k / 2; j++)
        for (size_t i = 0; i < n; i++) {
            size_t t = (i + j) % n;
            if (!adj[i * n + t] || arena_rng_unit(rng) >= p)
                continue;
            size_t free_nodes = 0;
            for (size_t u = 0; u < n; u++)
                free_nodes += u != i && !adj[i * n + u];
            if (!free_nodes)
                continue;
            size_t pick = (size_t)arena_rng_below(rng, free_nodes);
            for (size_t u = 0; u < n; u++) {
                if (u == i || adj[i * n + u])
                    continue;
                if (pick-- == 0) {
                    adj[i * n + t] = adj[t * n + i] = 0;
                    adj[i * n + u] = adj[u * n + i] = 1;
                    break;
                }
            }
        }
}

static int build(const struct arena_key_value *v, struct arena_graph *g, char *err, size_t errlen)
{
    size_t n = v[K_NODES].u, k = v[K_K].u;
    if (v[K_WIRING].choice == 0 && k >= n)
        return arena_errorf(err, errlen, 0, ARENA_EINVAL,
                            "randwire: k=%zu must be below nodes=%zu (a ring of k/2 neighbours a"
                            " side)",
                            k, n);
    struct arena_rng rng;
    arena_rng_seed(&rng, v[K_SEED].u);
    enum arena_dtype dt = (enum arena_dtype)v[K_DTYPE].choice;
    unsigned char *adj = malloc(n * n);
    uint32_t *out = malloc(n * sizeof *out), *in = malloc((n + 1) * sizeof *in);
    if (!adj || !out || !in) {
        free(adj);
        free(out);
        free(in);
        return arena_errorf(err, errlen, 0, ARENA_ENOMEM, "randwire: out of memory");
    }
    uint64_t res = v[K_RES].u, ch = v[K_CHANNELS].u;
    uint64_t dims[3] = {res, res, ch};
    uint32_t x = arena_gen_tensor(g, "input", 0, dt, 3, dims);
    if (!g->status)
        g->tensors[x].is_input = 1;
    char name[64];
    for (uint64_t c = 0; c < v[K_CELLS].u && !g->status; c++) {
        if (c > 0) {
            dims[0] = dims[0] > 1 ? (dims[0] + 1) / 2 : 1;
            dims[1] = dims[0];
            dims[2] *= 2;
        }
        for (size_t i = 0; i < n * n; i++)
            adj[i] = 0;
        if (v[K_WIRING].choice == 0)
            watts_strogatz(adj, n, k, v[K_P].r, &rng);
        else
            for (size_t i = 0; i < n; i++)
                for (size_t j = i + 1; j < n; j++)
                    if (arena_rng_unit(&rng) < v[K_P].r)
                        adj[i * n + j] = adj[j * n + i] = 1;
        for (size_t j = 0; j < n && !g->status; j++) {
            size_t ni = 0;
            for (size_t i = 0; i < j; i++)
                if (adj[i * n + j])
                    in[ni++] = out[i];
            if (!ni)
                in[ni++] = x;
            snprintf(name, sizeof name, "c%llu_n", (unsigned long long)c);
            out[j] = arena_gen_tensor(g, name, j, dt, 3, dims);
            snprintf(name, sizeof name, "c%llu_node%zu", (unsigned long long)c, j);
            arena_graph_op_add(g, name, "node", in, ni, &out[j], 1);
        }
        size_t ns = 0;
        for (size_t i = 0; i < n; i++) {
            int sink = 1;
            for (size_t j = i + 1; j < n && sink; j++)
                sink = !adj[i * n + j];
            if (sink)
                in[ns++] = out[i];
        }
        snprintf(name, sizeof name, "c%llu_out", (unsigned long long)c);
        uint32_t y = arena_gen_tensor(g, name, 0, dt, 3, dims);
        snprintf(name, sizeof name, "c%llu_add", (unsigned long long)c);
        arena_graph_op_add(g, name, "add", in, ns, &y, 1);
        x = y;
    }
    if (!g->status)
        g->tensors[x].is_output = 1;
    free(adj);
    free(out);
    free(in);
    return g->status;
}

const struct arena_family arena_family_randwire = {
    .info = {.name = "randwire",
             .summary = "randomly wired cells (RandWire's Watts-Strogatz wiring): branchy, "
                        "where the execution order decides the peak",
             .params = "cells=3 (cells in a row, each halving the resolution and doubling the "
                       "channels after the first), nodes=32 (nodes per cell), wiring=ws (ws: "
                       "Watts-Strogatz, er: Erdos-Renyi), k=4 (ws: ring neighbours per node), "
                       "p=0.75 (ws: probability a link is rewired; er: that a pair is linked), "
                       "channels=78 (first cell's channels), res=56 (first cell's height and "
                       "width), dtype=int8 (int8, int16, fp16, fp32), seed=1 (PRNG seed; the "
                       "caller's seed when absent)"},
    .keys = keys,
    .n_keys = sizeof keys / sizeof keys[0],
    .build_graph = build,
};
