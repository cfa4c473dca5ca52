/* digest.c — SHA-256 as text (digest.h), by nettle. */
#include "results/digest.h"

#include <nettle/sha2.h>
#include <stdio.h>

void arena_sha256_hex(const void *data, size_t len, char hex[65])
{
    struct sha256_ctx ctx;
    unsigned char digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, len, data);
    sha256_digest(&ctx, sizeof digest, digest);
    for (size_t i = 0; i < sizeof digest; i++) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}
