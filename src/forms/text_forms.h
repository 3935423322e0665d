/*
 * text_forms.h
 *		The quoting of text forms in error messages (text_forms.c), which
 *		the prefixed forms of typeid.c share.
 */
#ifndef UID_TEXT_FORMS_H
#define UID_TEXT_FORMS_H

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

#endif							/* UID_TEXT_FORMS_H */
