/*
 * lease.pml: a Promela model of the lease protocol (docs/leases.md,
 * src/lease/lease_worker.c, src/lease/lease_store.c, src/core/generator.c), checked by spin.
 * test/model/check.sh runs every scenario; docs/leases.md, "The model", says
 * what it proves.
 *
 * PROPERTY.  No two generators issue an ID with the same worker id in the
 * same millisecond: the assertion in Backend().  (Equal worker id and
 * millisecond on two servers means equal IDs, their sequences both counting
 * from 0.)  The check is exact: when a generator issues (w, ms), spin may
 * choose that pair as the target; any other generator issuing the target
 * afterwards fails the assertion.  Every pair of clashing issues is covered
 * by the run in which the first of them was chosen.
 *
 * TIME.  A global time `now` in ticks; a tick is the unit of every clock
 * value (a millisecond, or any coarser bucket: all lease values below are
 * multiples of it).  Generator g's clock is now + off[g] - back[g]; off[g] is
 * chosen at the start within +/- SKEW of the store's clock, which is
 * now + soff.  Time advances by one tick at any moment, up to TMAX, so any
 * process can be frozen for any time.
 *
 * BOUNDS (defaults, those of check.sh; -D overrides).  G = 2 generators
 * (servers), W = 1 worker id (a clash needs one id; with two, the failover
 * search outgrows 4 GB at these times), NS = 2 pooled server sessions, SKEW = 1,
 * MARGIN = 3, TTL = 4 ticks, time from T0 = 4 to TMAX = 7.  In general: G
 * generators, W worker ids,
 * NS pooled server sessions, SKEW = uid.lease_max_clock_skew, MARGIN =
 * uid.lease_safety_margin (> 2 SKEW), TTL = uid.lease_ttl, all in ticks;
 * time runs from T0 to TMAX.  One failover (FAILOVER), one store clock jump
 * of JUMP ticks (POOLER), one backward step of BACK ticks of one generator's
 * clock (STEP_BACK).
 *
 * SCENARIOS.
 *   FAILOVER    the store has one streaming standby (asynchronous, or
 *               SYNC_STANDBY); it may be promoted once, at any moment, and
 *               then holds only what it had received; every session of the
 *               old primary ends (its advisory locks too).
 *   POOLER      the store is reached through a pooler in transaction mode:
 *               each store transaction runs on any idle one of NS server
 *               sessions; advisory locks and pg_backend_pid() belong to the
 *               server session.  The store's clock may jump forward by JUMP
 *               ticks (beyond SKEW) once.
 *   STEP_BACK   one generator's clock may step back by BACK ticks once (the
 *               clock guard, UidReserve, refuses IDs at or below the last
 *               issued millisecond).
 *
 * RULES.  Without switches: the protocol with random tokens, holder identity
 * in the renewal, the durability wait and the session check.  Each switch
 * sets one rule back to the protocol before those (main before them):
 *   TOKEN_PLUS_ONE     UidStoreTake: token = previous token + 1 (else a
 *                      fresh random 63-bit token: modelled as unique)
 *   RENEW_TOKEN_ONLY   UidStoreRenew/UidStoreRelease match the token only
 *                      (else token and holder identity)
 *   NO_WAIT_DURABLE    no UidStoreWaitDurable after a commit
 *   NO_SESSION_CHECK   no UidStoreCheckSession
 *   SESSION_CHECK_AFTER_LOCK   the acquisition's UidStoreCheckSession runs
 *                      only after pg_try_advisory_lock (else also before it)
 *   FLOOR_FROM_LAST_ISSUED  the rule before: UidStoreTake of an expired row
 *                      gives the new holder only the row's last_issued_ms as
 *                      its floor (else, as UidStoreTake does: at least
 *                      expires_at + SKEW, past what the expired holder could
 *                      have issued by its deadline)
 *
 * ABSTRACTIONS AND WHAT IS NOT MODELLED.
 *   - Each store statement, and each update of the generator's shared
 *     state (UidGeneratorGrant, UidGeneratorRevoke, an ID in uid_next), is
 *     one atomic step: PostgreSQL's row locks and the generator's
 *     compare-and-swap protocol (generator.c) make them so; they are not
 *     re-checked here.  Local reads between two statements of a
 *     transaction that nothing else can change are merged into the
 *     statement; the take, its skew check and its COMMIT are one step (a
 *     pause between them only shortens the deadline, counted from before).
 *   - The backends of one server are one process: they share the grant and
 *     the state word, and ids within one millisecond differ by sequence.
 *   - Renewals may happen at any moment, not only every renew_interval (a
 *     superset of the real schedule).  An acquisition takes any free id,
 *     not only the lowest (a superset), and an id whose row turns out live
 *     ends the attempt (the next attempt tries again).  The acquisition's
 *     first skew check (after UidStoreClock) is left out: the check after
 *     the take decides (a superset).  The take's statement and its COMMIT
 *     are two steps (the row stays locked in between; the clock read after
 *     it may be any time later); a renewal's clock reads are at its
 *     statement (a pause there only delays a renewal whose deadline counts
 *     from before).
 *   - Advisory lock counts saturate at 3 (an unlock may then free a lock
 *     earlier than PostgreSQL would: only more acquirers get through).  A failed store operation is modelled
 *     by the failover only; other failures (network, statement timeout) are
 *     pauses, which spin covers, except that a real failure also drops the
 *     worker's session and its advisory lock.
 *   - Random tokens never collide (probability 2^-63 per acquisition).
 *   - The standby streams at all times until the promotion; a standby that
 *     is not streaming when a lease is committed is not waited for by
 *     UidStoreWaitDurable, and promoting it can lose the lease: a stated
 *     limit (the failover tool must not promote a standby that lags).
 *   - The store's clock never steps back; generator clocks step back only
 *     with STEP_BACK.  Clock rates are equal (drift is a series of steps).
 *   - Not modelled: server restarts and crashes (a restarted server is a new
 *     holder identity with no token: like another generator), the checks
 *     of values read back, the pool size, uid_lease_acquire() after a
 *     release, pg_terminate_backend() of a pooled server session.
 */

#ifndef G
#define G 2
#endif
#ifndef W
#define W 1
#endif
#ifndef NS
#define NS 2
#endif
#ifndef SKEW
#define SKEW 1
#endif
#ifndef MARGIN
#define MARGIN 3
#endif
#ifndef TTL
#define TTL 4
#endif
#ifndef JUMP
#define JUMP 3
#endif
#ifndef BACK
#define BACK 3
#endif
#ifndef T0
#define T0 4
#endif
#ifndef TMAX
#define TMAX 7
#endif

#define NONE 255

/* the clocks */
byte now = T0;
byte soff = SKEW;				/* store clock = now + soff */
byte off[G];					/* generator clock = now + off - back */
byte back[G];
#define SNOW		(now + soff)
#define LOCAL(g)	(now + off[g] - back[g])

/* UidLeaseCheckSkew: the store's clock between before - SKEW and after + SKEW */
#define SKEW_OK(before, after, store)	((store) + SKEW >= (before) && (store) <= (after) + SKEW)

/* one row of the lease table */
typedef Row
{
	bool		exists;
	byte		token;
	byte		holder;			/* system identifier + postmaster pid: a generator */
	byte		expires;		/* expires_at, store clock */
	bool		released;
	byte		last;			/* last_issued_ms */
};

Row			prim[W];			/* the store's primary */
Row			stby[W];			/* its standby */
bool		dirty[G];			/* g's last commit not yet on the standby */
bool		lag = false;		/* some commit not yet on the standby */
bool		promoted = false;
byte		epoch = 0;			/* sessions of an earlier epoch are gone */
byte		nexttok = 1;		/* fresh random tokens, never equal */

/* a row locked by an uncommitted take: generator + 1 */
byte		rowlock[W];

/* advisory locks: owner session + 1 (0: none); pg_advisory_lock counts */
byte		lock[W];
byte		lockcnt[W];
bool		busy[NS];			/* pooled server session inside a transaction */

/* the generator's shared state (generator.c) */
bool		gvalid[G];			/* grant word: valid bit, worker id, deadline */
byte		gw[G];
byte		gdead[G];
byte		gst[G];				/* state word: 2 * ms + 1 if the ms is used up */

/* the property's target: generator + 1, worker id, ms */
byte		tg = 0;
byte		tw;
byte		tms;

/* UidGeneratorRevoke: stop at once; the bound of all issued is gst / 2 */
inline Revoke(g)
{
	gvalid[g] = false;
	gst[g] = 2 * (gst[g] / 2 + 1) + 1
}

/* UidStoreWaitDurable's condition for a commit of g in epoch e */
#define DURABLE(g, e)	(epoch == (e) && !dirty[g])

inline Commit(g)
{
#ifdef FAILOVER
	if
	:: !promoted ->
#ifdef SYNC_STANDBY
		/* a synchronous standby: the commit returns once it has it */
		for (k : 0 .. W - 1) { stby[k].exists = prim[k].exists; stby[k].token = prim[k].token;
			stby[k].holder = prim[k].holder; stby[k].expires = prim[k].expires;
			stby[k].released = prim[k].released; stby[k].last = prim[k].last }
#else
		dirty[g] = true; lag = true
#endif
	:: else
	fi
#else
	skip
#endif
}

/* the session that owns our advisory locks: pooled, or our own */
#ifdef POOLER
#define OWNER	(sess + 1)
#else
#define OWNER	(g + 1)
#endif

/* COMMIT or ROLLBACK: a pooled server session goes back to the pool */
inline EndTx()
{
	if
	:: intx ->
#ifdef POOLER
		busy[sess] = false;
#endif
		intx = false
	:: else
	fi
}

/*
 * A store operation failed, or its session is gone: the worker drops its
 * connection (UidLeaseTry: UidStoreAbortAfterError), and with it its
 * session's advisory locks; a pooled server session keeps them.
 */
inline DropSession()
{
	EndTx();
#ifdef POOLER
	pid0 = NONE;
#else
	for (k : 0 .. W - 1) {
		if :: lock[k] == g + 1 -> lock[k] = 0; lockcnt[k] = 0 :: else fi
	}
#endif
	lock_held = false;
	conn = NONE
}

/* UidStoreBegin: (re)connect, and in a pooler get a server session */
inline Begin()
{
	if :: conn != epoch -> DropSession(); conn = epoch :: else fi;
#ifdef POOLER
	if
	:: !busy[0] -> sess = 0
	:: NS > 1 && !busy[1] -> sess = 1
	fi;
	busy[sess] = true;
	/* the connection's pg_backend_pid(), read when it was opened */
	if :: pid0 == NONE -> pid0 = sess :: else fi;
#endif
	intx = true
}

/* pg_try_advisory_lock granted: the count saturates at 3 (a model bound;
 * an unlock may then free the lock earlier than PostgreSQL would, which
 * only lets more acquirers through) */
inline LockInc(w)
{
	if :: lockcnt[w] < 3 -> lockcnt[w]++ :: else fi
}

/* pg_advisory_unlock */
inline Unlock(w)
{
	if
	:: lock_held ->
		lockcnt[w]--;
		if :: lockcnt[w] == 0 -> lock[w] = 0 :: else fi;
		lock_held = false
	:: else
	fi
}

/*
 * UidStoreCheckSession: the session is the one the connection was opened
 * on, and it holds no advisory lock on a worker id but `mine`.  A store
 * that fails it is refused as pooled, for good (state store_pooled).
 */
#if defined(POOLER) && !defined(NO_SESSION_CHECK)
#define SESSION_OK(mine) \
	(sess == pid0 && (lock[0] != sess + 1 || 0 == (mine)) && (W < 2 || lock[1] != sess + 1 || 1 == (mine)))
#else
#define SESSION_OK(mine)	true
#endif

/* the row still carries our token (and our identity) */
#ifdef RENEW_TOKEN_ONLY
#define OURS(w)	(prim[w].exists && prim[w].token == tok && !prim[w].released)
#else
#define OURS(w)	(prim[w].exists && prim[w].token == tok && !prim[w].released && prim[w].holder == g)
#endif

/* what one operation kept in local variables: forgotten after it */
inline Forget()
{
	found = false; before = 0; after = 0; snow = 0; cand = NONE; prevlast = 0;
	bound = 0; txepoch = 0
}

/* an id UidStoreFreeIds lists: no live row, and no advisory lock held by a
 * session other than ours */
#define FREE(k) \
	((!prim[k].exists || prim[k].released || prim[k].expires <= SNOW) && \
	 (lock[k] == 0 || lock[k] == OWNER))

/* a row UidStoreTake may take: missing, released, or expired */
#define TAKABLE(k, store) (!prim[k].exists || prim[k].released || prim[k].expires <= (store))

/* the lease worker of generator g (lease_worker.c) */
proctype Worker(byte g)
{
	bool		held = false;
	bool		lock_held = false;
	bool		intx = false;
	bool		found = false;
	byte		wid = NONE;
	byte		tok;
	byte		conn = NONE;	/* epoch of our store connection */
	byte		sess = NONE;	/* pooled server session of this transaction */
	byte		pid0 = NONE;	/* server session when the connection opened */
	byte		before;
	byte		after;
	byte		snow;
	byte		cand = NONE;
	byte		prevlast;
	byte		bound;
	byte		txepoch;
	byte		k;

	do
	:: !held ->
		/* ---- UidLeaseAcquire ---- */
		atomic {
			Begin();
			/* UidStoreClock + UidLeaseCheckSkew: left out (the check after
			 * the take decides; without it, a superset); UidStoreFreeIds, of
			 * which UidLeaseTakeFreeId tries the lowest: any one here (a
			 * superset) */
			for (k : 0 .. W - 1) {
				if
				:: cand == NONE && FREE(k) ->
					if :: cand = k :: skip fi
				:: else
				fi
			};
			if :: cand == NONE -> EndTx(); Forget() :: else fi
		}
		if
		:: cand == NONE
		:: else ->
			atomic {
				if
				:: conn != epoch -> DropSession(); Forget(); goto next
				:: else
				fi;
#if defined(POOLER) && !defined(NO_SESSION_CHECK) && !defined(SESSION_CHECK_AFTER_LOCK)
				/* UidStoreCheckSession before the lock: we hold none */
				if
				:: !SESSION_OK(NONE) -> EndTx(); goto pooled
				:: else
				fi;
#endif
				/* UidStoreTryLock: pg_try_advisory_lock, never waits; the
				 * take goes ahead whatever it returns */
				if
				:: lock[cand] == 0 || lock[cand] == OWNER ->
					lock[cand] = OWNER; LockInc(cand); lock_held = true
				:: else -> lock_held = false
				fi;
				/* UidStoreCheckSession */
				if
				:: !SESSION_OK(cand) -> EndTx(); goto pooled
				:: else
				fi
			}
			atomic {
				/* the row lock: a concurrent take of this row waits */
				rowlock[cand] == 0 ->
				if
				:: conn != epoch -> DropSession(); Forget(); goto next
				:: else
				fi;
				/* the local clock before the statement (the deadline counts
				 * from it: read as late as possible, the worst case);
				 * UidStoreTake's condition at the statement's store time */
				before = LOCAL(g);
				snow = SNOW;
				if
				:: TAKABLE(cand, snow) -> rowlock[cand] = g + 1
				:: else ->
					/* a live row: give the lock back; the next attempt tries
					 * another id */
					Unlock(cand);
					EndTx();
					Forget();
					goto next
				fi
			}
			atomic {
				/* after the statement (any time later): the local clock,
				 * UidLeaseCheckSkew (a failure rolls back), COMMIT */
				if
				:: conn != epoch -> DropSession(); Forget(); goto next
				:: else
				fi;
				after = LOCAL(g);
				rowlock[cand] = 0;
				if
				:: !SKEW_OK(before, after, snow) -> DropSession(); Forget(); goto next
				:: else
				fi;
				found = true;
				prevlast = (prim[cand].exists -> prim[cand].last : 0);
#ifndef FLOOR_FROM_LAST_ISSUED
				/* UidStoreTake: an expired row's floor is its expiry + SKEW */
				if
				:: prim[cand].exists && !prim[cand].released &&
				   prim[cand].expires + SKEW > prevlast ->
					prevlast = prim[cand].expires + SKEW
				:: else
				fi;
#endif
#ifdef TOKEN_PLUS_ONE
				tok = (prim[cand].exists -> prim[cand].token + 1 : 1);
#else
				tok = nexttok; nexttok++;
#endif
				prim[cand].last = (prim[cand].exists -> prim[cand].last : 0);
				prim[cand].exists = true;
				prim[cand].token = tok;
				prim[cand].holder = g;
				prim[cand].expires = snow + TTL;
				prim[cand].released = false;
				printf("MSC: t=%d g%d takes id %d: token %d, expires %d (store clock %d), before %d, session %d\n",
					now, g, cand, tok, prim[cand].expires, snow, before, sess);
				Commit(g);
				txepoch = epoch;
				EndTx()
			}
#ifndef NO_WAIT_DURABLE
			/* UidStoreWaitDurable: the standby has flushed the commit; if
			 * the session is gone first, the lease is not acted on (it
			 * expires unused) */
			if
			:: DURABLE(g, txepoch)
			:: atomic { epoch != txepoch -> DropSession(); Forget(); goto next }
			fi;
#endif
			/* UidLeasePassPreviousHolder (wait until our clock has passed the
			 * previous holder's last_issued_ms, raise the floor), then
			 * UidLeaseGrant -> UidGeneratorGrant */
			atomic {
				LOCAL(g) > prevlast ->
				if :: gst[g] < 2 * prevlast + 1 -> gst[g] = 2 * prevlast + 1 :: else fi;
				held = true; wid = cand;
				gw[g] = wid; gdead[g] = before + TTL - MARGIN; gvalid[g] = true;
				printf("MSC: t=%d g%d granted id %d until ms %d (floor %d)\n", now, g, wid, gdead[g], prevlast);
				Forget()
			}
		fi
	:: held ->
		/* ---- UidLeaseRenew ---- */
		atomic {
			/* the UPDATE waits for the row lock of a concurrent take */
			rowlock[wid] == 0 ->
			Begin();
			/* UidStoreCheckSession */
			if
			:: !SESSION_OK(wid) -> EndTx(); goto pooled
			:: else
			fi;
			/* UidLeaseRetakeLock */
			if
			:: !lock_held && (lock[wid] == 0 || lock[wid] == OWNER) ->
				lock[wid] = OWNER; LockInc(wid); lock_held = true
			:: else
			fi;
			/* before; UidStoreRenew: our token (and identity); after;
			 * UidLeaseCheckSkew rolls back; COMMIT */
			before = LOCAL(g);
			after = LOCAL(g);
			if
			:: OURS(wid) && !SKEW_OK(before, after, SNOW) -> DropSession(); Forget()
			:: OURS(wid) && SKEW_OK(before, after, SNOW) ->
				prim[wid].expires = SNOW + TTL;
				if :: gst[g] / 2 > prim[wid].last -> prim[wid].last = gst[g] / 2 :: else fi;
				Commit(g);
				txepoch = epoch;
				EndTx();
#ifdef NO_WAIT_DURABLE
				/* UidLeaseGrant: the deadline from the local time before
				 * the UPDATE */
				gdead[g] = before + TTL - MARGIN; gvalid[g] = true;
				printf("MSC: t=%d g%d renewed id %d (token %d): expires %d, until ms %d\n", now, g, wid, tok, prim[wid].expires, gdead[g]);
				Forget()
#else
				found = true
#endif
			:: !OURS(wid) ->
				Unlock(wid);
				EndTx();
				/* UidLeaseLost: UidGeneratorRevoke at once */
				Revoke(g); held = false;
				printf("MSC: t=%d g%d lost id %d (token %d): revoked\n", now, g, wid, tok);
				wid = NONE;
				Forget()
			fi
		}
#ifndef NO_WAIT_DURABLE
		if
		:: found ->
			if
			:: DURABLE(g, txepoch)
			:: atomic { epoch != txepoch -> DropSession(); Forget(); goto next }
			fi;
			/* UidLeaseGrant: the deadline from the local time before the UPDATE */
			atomic {
				gdead[g] = before + TTL - MARGIN; gvalid[g] = true;
				printf("MSC: t=%d g%d renewed id %d (token %d), durable: until ms %d\n", now, g, wid, tok, gdead[g]);
				Forget()
			}
		:: else
		fi
#endif
	:: held ->
		/* ---- UidLeaseRelease at a clean shutdown: revoke first ---- */
		atomic {
			bound = gst[g] / 2 + 1; Revoke(g); held = false;
			printf("MSC: t=%d g%d releases id %d, last issued bound %d\n", now, g, wid, bound)
		}
		atomic {
			rowlock[wid] == 0 ->
			Begin();
			/* UidStoreRelease */
			if
			:: OURS(wid) ->
				prim[wid].released = true;
				if :: bound > prim[wid].last -> prim[wid].last = bound :: else fi;
				Commit(g)
			:: else
			fi;
			Unlock(wid);
			/* the worker exits: its connection closes */
			DropSession();
			Forget()
		}
		break
next:
		skip
	od;
	goto done;
pooled:
	/* store_pooled, sticky: revoke any grant at once and stop */
	atomic {
		if :: held -> Revoke(g); held = false :: else fi;
		printf("MSC: t=%d g%d refuses the store as pooled (session %d, opened on %d)\n", now, g, sess, pid0);
		Forget()
	}
done:
	skip
}

/* the backends of generator g: uid_next's deadline check (generator.c) */
proctype Backend(byte g)
{
	byte		ms;

	do
	:: atomic {
		/* the grant is valid, ms <= deadline, and ms is after the state
		 * word (the clock guard refuses below it) */
		gvalid[g] && LOCAL(g) <= gdead[g] && gst[g] <= 2 * LOCAL(g) ->
		ms = LOCAL(g);
		gst[g] = 2 * ms;
		printf("MSC: t=%d g%d issues id %d, ms %d\n", now, g, gw[g], ms);
		assert(!(tg != 0 && tg != g + 1 && tw == gw[g] && tms == ms));
		if
		:: tg == 0 -> tg = g + 1; tw = gw[g]; tms = ms
		:: true
		fi;
		ms = 0
	   }
	od
}

/* time, and the clock faults of the scenario */
active proctype Clock()
{
	byte		k;

	do
	:: atomic { now < TMAX -> now++ }
#ifdef POOLER
	:: atomic { soff == SKEW -> soff = SKEW + JUMP; printf("MSC: t=%d the store clock jumps by %d\n", now, JUMP) }
#endif
#ifdef STEP_BACK
	:: atomic {
		back[0] == 0 && back[G - 1] == 0 ->
		if
		:: back[0] = BACK
		:: back[G - 1] = BACK
		fi;
		printf("MSC: t=%d a generator clock steps back by %d (g0 %d, g%d %d)\n", now, BACK, back[0], G - 1, back[G - 1])
	   }
#endif
	od
}

#ifdef FAILOVER
/* streaming replication: the standby receives every commit so far */
active proctype Replicator()
{
	byte		k;

	do
	:: atomic {
		lag && !promoted ->
		for (k : 0 .. W - 1) {
			stby[k].exists = prim[k].exists; stby[k].token = prim[k].token;
			stby[k].holder = prim[k].holder; stby[k].expires = prim[k].expires;
			stby[k].released = prim[k].released; stby[k].last = prim[k].last
		}
		for (k : 0 .. G - 1) { dirty[k] = false }
		lag = false;
		printf("MSC: t=%d the standby has every commit\n", now)
	   }
	od
}

/* the promotion: the standby becomes the primary; old sessions are gone */
active proctype Promote()
{
	byte		k;

	atomic {
		for (k : 0 .. W - 1) {
			prim[k].exists = stby[k].exists; prim[k].token = stby[k].token;
			prim[k].holder = stby[k].holder; prim[k].expires = stby[k].expires;
			prim[k].released = stby[k].released; prim[k].last = stby[k].last;
			lock[k] = 0; lockcnt[k] = 0; rowlock[k] = 0
		}
		/* no standby streams from the new primary */
		for (k : 0 .. G - 1) { dirty[k] = false }
		lag = false;
		epoch++;
		promoted = true;
		printf("MSC: t=%d the standby is promoted\n", now)
	}
}
#endif

init
{
	byte		g;
	byte		k;

	atomic {
		/* each generator's clock within SKEW of the store's */
		for (g : 0 .. G - 1) {
			if
			:: off[g] = 0
			:: off[g] = SKEW
			:: off[g] = 2 * SKEW
			fi;
			gst[g] = 0
		}
		/* the generators are interchangeable: their offsets in order */
		if
		:: G == 2 && off[0] > off[G - 1] -> k = off[0]; off[0] = off[G - 1]; off[G - 1] = k
		:: else
		fi;
		k = 0;
		printf("MSC: clock offsets g0 %d, g1 %d (store %d)\n", off[0], off[G - 1], soff);
		for (g : 0 .. G - 1) {
			run Worker(g);
			run Backend(g)
		}
	}
}
