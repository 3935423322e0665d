/*
 * random.h
 *		The per-process block of pg_strong_random() bytes, and the cheap
 *		generator seeded from it (random.c).
 */
#ifndef UID_RANDOM_H
#define UID_RANDOM_H

#include "postgres.h"

extern void UidRandomBytes(void *dst, int n);
extern uint64 UidRandom64(void);
extern uint32 UidRandomCheap32(void);

#endif							/* UID_RANDOM_H */
