/*
 * random.c
 *		Cryptographically secure random bytes for UUIDs, drawn from
 *		pg_strong_random() 4 KiB at a time instead of once per UUID; and a
 *		cheap generator seeded from them for values that must vary but
 *		guard no secret (UidRandomCheap32).
 *
 * Per-process state, no shared memory:
 *	rand_buf, rand_pos	the unused tail of the last block drawn.  Each byte is
 *						handed out once, then never again.
 *	rand_owner			the pid (MyProcPid) that drew the block.  A process
 *						whose pid differs never uses the buffer: it throws it
 *						away and draws its own.  So a backend never uses bytes
 *						that its parent (the postmaster) or a sibling could
 *						also hold, even if the postmaster had drawn a block
 *						before forking.
 *	cheap_state, cheap_owner	the cheap generator and the pid that seeded
 *						it, renewed the same way: no two backends share a
 *						stream.
 *
 * PostgreSQL sets MyProcPid = getpid() in every child right after fork, so
 * comparing with it costs no system call.  For forks that PostgreSQL does not
 * know about (a forking PL function, say), a pthread_atfork() child handler
 * also invalidates the buffer.  The postmaster itself never draws: the block
 * is filled lazily, on the first use in each process.
 */
#include "postgres.h"

#ifndef WIN32
#include <pthread.h>
#endif

#include "common/pg_prng.h"
#include "miscadmin.h"

#include "core/random.h"

#define UID_RANDOM_BLOCK 4096

static uint8 rand_buf[UID_RANDOM_BLOCK];
static int	rand_pos = UID_RANDOM_BLOCK;	/* empty */
static int	rand_owner = 0;
static pg_prng_state cheap_state;
static int	cheap_owner = 0;

#ifndef WIN32
static bool rand_atfork_registered = false;

static void
UidRandomForget(void)
{
	rand_owner = 0;
	rand_pos = UID_RANDOM_BLOCK;
	cheap_owner = 0;
}
#endif

/* Throws away what is left and draws a new block for this process. */
static void
UidRandomRefill(void)
{
#ifndef WIN32
	if (!rand_atfork_registered)
	{
		if (pthread_atfork(NULL, NULL, UidRandomForget) == 0)
			rand_atfork_registered = true;
	}
#endif
	if (!pg_strong_random(rand_buf, UID_RANDOM_BLOCK))
	{
		rand_pos = UID_RANDOM_BLOCK;
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate random values"),
				 errdetail("pg_strong_random() failed.")));
	}
	rand_owner = MyProcPid;
	rand_pos = 0;
}

/*
 * Copies n (at most UID_RANDOM_BLOCK) fresh random bytes to dst.  A request
 * that does not fit in what is left takes the tail and then the head of a
 * new block, so no byte is ever skipped or repeated.
 */
void
UidRandomBytes(void *dst, int n)
{
	uint8	   *out = (uint8 *) dst;

	Assert(n >= 0 && n <= UID_RANDOM_BLOCK);
	if (unlikely(rand_owner != MyProcPid))
		UidRandomRefill();
	if (likely(rand_pos + n <= UID_RANDOM_BLOCK))
	{
		memcpy(out, rand_buf + rand_pos, n);
		rand_pos += n;
		return;
	}
	else
	{
		int			part = UID_RANDOM_BLOCK - rand_pos;

		memcpy(out, rand_buf + rand_pos, part);
		UidRandomRefill();
		memcpy(out + part, rand_buf, n - part);
		rand_pos = n - part;
	}
}

/*
 * 8 fresh random bytes as one word (byte order is of no consequence).  The
 * common case, 8 bytes left in this process's block, copies them with one
 * load instead of a call of memcpy.
 */
uint64
UidRandom64(void)
{
	uint64		v;

	if (likely(rand_owner == MyProcPid && rand_pos <= UID_RANDOM_BLOCK - (int) sizeof(v)))
	{
		memcpy(&v, rand_buf + rand_pos, sizeof(v));
		rand_pos += sizeof(v);
	}
	else
		UidRandomBytes(&v, sizeof(v));
	return v;
}

/*
 * 32 random bits from a per-process xoroshiro128** (PostgreSQL's pg_prng),
 * seeded from this process's strong block on first use: a few nanoseconds
 * and no system call, for values that must be spread and not guessable in
 * bulk but protect nothing, such as the step by which uid_next() moves its
 * sequence at the start of a millisecond (generator.c).  Not for keys or
 * UUID bits: its output predicts its future output.
 */
uint32
UidRandomCheap32(void)
{
	if (unlikely(cheap_owner != MyProcPid))
	{
		pg_prng_seed(&cheap_state, UidRandom64());
		cheap_owner = MyProcPid;
	}
	return pg_prng_uint32(&cheap_state);
}
