/*
 * decode_test.c
 *		Unit test of src/forms/decode.c, the decoding code that the SQL functions
 *		and the uid-decode command share; run by "make check-unit".  Prints
 *		TAP; exits non-zero if any check fails.
 *
 * The known answers are the ones the pg_regress files pin at the SQL level
 * (expected/uid_layout.out, text_forms_test.out, uuid7_test.out, mask_test.out) and RFC
 * 9562's examples, so that the command and the SQL functions are held to
 * the same values.
 */
#include "postgres_fe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forms/decode.h"
#include "unit_tap.h"

/* xorshift64*: reproducible values for the round trips */
static uint64 rng_state = UINT64CONST(0x9E3779B97F4A7C15);

static uint64
Next64(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * UINT64CONST(2685821657736338717);
}

static bool
ParseUuid(const char *s, uint8 *bytes)
{
	int			n = 0;

	for (; *s && n < 32; s++)
	{
		int			v = UidHexDigitValue(*s);

		if (*s == '-')
			continue;
		if (v < 0)
			return false;
		if (n % 2 == 0)
			bytes[n / 2] = (uint8) (v << 4);
		else
			bytes[n / 2] |= (uint8) v;
		n++;
	}
	return n == 32;
}

static void
TestLayout(void)
{
	UidFields	f;
	bool		ok = true;

	check(UidDecodeFields(0, &f) && f.unix_ms == INT64CONST(1767225600000) &&
		  f.ms_since_epoch == 0 && f.worker_id == 0 && f.sequence == 0,
		  "uid 0 is 2026-01-01 00:00:00 UTC, worker 0, sequence 0 (the pinned epoch)");
	/* the README's example row */
	check(UidDecodeFields(INT64CONST(120583409050324992), &f) &&
		  f.ms_since_epoch == INT64CONST(28749325049) && f.worker_id == 1 && f.sequence == 0,
		  "120583409050324992: ms 28749325049 since the epoch, worker 1, sequence 0");
	check(UidDecodeFields(PG_INT64_MAX, &f) && f.ms_since_epoch == UID_MAX_TIME &&
		  f.worker_id == UID_MAX_WORKER && f.sequence == UID_MAX_SEQ,
		  "the largest bigint: every field at its maximum");
	check(!UidDecodeFields(-1, &f) && !UidDecodeFields(PG_INT64_MIN, &f),
		  "negative values are refused");
	for (int i = 0; i < 100000 && ok; i++)
	{
		int64		ms = (int64) (Next64() & UID_MAX_TIME);
		int			w = (int) (Next64() & UID_MAX_WORKER);
		int			q = (int) (Next64() & UID_MAX_SEQ);

		ok = UidDecodeFields(UidCompose(ms, w, q), &f) && f.ms_since_epoch == ms &&
			f.worker_id == w && f.sequence == q && f.unix_ms == ms + UID_EPOCH_MS;
	}
	check(ok, "100000 random (ms, worker, sequence): decoding gives back what was composed");
}

static void
TestUidText(void)
{
	char		buf[UID_TEXT_DIGITS + 1] = {0};
	int64		v;
	bool		ok = true;
	int			pos;

	UidTextEncodeUid(0, buf);
	check(strcmp(buf, "0000000000000") == 0, "uid text form of 0");
	UidTextEncodeUid(31, buf);
	check(strcmp(buf, "000000000000Z") == 0, "uid text form of 31");
	UidTextEncodeUid(32, buf);
	check(strcmp(buf, "0000000000010") == 0, "uid text form of 32");
	UidTextEncodeUid((uint64) PG_INT64_MAX, buf);
	check(strcmp(buf, "7ZZZZZZZZZZZZ") == 0, "uid text form of the largest bigint");
	check(memcmp(UidCrockfordDigits, "0123456789ABCDEFGHJKMNPQRSTVWXYZ", 32) == 0,
		  "the alphabet: 0-9 and A-Z without I, L, O, U, in ASCII order");

	check(UidTextDecodeUid("03b944h4m0c00", &v) && v == INT64CONST(120792503275237376),
		  "lower case reads as upper case");
	check(UidTextDecodeUid("O00000000000I", &v) && v == 1 &&
		  UidTextDecodeUid("000000000000L", &v) && v == 1,
		  "O reads as 0, I and L as 1");
	check(!UidTextDecodeUid("000000000000U", &v) && !UidTextDecodeUid("00000000000-0", &v),
		  "U and other characters are not digits");

	for (int i = 0; i < 100000 && ok; i++)
	{
		int64		x = (int64) (Next64() >> 1);

		UidTextEncodeUid((uint64) x, buf);
		ok = buf[0] <= '7' && UidTextDecodeUid(buf, &v) && v == x;
	}
	check(ok, "100000 random uids: the text form reads back, first digit at most 7");

	check(UidTextFirstProblem("03B944H4M0C00", 0, 13, 13, &pos) == UID_TEXT_OK && pos == 13,
		  "a good form has no problem");
	check(UidTextFirstProblem("03B944H4MUC00", 0, 13, 13, &pos) == UID_TEXT_BAD_CHARACTER &&
		  pos == 9, "U at offset 9: a bad character there");
	check(UidTextFirstProblem("03B944H4M0C000", 0, 14, 13, &pos) == UID_TEXT_TOO_LONG &&
		  pos == 13, "14 digits: too long at offset 13");
	check(UidTextFirstProblem("83B944H4M0C00", 0, 13, 13, &pos) == UID_TEXT_FIRST_DIGIT &&
		  pos == 0, "first digit 8: above 7");
	check(UidTextFirstProblem("  03B944H4M0C", 2, 13, 13, &pos) == UID_TEXT_TOO_SHORT &&
		  pos == 13, "11 digits after white space: too short");
	check(UidTextFirstProblem("!3B944H4M0C00", 0, 13, 26, &pos) == UID_TEXT_BAD_CHARACTER &&
		  pos == 0, "a bad character is reported before the length");
}

static void
TestUuidText(void)
{
	char		buf[UUID_TEXT_DIGITS + 1] = {0};
	uint8		b[UID_UUID_BYTES];
	uint64		hi;
	uint64		lo;
	bool		ok = true;

	UidTextEncodeUuid(0, 0, buf);
	check(strcmp(buf, "00000000000000000000000000") == 0, "uuid text form of the nil UUID");
	UidTextEncodeUuid(PG_UINT64_MAX, PG_UINT64_MAX, buf);
	check(strcmp(buf, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ") == 0, "uuid text form of the max UUID");
	ParseUuid("017f22e2-79b0-7cc3-98c4-dc0c0c07398f", b);
	UidTextEncodeUuid(UuidBytesHigh64(b), UuidBytesLow64(b), buf);
	check(strcmp(buf, "01FWHE4YDGFK1SHH6W1G60EECF") == 0,
		  "uuid text form of RFC 9562's v7 example is its ULID");
	ParseUuid("01563df3-6481-d676-4c61-efb99302bd5b", b);
	check(UidTextDecodeUuid("01ARYZ6S41TSV4RRFFQ69G5FAV", &hi, &lo) &&
		  hi == UuidBytesHigh64(b) && lo == UuidBytesLow64(b),
		  "the ULID specification's example reads as its UUID");
	for (int i = 0; i < 100000 && ok; i++)
	{
		uint64		x = Next64();
		uint64		y = Next64();

		UidTextEncodeUuid(x, y, buf);
		ok = buf[0] <= '7' && UidTextDecodeUuid(buf, &hi, &lo) && hi == x && lo == y;
	}
	check(ok, "100000 random UUIDs: the text form reads back");
	check(!UidTextDecodeUuid("01ARYZ6S41TSV4RRFFQ69G5FA!", &hi, &lo),
		  "a bad last character is noticed");
}

static void
TestUuidFields(void)
{
	uint8		b[UID_UUID_BYTES];
	UuidFields	f;
	bool		ok = true;

	ParseUuid("017f22e2-79b0-7cc3-98c4-dc0c0c07398f", b);
	UuidDecodeFields(b, &f);
	check(f.variant == 2 && f.version == 7 && f.has_time &&
		  f.unix_us == INT64CONST(1645557742000) * 1000,
		  "RFC 9562's v7 example: 2022-02-22 19:22:22 UTC, version 7, variant 2");
	ParseUuid("c232ab00-9414-11ec-b3c8-9f6bdeced846", b);
	UuidDecodeFields(b, &f);
	check(f.variant == 2 && f.version == 1 && f.has_time &&
		  f.unix_us == INT64CONST(1645557742000000),
		  "RFC 9562's v1 example: the same time");
	ParseUuid("1ec9414c-232a-6b00-b3c8-9f6bdeced846", b);
	UuidDecodeFields(b, &f);
	check(f.variant == 2 && f.version == 6 && f.has_time &&
		  f.unix_us == INT64CONST(1645557742000000),
		  "RFC 9562's v6 example: the same time");
	ParseUuid("919108f7-52d1-4320-9bac-f847db4148a8", b);
	UuidDecodeFields(b, &f);
	check(f.variant == 2 && f.version == 4 && !f.has_time, "a v4: no time");
	memset(b, 0, sizeof(b));
	UuidDecodeFields(b, &f);
	check(f.variant == 0 && f.version == -1 && !f.has_time, "the nil UUID: variant 0, no version");
	memset(b, 0xff, sizeof(b));
	UuidDecodeFields(b, &f);
	check(f.variant == 7 && f.version == -1 && !f.has_time, "the max UUID: variant 7, no version");
	b[8] = 0xc0;
	UuidDecodeFields(b, &f);
	check(f.variant == 6 && f.version == -1, "110x: the Microsoft variant");
	for (int i = 0; i < 100000 && ok; i++)
	{
		uint64		ms = Next64() >> 16;

		UuidBytesSet64(b, (ms << 16) | (UINT64CONST(7) << 12) | (Next64() & 0xfff),
					   (UINT64CONST(2) << 62) | (Next64() >> 2));
		UuidDecodeFields(b, &f);
		ok = f.version == 7 && f.variant == 2 && f.unix_us == (int64) ms * 1000 &&
			(UuidBytesHigh64(b) >> 16) == ms;
	}
	check(ok, "100000 random v7 UUIDs: the time is the top 48 bits");
}

static void
TestMask(void)
{
	static const unsigned char k128[16] = {
		0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
		0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c
	};
	EVP_CIPHER_CTX *aes = Ff1NewAes(k128, 16);
	Ff1Domain	d63;
	Ff1Domain	d122;
	int64		m;
	int64		back;
	uint8		in[UID_UUID_BYTES];
	uint8		want[UID_UUID_BYTES];
	uint64		hi;
	uint64		lo;
	uint64		hi2;
	uint64		lo2;
	uint64		ms;

	if (aes == NULL || !Ff1Prepare(aes, UID_MASK_BITS, &d63) ||
		!Ff1Prepare(aes, UUID7_MASK_BITS, &d122))
	{
		check(false, "AES-128 set up");
		return;
	}
	check(UidMaskBits63(&d63, 0, false, &m) && m == INT64CONST(7407393923982924685),
		  "uid_mask(0) under NIST's AES-128 key: sql/mask_test.sql's known answer");
	check(UidMaskBits63(&d63, INT64CONST(1234567890123456789), false, &m) &&
		  m == INT64CONST(8371732974518712854) &&
		  UidMaskBits63(&d63, m, true, &back) && back == INT64CONST(1234567890123456789),
		  "uid_mask(1234567890123456789) and back");
	ParseUuid("017f22e2-79b0-7cc3-98c4-dc0c0c07398f", in);
	ParseUuid("1a61a5b7-7874-41a4-a289-26b20db2ad65", want);
	check(UidMaskBits122(&d122, UuidBytesHigh64(in), UuidBytesLow64(in), false, &hi, &lo, &ms) &&
		  hi == UuidBytesHigh64(want) && lo == UuidBytesLow64(want),
		  "uuid7_mask() of RFC 9562's v7 example: sql/mask_test.sql's known answer");
	check(UidMaskBits122(&d122, hi, lo, true, &hi2, &lo2, &ms) &&
		  hi2 == UuidBytesHigh64(in) && lo2 == UuidBytesLow64(in) &&
		  ms == UINT64CONST(1645557742000),
		  "and unmasked: the v7 UUID and its time again");
	EVP_CIPHER_CTX_free(aes);

	check(UidHexDigitValue('0') == 0 && UidHexDigitValue('f') == 15 &&
		  UidHexDigitValue('F') == 15 && UidHexDigitValue('g') == -1 &&
		  UidHexDigitValue(' ') == -1, "hexadecimal digits of a key");
}

/* UidReadAny() of a C string */
static UidAnyProblem
ReadAny(const char *s, UidAny *a)
{
	return UidReadAny(s, (int) strlen(s), a);
}

/*
 * Every form uid writes, told apart, and what each refusal names: the
 * answers expected/decode_text_test.out pins for uid_decode(text).
 */
static void
TestReadAny(void)
{
	UidAny		a;
	uint8		want[UID_UUID_BYTES];
	const char *uuids[] = {"017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
		"017F22E279B07CC398C4DC0C0C07398F", "01FWHE4YDGFK1SHH6W1G60EECF",
		"user_01fwhe4ydgfk1shh6w1g60eecf"};
	UidForm		uuid_forms[] = {UID_FORM_UUID, UID_FORM_HEX, UID_FORM_UUID_TEXT, UID_FORM_TYPEID};
	const char *uids[] = {"120583409050324992", "03B35Z2Z40400", "03b35z2z40400",
		"order_03B35Z2Z40400", "order_line_03b35z2z40400"};
	UidForm		uid_forms[] = {UID_FORM_BIGINT, UID_FORM_TEXT, UID_FORM_TEXT,
		UID_FORM_PREFIXED, UID_FORM_PREFIXED};
	int			prefix_lens[] = {0, 0, 0, 5, 10};
	bool		ok = true;

	for (int i = 0; i < 5; i++)
		ok = ok && ReadAny(uids[i], &a) == UID_ANY_OK && a.form == uid_forms[i] &&
			!a.is_uuid && a.id == INT64CONST(120583409050324992) &&
			a.prefix_len == prefix_lens[i];
	check(ok, "120583409050324992 as bigint, text (either case) and prefixed forms");
	ParseUuid(uuids[0], want);
	ok = true;
	for (int i = 0; i < 4; i++)
		ok = ok && ReadAny(uuids[i], &a) == UID_ANY_OK && a.form == uuid_forms[i] &&
			a.is_uuid && a.hi == UuidBytesHigh64(want) && a.lo == UuidBytesLow64(want);
	check(ok && a.prefix_len == 4,
		  "RFC 9562's v7 example as 8-4-4-4-12, 32 hex digits, uuid_to_text() and a TypeID");
	check(ReadAny("1000000000000", &a) == UID_ANY_TWO_FORMS && a.form == UID_FORM_BIGINT &&
		  a.id == INT64CONST(1000000000000) && a.other_form == UID_FORM_TEXT &&
		  a.other_id == INT64CONST(1) << 60 &&
		  ReadAny("0000000000005", &a) == UID_ANY_OK && a.form == UID_FORM_BIGINT && a.id == 5 &&
		  ReadAny("8234567890123", &a) == UID_ANY_OK && a.form == UID_FORM_BIGINT &&
		  a.id == INT64CONST(8234567890123) &&
		  ReadAny("01000000000000", &a) == UID_ANY_OK && a.id == INT64CONST(1000000000000) &&
		  ReadAny("-000000000000", &a) == UID_ANY_OK && a.id == 0,
		  "13 decimal digits, the first 0-7: two forms unless both read the same; 8 or 9 "
		  "first, or 14 digits: a bigint");
	check(ReadAny("00000000000000000000000000000001", &a) == UID_ANY_OK &&
		  a.form == UID_FORM_HEX && a.hi == 0 && a.lo == 1 &&
		  ReadAny("01900000000070008000000000000001", &a) == UID_ANY_OK &&
		  a.form == UID_FORM_HEX && a.hi == UINT64CONST(0x0190000000007000) &&
		  a.lo == UINT64CONST(0x8000000000000001) &&
		  ReadAny("00000000000000000001", &a) == UID_ANY_ABOVE_BIGINT &&
		  ReadAny("-00000000000000000000", &a) == UID_ANY_NEGATIVE,
		  "32 decimal digits are a UUID; 20 or more are never a bigint");
	ParseUuid(uuids[0], want);
	check(ReadAny("05VI5OJPM1UC7664RG60O1PPHS", &a) == UID_ANY_OK &&
		  a.form == UID_FORM_BASE32HEX && a.is_uuid && a.hi == UuidBytesHigh64(want) &&
		  a.lo == UuidBytesLow64(want) &&
		  ReadAny("05vi5ojpm1uc7664rg60o1pphs======", &a) == UID_ANY_OK &&
		  a.form == UID_FORM_BASE32HEX && a.lo == UuidBytesLow64(want),
		  "PostgreSQL 19's base32hex of RFC 9562's v7 example, with and without padding");
	check(ReadAny("05VI5OJPM1UC7664RG60O1PPHT", &a) == UID_ANY_BASE32HEX && a.pos == 25 &&
		  ReadAny("05VI5OJPM1UC7664RG60O1PPH=======", &a) == UID_ANY_BASE32HEX &&
		  ReadAny("05VI5OJPM1UC7664RG60O1PPHS=====", &a) == UID_ANY_BASE32HEX,
		  "base32hex: a last digit with low bits, padding not 6");
	check(ReadAny("00000000000000000000000001", &a) == UID_ANY_OK &&
		  a.form == UID_FORM_UUID_TEXT && a.hi == 0 && a.lo == 1 &&
		  ReadAny("00000000000000000000000000", &a) == UID_ANY_OK &&
		  a.form == UID_FORM_UUID_TEXT && a.hi == 0 && a.lo == 0 &&
		  ReadAny("00000000000000000000000004", &a) == UID_ANY_TWO_FORMS &&
		  a.form == UID_FORM_UUID_TEXT && a.lo == 4 &&
		  a.other_form == UID_FORM_BASE32HEX && a.other_lo == 1 &&
		  ReadAny("90000000000000000000000004", &a) == UID_ANY_OK &&
		  a.form == UID_FORM_BASE32HEX,
		  "26 characters: a text form, base32hex, both (refused unless one value), by first and last digit");
	check(ReadAny("01KF7EGVDBEM7BBHJRC8FF7TJ4", &a) == UID_ANY_OK &&
		  a.form == UID_FORM_UUID_TEXT && a.hi == UINT64CONST(0x019bcee86dab750e) &&
		  a.lo == UINT64CONST(0xb5c658621ef3ea44) &&
		  ReadAny("05VI5OJPM1QIT2D7GD6V59QDSG", &a) == UID_ANY_OK &&
		  a.form == UID_FORM_BASE32HEX && a.hi == UINT64CONST(0x017f22e279b0752e) &&
		  a.lo == UINT64CONST(0x89a7834df2a74de4),
		  "26 characters of both readings: a v7 is taken over a reading that is no UUID of RFC 9562");
	check(ReadAny("0TB4ICFDPS8GJAJDAL3QT5J1IC", &a) == UID_ANY_TWO_FORMS &&
		  a.hi == UINT64CONST(0x1a5902c7b6d94424) && a.other_form == UID_FORM_BASE32HEX &&
		  a.other_hi == UINT64CONST(0x07564931edcf1109) &&
		  a.other_lo == UINT64CONST(0xaa6d5547ae966193),
		  "a v1 in base32hex whose text form reading is a v4: refused, never taken for the v4");
	check(ReadAny("-0", &a) == UID_ANY_OK && a.id == 0 &&
		  ReadAny("-5", &a) == UID_ANY_NEGATIVE &&
		  ReadAny("-99999999999999999999", &a) == UID_ANY_NEGATIVE &&
		  ReadAny("99999999999999999999", &a) == UID_ANY_ABOVE_BIGINT &&
		  ReadAny("9223372036854775807", &a) == UID_ANY_OK && a.id == PG_INT64_MAX &&
		  ReadAny("9223372036854775808", &a) == UID_ANY_ABOVE_BIGINT,
		  "negative numbers and numbers beyond bigint");
	check(ReadAny("", &a) == UID_ANY_EMPTY && ReadAny("hello", &a) == UID_ANY_UNKNOWN &&
		  ReadAny("017f22e2-79b0-7cc3-98c4-dc0c0c07398", &a) == UID_ANY_UUID,
		  "empty, nothing like a form, a malformed UUID");
	check(ReadAny("03B35Z2Z4040U", &a) == UID_ANY_TEXT && a.ndigits == 13 &&
		  a.text_problem == UID_TEXT_BAD_CHARACTER && a.pos == 12 &&
		  ReadAny("83B35Z2Z40400", &a) == UID_ANY_TEXT && a.text_problem == UID_TEXT_FIRST_DIGIT &&
		  ReadAny("01FWHE4YDGFK1SHH6W1G60EEC", &a) == UID_ANY_TEXT && a.ndigits == 26 &&
		  a.text_problem == UID_TEXT_TOO_SHORT,
		  "text forms: a bad character (position), a first digit above 7, too short");
	check(ReadAny("Order_03B35Z2Z40400", &a) == UID_ANY_PREFIXED &&
		  a.prefixed_problem == UID_PREFIXED_PREFIX &&
		  a.prefixed.prefix_problem == UID_PREFIX_BAD_CHARACTER && a.prefixed.pos == 0 &&
		  ReadAny("order__03B35Z2Z40400", &a) == UID_ANY_PREFIXED &&
		  a.prefixed.prefix_problem == UID_PREFIX_LAST_UNDERSCORE &&
		  ReadAny("_03B35Z2Z40400", &a) == UID_ANY_PREFIXED &&
		  a.prefixed_problem == UID_PREFIXED_NO_PREFIX &&
		  ReadAny("order_03B35Z2Z404", &a) == UID_ANY_PREFIXED &&
		  a.prefixed_problem == UID_PREFIXED_LENGTH && !a.strict &&
		  ReadAny("order_83B35Z2Z40400", &a) == UID_ANY_PREFIXED &&
		  a.prefixed_problem == UID_PREFIXED_FIRST_DIGIT,
		  "prefixed uid forms: the prefix's character and underscores, no prefix, length, first digit");
	check(ReadAny("user_01H455VB4PEX5VSKNK084SN02Q", &a) == UID_ANY_PREFIXED && a.strict &&
		  a.prefixed_problem == UID_PREFIXED_BAD_DIGIT && a.prefixed.pos == 7 &&
		  ReadAny("user_81h455vb4pex5vsknk084sn02q", &a) == UID_ANY_PREFIXED &&
		  a.prefixed_problem == UID_PREFIXED_FIRST_DIGIT,
		  "TypeIDs: lower case only, as the specification says; a first digit above 7");
	check(UidSmallNote(0) != NULL && UidSmallNote(INT64CONST(362387865599999)) != NULL &&
		  UidSmallNote(INT64CONST(362387865600000)) == NULL &&
		  UidSmallNote(INT64CONST(120583409050324992)) == NULL,
		  "the note for uids below 362387865600000, the epoch's first day");
	check(strcmp(UidFormNames[UID_FORM_BIGINT], "bigint") == 0 &&
		  strcmp(UidFormNames[UID_FORM_TYPEID], "typeid") == 0 &&
		  strcmp(UidFormNames[UID_FORM_UUID_TEXT], "uuid_text") == 0,
		  "the names of the forms");
}

int
main(void)
{
	TestLayout();
	TestUidText();
	TestUuidText();
	TestUuidFields();
	TestMask();
	TestReadAny();
	return check_done("decode_test");
}
