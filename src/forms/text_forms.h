/*
 * text_forms.h
 *		The quoting of text forms in error messages (text_forms.c), which
 *		the prefixed forms of typeid.c share, and the refusal of a text form,
 *		which uid_decode(text) shares.
 */
#ifndef UID_TEXT_FORMS_H
#define UID_TEXT_FORMS_H

#include "compat.h"

/*
 * s[0, len) for an error message: each character of the server encoding as
 * it is, each other byte as \xNN.
 */
extern char *UidTextQuoted(const char *s, int len);

/*
 * The length in bytes of the character at byte offset pos of s[0, len),
 * as UidTextQuoted() reads it (under SQL_ASCII, a run of up to 4 bytes
 * above 0x7f).
 */
extern int	UidTextCharLen(const char *s, int len, int pos);

/*
 * Refuses (22P02) the text form s[0, len) of a uid (ndigits 13, kind "uid")
 * or a UUID (26, "uuid"), naming its first problem; [start, end) is the
 * form without surrounding white space.
 */
extern UidNoReturn void UidTextRefuse(const char *kind, const char *s, int len,
									  int start, int end, int ndigits);

#endif							/* UID_TEXT_FORMS_H */
