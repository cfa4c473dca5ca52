/* transforms.c — the transformations' descriptor as text (transforms.h). */
#include "graphs/transforms.h"

#include <stdio.h>
#include <string.h>

void arena_patch_text(const struct arena_patch_spec *p, char *buf, size_t len)
{
    if (!len)
        return;
    if (!p->rows) {
        buf[0] = '\0';
        return;
    }
    snprintf(buf, len, "%ux%u:%u%s", p->rows, p->cols, p->k, p->stream ? ":stream" : "");
}

int arena_transforms_any(const struct arena_transforms *t)
{
    return t->patch.rows || t->order != ARENA_ORDER_STORED || t->inplace != ARENA_INPLACE_NONE ||
           t->scratch != ARENA_SCRATCH_NONE;
}

/* Appends " · " (after the first item) and the item. */
static void item(char *buf, size_t len, const char *text)
{
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    snprintf(buf + used, len - used, "%s%s", used ? " \xC2\xB7 " : "", text);
}

void arena_transforms_text_label(const char *inplace, const char *order, uint64_t order_states,
                                 const char *patch, const char *scratch,
                                 const char *scratch_policy, uint64_t alignment,
                                 int with_alignment, int with_states, char *buf, size_t len)
{
    if (!len)
        return;
    buf[0] = '\0';
    char one[128];
    if (inplace && inplace[0] && strcmp(inplace, "none") != 0) {
        snprintf(one, sizeof one, "in-place %.100s", inplace);
        item(buf, len, one);
    }
    int best = order && strcmp(order, "best") == 0;
    if (order && order[0] && strcmp(order, "stored") != 0) {
        snprintf(one, sizeof one, best ? "best order" : "order %.100s", order);
        item(buf, len, one);
    }
    if (best && with_states) {
        if (order_states)
            snprintf(one, sizeof one, "order states %llu", (unsigned long long)order_states);
        else
            snprintf(one, sizeof one, "order states %u (default)", ARENA_ORDER_STATES_DEFAULT);
        item(buf, len, one);
    }
    if (patch && patch[0]) {
        /* 4×4:13: the grid with a multiplication sign, as the papers write it */
        const char *x = strchr(patch, 'x');
        if (x)
            snprintf(one, sizeof one, "patch %.*s\xC3\x97%.90s", (int)(x - patch), patch, x + 1);
        else
            snprintf(one, sizeof one, "patch %.100s", patch);
        item(buf, len, one);
    }
    if (scratch && scratch[0] && strcmp(scratch, "none") != 0) {
        int other = scratch_policy && scratch_policy[0] && strcmp(scratch_policy, "lifetime") != 0;
        snprintf(one, sizeof one, "scratch %.60s%s%.20s", scratch, other ? " " : "",
                 other ? scratch_policy : "");
        item(buf, len, one);
    }
    if (with_alignment) {
        snprintf(one, sizeof one, "align %llu", (unsigned long long)alignment);
        item(buf, len, one);
    }
    if (!buf[0])
        snprintf(buf, len, "plain");
}

void arena_transforms_label(const struct arena_transforms *t, int with_alignment,
                            int with_states, char *buf, size_t len)
{
    char patch[64];
    arena_patch_text(&t->patch, patch, sizeof patch);
    const char *rule = arena_inplace_name(t->inplace), *order = arena_order_mode_name(t->order);
    const char *scratch = arena_scratch_name(t->scratch);
    arena_transforms_text_label(rule ? rule : "?", order ? order : "?", t->order_states, patch,
                                scratch ? scratch : "?",
                                arena_scratch_policy_name(t->scratch_policy), t->alignment,
                                with_alignment, with_states, buf, len);
}
