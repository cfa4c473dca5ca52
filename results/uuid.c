/* uuid.c — run identities (results/uuid.h). The name-based hash is two
 * 64-bit FNV-1a lanes with different offset bases, each finished with
 * splitmix64's mixer so every input bit reaches every output bit; it is
 * no cryptographic hash, and needs none: it only tells legacy runs apart. */
#include "results/uuid.h"

#include <stdint.h>
#include <stdio.h>

#include "planners/status.h"

static void format(const unsigned char b[16], char out[ARENA_UUID_LEN + 1])
{
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out[k++] = '-';
        out[k++] = hex[b[i] >> 4];
        out[k++] = hex[b[i] & 15];
    }
    out[k] = '\0';
}

/* RFC 9562: version in the high nibble of byte 6, variant 10 in byte 8. */
static void stamp(unsigned char b[16], unsigned version)
{
    b[6] = (unsigned char)((b[6] & 0x0f) | (version << 4));
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
}

int arena_uuid_random(char out[ARENA_UUID_LEN + 1])
{
    unsigned char b[16];
    out[0] = '\0';
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f) return ARENA_EIO;
    size_t got = fread(b, 1, sizeof b, f);
    fclose(f);
    if (got != sizeof b) return ARENA_EIO;
    stamp(b, 4);
    format(b, out);
    return ARENA_OK;
}

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void arena_uuid_from_name(const void *name, size_t len, char out[ARENA_UUID_LEN + 1])
{
    const unsigned char *p = name;
    uint64_t a = 0xcbf29ce484222325u, c = 0x84222325cbf29ce4u;
    for (size_t i = 0; i < len; i++) {
        a = (a ^ p[i]) * 0x100000001b3u;
        c = (c ^ p[i]) * 0x100000001b3u;
        c ^= c >> 29;
    }
    a = mix(a ^ len);
    c = mix(c + a);
    unsigned char b[16];
    for (int i = 0; i < 8; i++) {
        b[i] = (unsigned char)(a >> (8 * i));
        b[8 + i] = (unsigned char)(c >> (8 * i));
    }
    stamp(b, 8);
    format(b, out);
}
