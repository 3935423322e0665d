/*
 * managed.pml: the generator protocol of uid_managed (managed/uid_managed.sql.in,
 * docs/managed.md), checked by test/model/check.sh.
 *
 * The state is a native sequence of s = ms << B | seq, scaled down: B bits
 * of sequence (2 values a ms, not 4096), the clock in ms 0..TMAX, the
 * sequence WAL-logged LOGAHEAD values ahead (PostgreSQL: 32).  NC callers
 * each make CALLS calls: read the clock c; the fast path (nextval under the shared
 * lock); if the value's ms is behind c, the step (under the exclusive
 * lock: nextval again, and setval up to c << B if still below, assigning
 * the transaction an xid), then the fast path again; refuse (UID01) if the
 * value runs more than AHEAD ms ahead of c; else issue it, then commit,
 * with an xid (an INSERT of the id, or the step's) or without one.
 *
 * The WAL: "logged" is the value the sequence resumes at if the last
 * record written reaches the disk; "flushed" the one it resumes at after a
 * crash now.  The WAL writer flushes at any time; a commit with an xid
 * flushes.  A crash (-DCRASH) may come between any two steps of any
 * caller: their sessions end, the locks go, the sequence resumes at
 * "flushed", and the restarted server's clock is any ms 0..TMAX (behind
 * or ahead of what was issued).  -DSTEP_BACK: the clock may step back once
 * at run time.
 *
 * Checked at every issue:
 *  - each session's ids are strictly increasing;
 *  - an id committed with an xid is never issued again;
 *  - an id is issued twice only after a crash, and only if it was not
 *    durable (at or above the value the sequence resumed at); with
 *    -DSTRICT, never (expected to fail: the documented window).
 * Mutants (expected to fail): -DNO_EXCLUSIVE (the step's setval under the
 * shared lock), -DNO_RECHECK (setval without reading the sequence again
 * under the exclusive lock).
 */
#ifndef B
#define B 1
#endif
#ifndef TMAX
#define TMAX 2
#endif
#ifndef AHEAD
#define AHEAD 1
#endif
#ifndef LOGAHEAD
#define LOGAHEAD 1
#endif
#ifndef NC
#define NC 2
#endif
#ifndef CALLS
#define CALLS 2
#endif
#ifndef FLUSHES
#define FLUSHES 1
#endif
#define SMAX ((TMAX + AHEAD + 1) << B)

byte clock = 0;
byte nxt = 0;			/* what nextval() returns next */
byte logged = 0;		/* where the sequence resumes if the WAL written so far is flushed */
byte flushed = 0;		/* where it resumes after a crash now */
byte sh = 0;			/* holders of the shared lock */
bool ex = false;		/* the exclusive lock */
bool crashed = false;
bool stepped = false;
byte resumed_at = 0;	/* flushed at the crash */
byte epoch = 0;
int issued = 0;			/* bit s: s was issued */
int committed = 0;		/* bit s: s was committed with an xid */

inline nextval(r)
{
	atomic {
		r = nxt;
		nxt++;
		if
		:: r >= logged -> logged = r + 1 + LOGAHEAD
		:: else -> skip
		fi
	}
}

/* The shared lock is held for nextval() alone, an atomic step of its own:
 * what it excludes is the step's nextval() and setval() in between. */
inline fast(r)
{
	atomic {
		!ex ->
		r = nxt;
		nxt++;
		if
		:: r >= logged -> logged = r + 1 + LOGAHEAD
		:: else -> skip
		fi
	}
}

active [NC] proctype caller()
{
	byte me, c, r, s, last, n;
	bool started, xid;

restart:
	atomic { me = epoch; started = false; last = 0 };
	do
	:: n < CALLS ->
		{
			/* the clock moves only between calls: only there is it read */
			atomic {
				if
				:: clock < TMAX -> clock++
#ifdef STEP_BACK
				:: !stepped && clock > 0 -> clock = 0; stepped = true
#endif
				:: skip
				fi;
				c = clock;
				n++
			};
			xid = false;
			fast(r);
			if
			:: (r >> B) < c ->
#ifdef NO_EXCLUSIVE
				atomic { !ex -> sh++ };
#else
				atomic { !ex && sh == 0 -> ex = true };
#endif
				nextval(s);
				if
#ifdef NO_RECHECK
				:: true ->
#else
				:: s < (c << B) ->
#endif
					xid = true;
					atomic { nxt = c << B; logged = c << B }
				:: else -> skip
				fi;
#ifdef NO_EXCLUSIVE
				sh--;
#else
				ex = false;
#endif
				fast(r)
			:: else -> skip
			fi;
			if
			:: (r >> B) > c + AHEAD -> skip	/* refused: UID01 */
			:: else ->
				/* issued, then committed with an xid (an INSERT of the id, or
				 * the step's), without one, or not at all (the WAL of a
				 * transaction that ends otherwise is not flushed by it) */
				atomic {
					assert(!started || r > last);
					assert((committed & (1 << r)) == 0);
#ifdef STRICT
					assert((issued & (1 << r)) == 0);
#else
					assert((issued & (1 << r)) == 0 || (crashed && r >= resumed_at));
#endif
					issued = issued | (1 << r);
					last = r;
					started = true;
					if
					:: xid = true
					:: skip
					:: xid = false
					fi;
					if
					:: xid -> flushed = logged; committed = committed | (1 << r)
					:: else -> skip
					fi
				}
			fi
			d_step { c = 0; r = 0; s = 0; xid = false }
		} unless { me != epoch };
		if
		:: me != epoch -> goto restart
		:: else -> skip
		fi
	:: else -> break
	od
}

/* the WAL writer, FLUSHES times at any point */
active proctype walwriter()
{
	byte k = 0;
	do
	:: k < FLUSHES && flushed != logged -> flushed = logged; k++
	:: k == FLUSHES -> break
	od
}

#ifdef CRASH
active proctype crash()
{
	atomic {
		!crashed ->
		crashed = true;
		epoch++;
		nxt = flushed;
		logged = flushed;
		resumed_at = flushed;
		sh = 0;
		ex = false;
		if
		:: clock = 0
		:: clock = 1
		:: clock = TMAX
		fi
	}
}
#endif
