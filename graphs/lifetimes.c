/* lifetimes.c — graph + execution order -> planning problem.
 *
 * TensorFlow Lite Micro's convention, closed intervals [first, last]:
 * first = the step of the op writing the tensor, or 0 for a graph input;
 * last = the step of the last op reading it (first when none does), or the
 * last step for a graph output. Sizes are rounded up to the alignment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graphs/graph_internal.h"

int arena_graph_problem(const struct arena_graph *g, uint64_t alignment,
                        struct arena_problem *out, struct arena_graph_fault *fault, char *err,
                        size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (fault)
        fault->op = fault->tensor = SIZE_MAX;
    if (alignment == 0 || (alignment & (alignment - 1))) {
        if (err && errlen)
            snprintf(err, errlen, "alignment %llu is not a power of two",
                     (unsigned long long)alignment);
        return ARENA_EINVAL;
    }
    size_t nt = g->n_tensors, no = g->n_ops;
    uint32_t *writer = malloc((nt ? nt : 1) * sizeof *writer);
    uint32_t *pos = malloc((no ? no : 1) * sizeof *pos);
    struct arena_tensor *rec = malloc((nt ? nt : 1) * sizeof *rec);
    int rc = ARENA_OK;
    if (!writer || !pos || !rec) {
        if (err && errlen)
            snprintf(err, errlen, "out of memory building lifetimes");
        rc = ARENA_ENOMEM;
    }
    if (!rc)
        rc = arena_graph_analyse(g, writer, pos, fault, err, errlen);
    if (!rc) {
        uint32_t last_step = (uint32_t)(no - 1);
        for (size_t t = 0; t < nt; t++) {
            const struct arena_gtensor *gt = &g->tensors[t];
            rec[t].first = gt->is_input ? 0 : pos[writer[t]];
            rec[t].last = gt->is_output ? last_step : rec[t].first;
        }
        for (size_t o = 0; o < no; o++) {
            const struct arena_gop *op = &g->ops[o];
            for (size_t k = 0; k < op->n_in; k++) {
                uint32_t t = g->refs[op->in_first + k];
                if (pos[o] > rec[t].last)
                    rec[t].last = pos[o];
            }
        }
        uint64_t sum = 0;
        for (size_t t = 0; t < nt && !rc; t++) {
            rc = arena_size_align(g->tensors[t].bytes, alignment, &rec[t].size);
            if (rc)
                arena_errorf(err, errlen, 0, rc, "tensor '%s': size overflows once aligned to %llu",
                             g->tensors[t].name, (unsigned long long)alignment);
            else if (rec[t].size > UINT64_MAX - sum)
                rc = arena_errorf(err, errlen, 0, ARENA_EOVERFLOW,
                                  "tensor '%s': %llu bytes take the sum of the sizes past "
                                  "2^64 - 1 bytes",
                                  g->tensors[t].name, (unsigned long long)rec[t].size);
            else
                sum += rec[t].size;
            if (rc && fault)
                fault->tensor = t;
        }
    }
    free(writer);
    free(pos);
    if (rc) {
        free(rec);
        return rc;
    }
    out->n = nt;
    out->tensors = rec;
    out->alignment = alignment;
    return ARENA_OK;
}
