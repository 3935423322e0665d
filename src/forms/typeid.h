/*
 * typeid.h
 *		The refusal of a malformed prefixed form (typeid.c), which
 *		uid_decode(text) shares, so that a TypeID or a prefixed uid form
 *		pasted into it is refused with the words of uuid_from_typeid() and
 *		uid_from_text(form, prefix).
 */
#ifndef UID_TYPEID_H
#define UID_TYPEID_H

#include "compat.h"
#include "forms/decode.h"

/*
 * Refuses (22P02) the prefixed form s[0, len), a TypeID if strict, for its
 * first problem as UidPrefixedParse() (decode.c) found it.
 */
extern UidNoReturn void UidPrefixedRefuse(bool strict, const char *s, int len,
										  UidPrefixedProblem problem,
										  const UidPrefixed *p);

#endif							/* UID_TYPEID_H */
