/* read_whole.h — the rest of an open file in one buffer, for the model
 * readers (tflite.c, onnx.c), which judge a regular file by its size first
 * and pass that size (+ 1, to find a file that grew) as the first guess. */
#ifndef ARENA_READ_WHOLE_H
#define ARENA_READ_WHOLE_H

#include <stddef.h>
#include <stdio.h>

/* Reads f from where it stands to its end into a malloc'd *data of *size
 * bytes, starting with cap bytes (0: 64 KiB) and doubling. Refuses past
 * max bytes ("PATH: larger than 2 GiB, the WHAT limit" with max = 2^31) as
 * ARENA_EFORMAT; ARENA_EIO on a read error, ARENA_ENOMEM; one line in err
 * naming path. *data NULL and *size 0 on failure. f stays open. */
int arena_read_whole(FILE *f, size_t cap, size_t max, const char *path, const char *what,
                     unsigned char **data, size_t *size, char *err, size_t errlen);

#endif
