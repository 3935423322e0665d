/*
 * counters.h
 *		The tenant counters (counters.c): their setting uid.counter_node.
 */
#ifndef UID_COUNTERS_H
#define UID_COUNTERS_H

extern void UidCountersInit(void);

#endif							/* UID_COUNTERS_H */
