/*
 * decode.c
 *		The one implementation of reading the forms of IDs back, shared by
 *		the SQL functions (text_forms.c, typeid.c, decode_text.c, mask.c)
 *		and the uid-decode command (uid_decode.c); the fields of the IDs
 *		themselves are read by id_layout.c, below it.  Pure functions of
 *		their input: no memory allocation, no errors raised; each reports a
 *		problem by its return value, and the caller decides how to tell the
 *		user.
 *
 * Builds in the server and, with -DFRONTEND, in the command and the unit
 * test (test/unit/decode_test.c).
 */
#ifndef FRONTEND
#include "postgres.h"
#else
#include "postgres_fe.h"
#endif

#include "forms/decode.h"

/* ---- Crockford base32 ---- */

const char	UidCrockfordDigits[32] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

#define NO_DIGIT	UID_CROCKFORD_NO_DIGIT
#define NO_DIGITS_16 \
	NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT, \
	NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT

const uint8 UidCrockfordValues[256] = {
	NO_DIGITS_16, NO_DIGITS_16, NO_DIGITS_16,
	/* 0-9 */
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT,
	/* @ A B C D E F G H I J K L M N O */
	NO_DIGIT, 10, 11, 12, 13, 14, 15, 16, 17, 1, 18, 19, 1, 20, 21, 0,
	/* P Q R S T U V W X Y Z */
	22, 23, 24, 25, 26, NO_DIGIT, 27, 28, 29, 30, 31, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT,
	/* ` a b c d e f g h i j k l m n o */
	NO_DIGIT, 10, 11, 12, 13, 14, 15, 16, 17, 1, 18, 19, 1, 20, 21, 0,
	/* p q r s t u v w x y z */
	22, 23, 24, 25, 26, NO_DIGIT, 27, 28, 29, 30, 31, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT, NO_DIGIT,
	/* bytes 128..255 */
	NO_DIGITS_16, NO_DIGITS_16, NO_DIGITS_16, NO_DIGITS_16,
	NO_DIGITS_16, NO_DIGITS_16, NO_DIGITS_16, NO_DIGITS_16,
};

void
UidTextEncodeUid(uint64 id, char *out)
{
	UidCrockfordEncode64(id, UID_TEXT_DIGITS, out);
}

/*
 * The 128 bits are 3 + 125: digits 0..12 are the top 63 bits, digit 13 the
 * next 5 (1 from the high word, 4 from the low one), digits 14..25 the last
 * 60.  For a v7, this is its ULID.
 */
void
UidTextEncodeUuid(uint64 hi, uint64 lo, char *out)
{
	UidCrockfordEncode64(hi >> 1, 13, out);
	out[13] = UidCrockfordDigits[((hi & 1) << 4) | (lo >> 60)];
	UidCrockfordEncode64(lo, 12, out + 14);
}

bool
UidTextDecodeUid(const char *s, int64 *id)
{
	uint8		seen = 0;
	uint64		v = UidCrockfordDecode64(s, UID_TEXT_DIGITS, &seen);

	*id = (int64) v;
	return (seen & 0x80) == 0;
}

bool
UidTextDecodeUuid(const char *s, uint64 *hi, uint64 *lo)
{
	uint8		seen = 0;
	uint64		top = UidCrockfordDecode64(s, 13, &seen);
	uint64		mid = UidCrockfordDecode64(s + 13, 1, &seen);
	uint64		low = UidCrockfordDecode64(s + 14, 12, &seen);

	*hi = (top << 1) | (mid >> 4);
	*lo = (mid << 60) | low;
	return (seen & 0x80) == 0;
}

UidTextProblem
UidTextFirstProblem(const char *s, int start, int end, int ndigits, int *pos)
{
	for (int i = start; i < end; i++)
	{
		int			d = UidCrockfordValues[(unsigned char) s[i]];

		*pos = i;
		if (d == NO_DIGIT)
			return UID_TEXT_BAD_CHARACTER;
		if (i - start == ndigits)
			return UID_TEXT_TOO_LONG;
		if (i == start && d > 7)
			return UID_TEXT_FIRST_DIGIT;
	}
	*pos = end;
	return end - start == ndigits ? UID_TEXT_OK : UID_TEXT_TOO_SHORT;
}

/* ---- prefixed forms ---- */

/* the digits of a TypeID: Crockford's, in lower case */
static const char typeid_digits[32] = "0123456789abcdefghjkmnpqrstvwxyz";

UidPrefixProblem
UidPrefixFirstProblem(const char *s, int len, int *pos)
{
	for (int i = 0; i < len; i++)
	{
		if ((s[i] < 'a' || s[i] > 'z') && s[i] != '_')
		{
			*pos = i;
			return UID_PREFIX_BAD_CHARACTER;
		}
	}
	if (len > 0 && s[0] == '_')
		return UID_PREFIX_FIRST_UNDERSCORE;
	if (len > 0 && s[len - 1] == '_')
		return UID_PREFIX_LAST_UNDERSCORE;
	if (len > UID_PREFIX_MAX)
		return UID_PREFIX_TOO_LONG;
	return UID_PREFIX_OK;
}

/*
 * A TypeID takes only the lower-case digits; the 64-bit form reads what
 * uid_from_text() reads.
 */
int
UidPrefixedDigit(char c, bool strict)
{
	int			d = UidCrockfordValues[(unsigned char) c];

	if (strict && d != NO_DIGIT && typeid_digits[d] != c)
		return NO_DIGIT;
	return d;
}

/*
 * Since the digits hold no underscore, the last underscore of a form is its
 * separator.
 */
UidPrefixedProblem
UidPrefixedParse(const char *s, int len, int ndigits, bool strict, UidPrefixed *p)
{
	int			sep = -1;

	for (int i = len - 1; i >= 0; i--)
	{
		if (s[i] == '_')
		{
			sep = i;
			break;
		}
	}
	p->prefix_len = sep < 0 ? 0 : sep;
	p->digits = sep + 1;
	p->prefix_problem = UID_PREFIX_OK;
	p->pos = 0;
	if (len == 0)
		return UID_PREFIXED_EMPTY;
	if (sep == 0)
		return UID_PREFIXED_NO_PREFIX;
	p->prefix_problem = UidPrefixFirstProblem(s, p->prefix_len, &p->pos);
	if (p->prefix_problem != UID_PREFIX_OK)
		return UID_PREFIXED_PREFIX;
	for (int i = p->digits; i < len; i++)
	{
		if (UidPrefixedDigit(s[i], strict) == NO_DIGIT)
		{
			p->pos = i;
			return UID_PREFIXED_BAD_DIGIT;
		}
	}
	if (len - p->digits != ndigits)
		return UID_PREFIXED_LENGTH;
	if (UidPrefixedDigit(s[p->digits], strict) > 7)
		return UID_PREFIXED_FIRST_DIGIT;
	return UID_PREFIXED_OK;
}

/* ---- any form ---- */

const char *const UidFormNames[] = {
	"bigint", "text", "prefixed", "uuid", "hex", "uuid_text", "typeid", "base32hex"
};

/* 32 hexadecimal digits, with the hyphens at 8, 13, 18, 23 when len is 36 */
static bool
ReadUuidHex(const char *s, int len, uint64 *hi, uint64 *lo)
{
	uint8		bytes[UID_UUID_BYTES];
	int			nibbles = 0;

	for (int i = 0; i < len; i++)
	{
		int			d;

		if (len == 36 && (i == 8 || i == 13 || i == 18 || i == 23))
		{
			if (s[i] != '-')
				return false;
			continue;
		}
		d = UidHexDigitValue(s[i]);
		if (d < 0 || nibbles == 32)
			return false;
		if (nibbles % 2 == 0)
			bytes[nibbles / 2] = (uint8) (d << 4);
		else
			bytes[nibbles / 2] |= (uint8) d;
		nibbles++;
	}
	if (nibbles != 32)
		return false;
	*hi = UuidBytesHigh64(bytes);
	*lo = UuidBytesLow64(bytes);
	return true;
}

/* The value of a base32hex digit (0-9, A-V, either case), or -1 */
static int
Base32HexValue(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'V')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'v')
		return c - 'a' + 10;
	return -1;
}

/*
 * The UUID of 26 base32hex digits: 130 bits, the UUID's 128 first, so the
 * last digit's two low bits are zero.  False, with *pos at the first digit
 * that is none or at the last digit, if it is not one.
 */
static bool
ReadBase32Hex(const char *s, uint64 *hi, uint64 *lo, int *pos)
{
	uint64		h = 0;
	uint64		l = 0;

	for (int i = 0; i < UUID_TEXT_DIGITS; i++)
	{
		int			d = Base32HexValue(s[i]);
		int			shift = i == UUID_TEXT_DIGITS - 1 ? 3 : 5;

		*pos = i;
		if (d < 0)
			return false;
		if (i == UUID_TEXT_DIGITS - 1)
		{
			if ((d & 3) != 0)
				return false;
			d >>= 2;
		}
		h = (h << shift) | (l >> (64 - shift));
		l = (l << shift) | (uint64) d;
	}
	*hi = h;
	*lo = l;
	return true;
}

/* A UUID of RFC 9562: variant 0b10, a version from 1 to 8 */
static bool
IsRfc9562(uint64 hi, uint64 lo)
{
	uint64		version = (hi >> 12) & 0xF;

	return (lo >> 62) == 2 && version >= 1 && version <= 8;
}

/*
 * Whether the reading hi, lo of a 26-character string that reads as two
 * UUIDs is taken over the other one, ohi, olo: it is of RFC 9562 and of
 * version 4 or 7, the two that PostgreSQL makes, and the other is no UUID
 * of RFC 9562.  So a UUID of RFC 9562 is never read as another one.
 */
static bool
TakenOver(uint64 hi, uint64 lo, uint64 ohi, uint64 olo)
{
	uint64		version = (hi >> 12) & 0xF;

	return IsRfc9562(hi, lo) && (version == 4 || version == 7) && !IsRfc9562(ohi, olo);
}

/*
 * 26 characters without an underscore or a hyphen: uuid_to_text(), or
 * base32hex without its padding, or both (the rule in decode.h).
 */
static UidAnyProblem
ReadAny26(const char *s, UidAny *a)
{
	uint64		chi = 0,
				clo = 0,
				hhi = 0,
				hlo = 0;
	int			hpos;
	bool		text_ok;
	bool		hex_ok;

	a->ndigits = UUID_TEXT_DIGITS;
	a->text_problem = UidTextFirstProblem(s, 0, UUID_TEXT_DIGITS, UUID_TEXT_DIGITS, &a->pos);
	text_ok = a->text_problem == UID_TEXT_OK;
	if (text_ok)
		UidTextDecodeUuid(s, &chi, &clo);
	hex_ok = ReadBase32Hex(s, &hhi, &hlo, &hpos);
	a->is_uuid = true;
	if (text_ok && hex_ok && (chi != hhi || clo != hlo) &&
		!TakenOver(chi, clo, hhi, hlo) && !TakenOver(hhi, hlo, chi, clo))
	{
		a->form = UID_FORM_UUID_TEXT;
		a->hi = chi;
		a->lo = clo;
		a->other_form = UID_FORM_BASE32HEX;
		a->other_hi = hhi;
		a->other_lo = hlo;
		return UID_ANY_TWO_FORMS;
	}
	if (text_ok && (!hex_ok || !TakenOver(hhi, hlo, chi, clo)))
	{
		a->form = UID_FORM_UUID_TEXT;
		a->hi = chi;
		a->lo = clo;
		return UID_ANY_OK;
	}
	if (hex_ok)
	{
		a->form = UID_FORM_BASE32HEX;
		a->hi = hhi;
		a->lo = hlo;
		return UID_ANY_OK;
	}
	a->is_uuid = false;
	/* base32hex digits up to a last letter or digit that ends no UUID */
	if (hpos == UUID_TEXT_DIGITS - 1 &&
		((s[hpos] >= '0' && s[hpos] <= '9') || (s[hpos] >= 'A' && s[hpos] <= 'Z') ||
		 (s[hpos] >= 'a' && s[hpos] <= 'z')))
	{
		a->pos = hpos;
		return UID_ANY_BASE32HEX;
	}
	return UID_ANY_TEXT;
}

UidAnyProblem
UidReadAny(const char *s, int len, UidAny *a)
{
	bool		negative = len > 1 && s[0] == '-';
	bool		digits = len > 0;

	memset(a, 0, sizeof(*a));
	if (len == 0)
		return UID_ANY_EMPTY;
	for (int i = negative ? 1 : 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			digits = false;

	/*
	 * decimal digits: a bigint, at most 19 of them; 32 are a UUID, 26 a UUID
	 * text form, and 13 may be a uid's text form as well
	 */
	if (digits && (negative || (len != UUID_TEXT_DIGITS && len != 32)))
	{
		uint64		v = 0;

		if (len - (negative ? 1 : 0) > 19)
			return negative ? UID_ANY_NEGATIVE : UID_ANY_ABOVE_BIGINT;
		for (int i = negative ? 1 : 0; i < len; i++)
		{
			if (v > (UINT64CONST(0x7fffffffffffffff) - (uint64) (s[i] - '0')) / 10)
				return negative ? UID_ANY_NEGATIVE : UID_ANY_ABOVE_BIGINT;
			v = v * 10 + (uint64) (s[i] - '0');
		}
		if (negative && v != 0)
			return UID_ANY_NEGATIVE;
		a->form = UID_FORM_BIGINT;
		a->id = (int64) v;
		if (!negative && len == UID_TEXT_DIGITS && s[0] <= '7')
		{
			UidTextDecodeUid(s, &a->other_id);
			if (a->other_id != a->id)
			{
				a->other_form = UID_FORM_TEXT;
				return UID_ANY_TWO_FORMS;
			}
		}
		return UID_ANY_OK;
	}

	/* an underscore: a prefixed form, a TypeID if 26 digits follow it */
	if (memchr(s, '_', len) != NULL)
	{
		const char *sep = s + len;

		while (sep[-1] != '_')
			sep--;
		a->strict = s + len - sep == UUID_TEXT_DIGITS;
		a->ndigits = a->strict ? UUID_TEXT_DIGITS : UID_TEXT_DIGITS;
		a->prefixed_problem = UidPrefixedParse(s, len, a->ndigits, a->strict, &a->prefixed);
		if (a->prefixed_problem != UID_PREFIXED_OK)
			return UID_ANY_PREFIXED;
		a->prefix_len = a->prefixed.prefix_len;
		if (a->strict)
		{
			a->form = UID_FORM_TYPEID;
			a->is_uuid = true;
			UidTextDecodeUuid(s + a->prefixed.digits, &a->hi, &a->lo);
		}
		else
		{
			a->form = UID_FORM_PREFIXED;
			UidTextDecodeUid(s + a->prefixed.digits, &a->id);
		}
		return UID_ANY_OK;
	}

	/* a UUID, with or without hyphens */
	if ((len == 36 || len == 32) && ReadUuidHex(s, len, &a->hi, &a->lo))
	{
		a->form = len == 36 ? UID_FORM_UUID : UID_FORM_HEX;
		a->is_uuid = true;
		return UID_ANY_OK;
	}

	/* padding: base32hex as encode() writes it, 26 digits and 6 '=' */
	if (memchr(s, '=', len) != NULL)
	{
		int			pads = 0;

		while (pads < len && s[len - 1 - pads] == '=')
			pads++;
		if (len == 32 && pads == 6 && ReadBase32Hex(s, &a->hi, &a->lo, &a->pos))
		{
			a->form = UID_FORM_BASE32HEX;
			a->is_uuid = true;
			return UID_ANY_OK;
		}
		a->pos = -1;
		return UID_ANY_BASE32HEX;
	}
	if (memchr(s, '-', len) != NULL || len == 32 || len == 36)
		return UID_ANY_UUID;

	if (len == UUID_TEXT_DIGITS)
		return ReadAny26(s, a);

	/* a text form, or what is nearest */
	if (len >= UID_TEXT_DIGITS - 3 && len <= UID_TEXT_DIGITS + 3)
		a->ndigits = UID_TEXT_DIGITS;
	else if (len >= UUID_TEXT_DIGITS - 3 && len <= UUID_TEXT_DIGITS + 3)
		a->ndigits = UUID_TEXT_DIGITS;
	else
		return UID_ANY_UNKNOWN;
	a->text_problem = UidTextFirstProblem(s, 0, len, a->ndigits, &a->pos);
	if (a->text_problem != UID_TEXT_OK)
		return UID_ANY_TEXT;
	a->form = UID_FORM_TEXT;
	UidTextDecodeUid(s, &a->id);
	return UID_ANY_OK;
}

/* A UUID as 8-4-4-4-12, in buf of 37 bytes */
static void
FormatUuid(uint64 hi, uint64 lo, char *buf)
{
	snprintf(buf, 37, "%08x-%04x-%04x-%04x-%012llx",
			 (unsigned int) (hi >> 32), (unsigned int) ((hi >> 16) & 0xffff),
			 (unsigned int) (hi & 0xffff), (unsigned int) (lo >> 48),
			 (unsigned long long) (lo & UINT64CONST(0xffffffffffff)));
}

void
UidAnyExplain(const char *s, int len, UidAnyProblem problem, const UidAny *a,
			  char *msg, size_t msglen, char *hint, size_t hintlen)
{
	char		one[37];
	char		two[37];
	char		typeid[UUID_TEXT_DIGITS + 1];

	msg[0] = '\0';
	hint[0] = '\0';
	if (problem == UID_ANY_TWO_FORMS && !a->is_uuid)
	{
		/* 13 decimal digits, the first 0-7: only digits, so quoted as they are */
		snprintf(msg, msglen, "reads as two forms: as a bigint, uid %lld; as the "
				 "13-character text form of uid_to_text(), uid %lld",
				 (long long) a->id, (long long) a->other_id);
		snprintf(hint, hintlen, "Say which: uid_decode('%.*s'::bigint) or "
				 "uid_decode(uid_from_text('%.*s')); or, also to uid-decode, 0%.*s "
				 "(a leading zero) for the bigint, x_%.*s (a prefixed form) for the "
				 "text form.", len, s, len, s, len, s, len, s);
	}
	else if (problem == UID_ANY_TWO_FORMS)
	{
		/* 26 characters of 0-9 and A-V: quoted as they are */
		FormatUuid(a->hi, a->lo, one);
		FormatUuid(a->other_hi, a->other_lo, two);
		snprintf(msg, msglen, "reads as two forms: as the 26-character text form of "
				 "uuid_to_text(), UUID %s; as base32hex (PostgreSQL 19's "
				 "encode(u::bytea, 'base32hex') without its padding), UUID %s",
				 one, two);
		/* the text form's reading as a TypeID's digits */
		UidTextEncodeUuid(a->hi, a->lo, typeid);
		for (int i = 0; i < UUID_TEXT_DIGITS; i++)
			if (typeid[i] >= 'A' && typeid[i] <= 'Z')
				typeid[i] = (char) (typeid[i] - 'A' + 'a');
		typeid[UUID_TEXT_DIGITS] = '\0';
		snprintf(hint, hintlen, "Say which: uid_decode(uuid_from_text('%.*s')) for the "
				 "text form; or, also to uid-decode, the text form as a TypeID, x_%s, or "
				 "base32hex with its padding, %.*s======.", len, s, typeid, len, s);
	}
	else if (problem == UID_ANY_BASE32HEX)
	{
		if (a->pos >= 0)
			snprintf(msg, msglen, "is neither a text form of uuid_to_text() nor a base32hex "
					 "UUID: its last digit, \"%c\", is not one of 0 4 8 C G K O S (26 "
					 "base32hex digits hold 130 bits, a UUID 128, the last 2 zero)", s[a->pos]);
		else
			snprintf(msg, msglen, "is not a base32hex UUID: a padded base32hex UUID is 26 "
					 "digits of 0-9 and A-V, the last one of 0 4 8 C G K O S, and 6 \"=\"");
		snprintf(hint, hintlen, "Pass the UUID as PostgreSQL 19 writes it: "
				 "encode(u::bytea, 'base32hex'), with or without the padding.");
	}
}

const char *
UidSmallNote(int64 id)
{
	if (id >= 0 && UidIdMs(id) < UID_FIRST_DAY_MS)
		return "below 362387865600000, so its time is in the first day of the uid "
			"epoch (2026-01-01 UTC): likely not an ID uid_next() issued";
	return NULL;
}

/* ---- masked forms ---- */

#define LOW_BITS(n)		((UINT64CONST(1) << (n)) - 1)

int
UidHexDigitValue(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool
UidMaskBits63(const Ff1Domain *dom, int64 in, bool unmask, int64 *out)
{
	Ff1Value	x = {0, (uint64) in};
	Ff1Value	y;

	if (!(unmask ? Ff1Decrypt(dom, x, &y) : Ff1Encrypt(dom, x, &y)))
		return false;
	*out = (int64) y.lo;
	return true;
}

bool
UidMaskBits122(const Ff1Domain *dom, uint64 hi, uint64 lo, bool unmask,
			   uint64 *out_hi, uint64 *out_lo, uint64 *ms)
{
	uint64		t = hi >> 16;
	uint64		rand_a = hi & LOW_BITS(12);
	uint64		rand_b = lo & LOW_BITS(62);
	Ff1Value	x;
	Ff1Value	y;

	x.hi = (t << 10) | (rand_a >> 2);
	x.lo = (rand_a << 62) | rand_b;
	if (!(unmask ? Ff1Decrypt(dom, x, &y) : Ff1Encrypt(dom, x, &y)))
		return false;
	t = y.hi >> 10;
	rand_a = ((y.hi & LOW_BITS(10)) << 2) | (y.lo >> 62);
	rand_b = y.lo & LOW_BITS(62);
	*out_hi = (t << 16) | ((uint64) (unmask ? 7 : 4) << 12) | rand_a;
	*out_lo = (UINT64CONST(2) << 62) | rand_b;
	*ms = t;
	return true;
}
