/*
 * time_filter.h
 *		Time filters on IDs use the index on the ID (time_filter.c): the
 *		planner hook and its setting, installed also without preloading.
 */
#ifndef UID_TIME_FILTER_H
#define UID_TIME_FILTER_H

extern void UidTimeFilterInit(void);

#endif							/* UID_TIME_FILTER_H */
