/*
 * mask.h
 *		Keyed masking (mask.c): the setting uid.mask_key.
 */
#ifndef UID_MASK_H
#define UID_MASK_H

extern void UidMaskInit(void);

#endif							/* UID_MASK_H */
