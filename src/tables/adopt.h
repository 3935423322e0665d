/*
 * adopt.h
 *		Adopted sequences (adopt.c): the label provider and the hooks.
 */
#ifndef UID_ADOPT_H
#define UID_ADOPT_H

extern void UidAdoptInit(void);

#endif							/* UID_ADOPT_H */
