/*
 * uid_decode.c
 *		uid-decode: reads uid IDs and UUIDs out of logs and tickets without a
 *		server.  For each ID given as an argument, or one per line on
 *		standard input, in any form uid writes (decimal, text, prefixed,
 *		UUID, UUID text, TypeID, base32hex), it prints what kind of ID it
 *		is, the form it read and what it holds: time, worker id and
 *		sequence of a uid; time, version and variant of a UUID.  With --key-file, masked forms
 *		(uid_mask(), uuid7_mask()) are unmasked first.  --json prints one
 *		JSON object per line, 64-bit IDs as strings.
 *
 * Every field, and the telling apart of the forms (UidReadAny()), comes
 * from decode.c, the code the SQL functions use (uid_decode(text)); this
 * file only reads input, words the refusals and prints.  A bad input is a
 * message naming it, and the exit status is 1; the next input is read
 * regardless.  Exit status 2: bad options or key file.
 */
#include "postgres_fe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>

#include "forms/decode.h"

#ifndef UID_VERSION
#define UID_VERSION "unknown"
#endif

#define EXIT_BAD_INPUT	1
#define EXIT_USAGE		2

/* longest input echoed back in a message (the rest is cut, with "...") */
#define ECHO_MAX		80

/* room for a hint */
#define HINT_MAX		512

static bool json = false;

/* the prepared key of --key-file */
static bool have_key = false;
static Ff1Domain key63;
static Ff1Domain key122;

/* what one input was read as */
typedef struct Decoded
{
	UidAny		in;				/* the form read and its value (masked, if masked) */
	const char *input;			/* the input, for the prefix */
	bool		masked;			/* unmasked with the key */
	/* the value decoded */
	int64		id;
	UidFields	uid;
	uint64		hi;
	uint64		lo;
	UuidFields	uuid;
} Decoded;

static void
usage(void)
{
	printf("uid-decode reads uid IDs and UUIDs without a database.\n"
		   "\n"
		   "Usage:\n"
		   "  uid-decode [OPTION]... [ID]...\n"
		   "  grep -o ... logfile | uid-decode [OPTION]...\n"
		   "\n"
		   "Without ID arguments, IDs are read from standard input, one per line\n"
		   "(surrounding white space ignored, empty lines skipped).  An ID is any\n"
		   "form uid writes:\n"
		   "  a uid           a non-negative bigint (1 to 19 decimal digits), its\n"
		   "                  13-character text form (uid_to_text()), or a prefix,\n"
		   "                  an underscore and that form (uid_to_text(id, prefix))\n"
		   "  a UUID          8-4-4-4-12 or 32 hexadecimal digits, its 26-character\n"
		   "                  text form (uuid_to_text(), a ULID for v7), a TypeID\n"
		   "                  (uuid_to_typeid(u, prefix)), or PostgreSQL's base32hex\n"
		   "                  (26 characters, or 32 with its padding)\n"
		   "An input that reads as two forms (13 decimal digits, the first 0-7, are\n"
		   "also a text form) is refused with a hint that says how to pick one.\n"
		   "For each, it prints the kind and the form it read, the time (UTC, to the\n"
		   "ms), and for a uid its worker id and sequence (with a note if it is too\n"
		   "small to be one uid_next() issued), for a UUID its version and variant.\n"
		   "\n"
		   "Options:\n"
		   "  --json            one JSON object per input and line, errors included;\n"
		   "                    64-bit IDs are JSON strings (JavaScript rounds numbers\n"
		   "                    above 2^53)\n"
		   "  --key-file=FILE   unmask masked forms with the key in FILE (32, 48 or 64\n"
		   "                    hexadecimal digits, as uid.mask_key): every uid is\n"
		   "                    read as a uid_mask() value, every version 4 UUID as a\n"
		   "                    uuid7_mask() value\n"
		   "  --help            show this help, then exit\n"
		   "  --version         show the version, then exit\n"
		   "\n"
		   "Exit status: 0 if every ID was decoded, 1 if one or more could not be\n"
		   "(an empty argument, or standard input without an ID, included), 2 for\n"
		   "bad options or an unusable key file.\n");
}

/* ---- printing ---- */

/* The input as it may be shown: printable ASCII, the rest as \xNN, cut. */
static void
PrintEchoed(FILE *out, const char *s, size_t len)
{
	size_t		n = len > ECHO_MAX ? ECHO_MAX : len;

	for (size_t i = 0; i < n; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if (c >= 0x20 && c < 0x7f)
			fputc(c, out);
		else
			fprintf(out, "\\x%02X", c);
	}
	if (len > n)
		fputs("...", out);
}

/* A JSON string of the input (bytes outside printable ASCII as \u00NN). */
static void
PrintJsonString(const char *s, size_t len)
{
	putchar('"');
	for (size_t i = 0; i < len; i++)
	{
		unsigned char c = (unsigned char) s[i];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			putchar(c);
		else
			printf("\\u%04x", c);
	}
	putchar('"');
}

/* Unix ms as "2026-11-29 17:55:25.049" (sep ' ') or "...T...Z" (sep 'T') */
static void
FormatTime(int64 unix_ms, char sep, char *buf, size_t buflen)
{
	int64		secs = unix_ms / 1000;
	int			ms = (int) (unix_ms % 1000);
	time_t		t;
	struct tm	tm;

	if (ms < 0)
	{
		ms += 1000;
		secs--;
	}
	t = (time_t) secs;
	if (gmtime_r(&t, &tm) == NULL)
	{
		snprintf(buf, buflen, "(out of range)");
		return;
	}
	snprintf(buf, buflen, "%04d-%02d-%02d%c%02d:%02d:%02d.%03d%s",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, sep,
			 tm.tm_hour, tm.tm_min, tm.tm_sec, ms, sep == 'T' ? "Z" : " UTC");
}

static void
FormatUuid(uint64 hi, uint64 lo, char *buf)
{
	snprintf(buf, 37, "%08x-%04x-%04x-%04x-%012llx",
			 (unsigned int) (hi >> 32), (unsigned int) ((hi >> 16) & 0xffff),
			 (unsigned int) (hi & 0xffff), (unsigned int) (lo >> 48),
			 (unsigned long long) (lo & UINT64CONST(0xffffffffffff)));
}

/* the ms of a UUID time in us, rounded down */
static int64
UsToMs(int64 us)
{
	return us / 1000 - (us % 1000 < 0 ? 1 : 0);
}

/* How the text output names a form */
static const char *
FormDescription(UidForm form)
{
	switch (form)
	{
		case UID_FORM_BIGINT:
			return "bigint";
		case UID_FORM_TEXT:
			return "13-character text form";
		case UID_FORM_PREFIXED:
			return "prefixed text form";
		case UID_FORM_UUID:
			return "8-4-4-4-12";
		case UID_FORM_HEX:
			return "32 hexadecimal digits";
		case UID_FORM_UUID_TEXT:
			return "26-character text form";
		case UID_FORM_TYPEID:
			return "TypeID";
		case UID_FORM_BASE32HEX:
			return "base32hex";
	}
	return "?";
}

/* The form line: its name, and the prefix of a prefixed form */
static void
PrintForm(const Decoded *d)
{
	if (json)
	{
		printf(",\"form\":\"%s\"", UidFormNames[d->in.form]);
		if (d->in.form == UID_FORM_PREFIXED || d->in.form == UID_FORM_TYPEID)
		{
			printf(",\"prefix\":");
			PrintJsonString(d->input, (size_t) d->in.prefix_len);
		}
		return;
	}
	printf("  form       %s", UidFormNames[d->in.form]);
	if (d->in.form == UID_FORM_PREFIXED || d->in.form == UID_FORM_TYPEID)
	{
		printf(", prefix \"");
		PrintEchoed(stdout, d->input, (size_t) d->in.prefix_len);
		printf("\"");
	}
	printf("\n");
}

static void
PrintDecoded(const char *s, size_t len, const Decoded *d)
{
	char		text[UUID_TEXT_DIGITS + 1];
	char		uuid[37];
	char		when[40];
	char		masked_text[UUID_TEXT_DIGITS + 1];
	char		masked_uuid[37];

	if (!d->in.is_uuid)
	{
		const char *note = UidSmallNote(d->id);

		UidTextEncodeUid((uint64) d->id, text);
		text[UID_TEXT_DIGITS] = '\0';
		UidTextEncodeUid((uint64) d->in.id, masked_text);
		masked_text[UID_TEXT_DIGITS] = '\0';
		FormatTime(d->uid.unix_ms, json ? 'T' : ' ', when, sizeof(when));
		if (json)
		{
			/* 64-bit IDs as strings: JavaScript reads numbers as doubles */
			printf("{\"input\":");
			PrintJsonString(s, len);
			printf(",\"kind\":\"uid\"");
			PrintForm(d);
			printf(",\"masked\":%s", d->masked ? "true" : "false");
			if (d->masked)
				printf(",\"masked_uid\":\"%lld\",\"masked_text\":\"%s\"",
					   (long long) d->in.id, masked_text);
			printf(",\"uid\":\"%lld\",\"text\":\"%s\",\"time\":\"%s\",\"unix_ms\":%lld,"
				   "\"ms_since_epoch\":%lld,\"worker_id\":%d,\"sequence\":%d,\"note\":",
				   (long long) d->id, text, when, (long long) d->uid.unix_ms,
				   (long long) d->uid.ms_since_epoch, d->uid.worker_id, d->uid.sequence);
			if (note)
				PrintJsonString(note, strlen(note));
			else
				printf("null");
			printf("}\n");
			return;
		}
		PrintEchoed(stdout, s, len);
		printf(": %suid (%s)\n", d->masked ? "masked " : "", FormDescription(d->in.form));
		PrintForm(d);
		if (d->masked)
			printf("  masked     %lld  %s\n", (long long) d->in.id, masked_text);
		printf("  uid        %lld\n"
			   "  text       %s\n"
			   "  time       %s\n"
			   "  worker id  %d\n"
			   "  sequence   %d\n",
			   (long long) d->id, text, when, d->uid.worker_id, d->uid.sequence);
		if (note)
			printf("  note       %s\n", note);
		return;
	}

	UidTextEncodeUuid(d->hi, d->lo, text);
	text[UUID_TEXT_DIGITS] = '\0';
	FormatUuid(d->hi, d->lo, uuid);
	UidTextEncodeUuid(d->in.hi, d->in.lo, masked_text);
	masked_text[UUID_TEXT_DIGITS] = '\0';
	FormatUuid(d->in.hi, d->in.lo, masked_uuid);
	if (d->uuid.has_time)
		FormatTime(UsToMs(d->uuid.unix_us), json ? 'T' : ' ', when, sizeof(when));
	if (json)
	{
		printf("{\"input\":");
		PrintJsonString(s, len);
		printf(",\"kind\":\"uuid\"");
		PrintForm(d);
		printf(",\"masked\":%s", d->masked ? "true" : "false");
		if (d->masked)
			printf(",\"masked_uuid\":\"%s\",\"masked_text\":\"%s\"", masked_uuid, masked_text);
		printf(",\"uuid\":\"%s\",\"text\":\"%s\"", uuid, text);
		if (d->uuid.has_time)
			printf(",\"time\":\"%s\",\"unix_ms\":%lld", when,
				   (long long) UsToMs(d->uuid.unix_us));
		else
			printf(",\"time\":null,\"unix_ms\":null");
		if (d->uuid.version >= 0)
			printf(",\"version\":%d", d->uuid.version);
		else
			printf(",\"version\":null");
		printf(",\"variant\":%d}\n", d->uuid.variant);
		return;
	}
	PrintEchoed(stdout, s, len);
	printf(": %sUUID", d->masked ? "masked " : "");
	if (d->masked)
		printf(" v4 of a v%d", d->uuid.version);
	else if (d->uuid.version >= 0)
		printf(" v%d", d->uuid.version);
	else
		printf(" (not of the RFC 9562 variant)");
	printf(" (%s)\n", FormDescription(d->in.form));
	PrintForm(d);
	if (d->masked)
		printf("  masked     %s  %s\n", masked_uuid, masked_text);
	printf("  uuid       %s\n"
		   "  text       %s\n", uuid, text);
	if (d->uuid.has_time)
		printf("  time       %s\n", when);
	else
		printf("  time       (none: version %d has no time field)\n", d->uuid.version);
	if (d->uuid.version >= 0)
		printf("  version    %d\n", d->uuid.version);
	else
		printf("  version    (none)\n");
	printf("  variant    %d%s\n", d->uuid.variant,
		   d->uuid.variant == 2 ? " (RFC 9562)" :
		   d->uuid.variant == 0 ? " (NCS)" :
		   d->uuid.variant == 6 ? " (Microsoft)" : " (reserved)");
}

/*
 * The message for an input that is not an ID, and the hint that goes with
 * it (empty if none): text, or a JSON line.
 */
static void
PrintError(const char *s, size_t len, const char *msg, const char *hint)
{
	if (json)
	{
		printf("{\"input\":");
		PrintJsonString(s, len);
		printf(",\"error\":");
		PrintJsonString(msg, strlen(msg));
		if (hint[0] != '\0')
		{
			printf(",\"hint\":");
			PrintJsonString(hint, strlen(hint));
		}
		printf("}\n");
	}
	fprintf(stderr, "uid-decode: \"");
	PrintEchoed(stderr, s, len);
	fprintf(stderr, "\": %s\n", msg);
	if (hint[0] != '\0')
		fprintf(stderr, "Hint: %s\n", hint);
}

/* ---- reading ---- */

/* A character of the input for a message: itself if printable, else \xNN */
static void
ShownChar(const char *s, size_t len, int pos, char *shown, size_t n)
{
	unsigned char c = pos < (int) len ? (unsigned char) s[pos] : 0;

	if (c >= 0x20 && c < 0x7f)
		snprintf(shown, n, "%c", c);
	else
		snprintf(shown, n, "\\x%02X", c);
}

/* The message for a text form of ndigits digits that is refused. */
static void
TextFormMessage(const char *s, size_t len, const UidAny *a, char *msg, size_t msglen)
{
	int			ndigits = a->ndigits;
	const char *kind = ndigits == UID_TEXT_DIGITS ? "uid" : "uuid";
	char		shown[8];

	ShownChar(s, len, a->pos, shown, sizeof(shown));
	switch (a->text_problem)
	{
		case UID_TEXT_BAD_CHARACTER:
			snprintf(msg, msglen, "invalid character \"%s\" at position %d in %s text form: "
					 "the digits are 0-9 and A-Z except U (O reads as 0, I and L as 1)",
					 shown, a->pos + 1, kind);
			break;
		case UID_TEXT_TOO_LONG:
			snprintf(msg, msglen, "%s text form too long: a %s text form is %d digits, "
					 "this has %d", kind, kind, ndigits, (int) len);
			break;
		case UID_TEXT_FIRST_DIGIT:
			snprintf(msg, msglen, "first digit \"%s\" of %s text form is above 7: %d digits "
					 "hold %d bits, a %s has %d", shown, kind, ndigits, ndigits * 5, kind,
					 ndigits == UID_TEXT_DIGITS ? 63 : 128);
			break;
		case UID_TEXT_TOO_SHORT:
		case UID_TEXT_OK:
			snprintf(msg, msglen, "%s text form too short: a %s text form is %d digits, "
					 "this has %d", kind, kind, ndigits, (int) len);
			break;
	}
}

/* The message for a prefixed form (a TypeID if 26 digits follow) refused. */
static void
PrefixedMessage(const char *s, size_t len, const UidAny *a, char *msg, size_t msglen)
{
	const char *kind = a->strict ? "TypeID" : "prefixed uid text form";
	const UidPrefixed *p = &a->prefixed;
	char		shown[8];

	ShownChar(s, len, p->pos, shown, sizeof(shown));
	switch (a->prefixed_problem)
	{
		case UID_PREFIXED_OK:
		case UID_PREFIXED_EMPTY:
		case UID_PREFIXED_NO_PREFIX:
			snprintf(msg, msglen, "%s with a separator but no prefix: without a prefix, "
					 "it is its %d digits alone", kind, a->ndigits);
			break;
		case UID_PREFIXED_PREFIX:
			if (p->prefix_problem == UID_PREFIX_BAD_CHARACTER)
				snprintf(msg, msglen, "invalid character \"%s\" at position %d in the prefix "
						 "of %s: a prefix is a-z and _", shown, p->pos + 1, kind);
			else
				snprintf(msg, msglen, "the prefix of %s %s: a prefix is at most %d characters "
						 "of a-z and _ that start and end with a letter", kind,
						 p->prefix_problem == UID_PREFIX_FIRST_UNDERSCORE ?
						 "starts with an underscore" :
						 p->prefix_problem == UID_PREFIX_LAST_UNDERSCORE ?
						 "ends with an underscore" : "is too long", UID_PREFIX_MAX);
			break;
		case UID_PREFIXED_BAD_DIGIT:
			snprintf(msg, msglen, "invalid character \"%s\" at position %d in %s: %s",
					 shown, p->pos + 1, kind, a->strict ?
					 "a TypeID's digits are 0-9 and a-z except i, l, o and u, in lower case" :
					 "the digits are 0-9 and A-Z except U (O reads as 0, I and L as 1)");
			break;
		case UID_PREFIXED_LENGTH:
			snprintf(msg, msglen, "%s ends in %d digits: a TypeID has 26 after its prefix "
					 "and underscore, a prefixed uid text form 13", kind,
					 (int) len - p->digits);
			break;
		case UID_PREFIXED_FIRST_DIGIT:
			snprintf(msg, msglen, "%s out of range: its first digit is above 7", kind);
			break;
	}
}

/*
 * Reads one input (without surrounding white space) into d, as decode.c's
 * UidReadAny() tells the forms apart; false with a message in msg, and a
 * hint in hint (of HINT_MAX bytes) or none, if it is not an ID.
 */
static bool
ReadId(const char *s, size_t len, Decoded *d, char *msg, size_t msglen, char *hint)
{
	UidAnyProblem problem = UidReadAny(s, (int) len, &d->in);

	d->input = s;
	d->masked = false;
	switch (problem)
	{
		case UID_ANY_OK:
			break;
		case UID_ANY_NEGATIVE:
			snprintf(msg, msglen, "not a uid: uid values are never negative");
			return false;
		case UID_ANY_ABOVE_BIGINT:
			snprintf(msg, msglen, "not a uid: decimal digits beyond bigint (at most 19 "
					 "digits, 9223372036854775807)");
			return false;
		case UID_ANY_TWO_FORMS:
		case UID_ANY_BASE32HEX:
			UidAnyExplain(s, (int) len, problem, &d->in, msg, msglen, hint, HINT_MAX);
			return false;
		case UID_ANY_UUID:
			snprintf(msg, msglen, "not a UUID: a UUID is 32 hexadecimal digits, "
					 "grouped 8-4-4-4-12 by hyphens or not grouped");
			return false;
		case UID_ANY_TEXT:
			TextFormMessage(s, len, &d->in, msg, msglen);
			return false;
		case UID_ANY_PREFIXED:
			PrefixedMessage(s, len, &d->in, msg, msglen);
			return false;
		case UID_ANY_EMPTY:
		case UID_ANY_UNKNOWN:
			snprintf(msg, msglen, "not an ID: a uid is a non-negative bigint, 13 Crockford "
					 "base32 digits, or a prefix, _ and those; a UUID is 32 hexadecimal "
					 "digits (8-4-4-4-12), 26 Crockford base32 digits, a TypeID, or "
					 "base32hex");
			return false;
	}

	if (!d->in.is_uuid)
	{
		d->id = d->in.id;
		if (have_key)
		{
			if (!UidMaskBits63(&key63, d->in.id, true, &d->id))
			{
				snprintf(msg, msglen, "AES encryption with OpenSSL failed");
				return false;
			}
			d->masked = true;
		}
		if (!UidDecodeFields(d->id, &d->uid))
		{
			snprintf(msg, msglen, "not a uid: uid values are never negative");
			return false;
		}
		return true;
	}

	d->hi = d->in.hi;
	d->lo = d->in.lo;
	if (have_key)
	{
		uint8		bytes[UID_UUID_BYTES];
		UuidFields	in;

		UuidBytesSet64(bytes, d->in.hi, d->in.lo);
		UuidDecodeFields(bytes, &in);
		if (in.version == 4)
		{
			uint64		ms;

			if (!UidMaskBits122(&key122, d->in.hi, d->in.lo, true, &d->hi, &d->lo, &ms))
			{
				snprintf(msg, msglen, "AES encryption with OpenSSL failed");
				return false;
			}
			if (ms >> UUID7_MASK_TIME_BITS != 0)
			{
				snprintf(msg, msglen, "not made by uuid7_mask() with this key: unmasked, "
						 "its time would be after " UUID7_MASK_TIME_END);
				return false;
			}
			d->masked = true;
		}
	}
	{
		uint8		bytes[UID_UUID_BYTES];

		UuidBytesSet64(bytes, d->hi, d->lo);
		UuidDecodeFields(bytes, &d->uuid);
	}
	return true;
}

/*
 * Decodes and prints one input; false if it was not an ID.  Empty (or white
 * space alone): an error as an argument, skipped as a line of standard input
 * (true, and *empty set).
 */
static bool
DecodeOne(const char *s, size_t len, bool argument, bool *empty)
{
	Decoded		d;
	char		msg[512];
	char		hint[HINT_MAX] = "";

	while (len > 0 && UidIsSpace(s[0]))
	{
		s++;
		len--;
	}
	while (len > 0 && UidIsSpace(s[len - 1]))
		len--;
	*empty = len == 0;
	if (len == 0 && !argument)
		return true;
	if (len == 0)
	{
		PrintError(s, len, "not an ID: it is empty (or white space alone)", hint);
		return false;
	}
	if (!ReadId(s, len, &d, msg, sizeof(msg), hint))
	{
		PrintError(s, len, msg, hint);
		return false;
	}
	PrintDecoded(s, len, &d);
	return true;
}

/* ---- the key ---- */

static void
KeyFileFail(const char *path, const char *why)
{
	fprintf(stderr, "uid-decode: key file \"%s\": %s\n", path, why);
	exit(EXIT_USAGE);
}

static void
LoadKey(const char *path)
{
	FILE	   *f = fopen(path, "r");
	char		buf[256];
	unsigned char key[UID_MASK_MAX_KEY];
	size_t		n;
	size_t		b = 0;
	size_t		e;
	EVP_CIPHER_CTX *aes;
	char		why[160];

	if (f == NULL)
		KeyFileFail(path, strerror(errno));
	n = fread(buf, 1, sizeof(buf), f);
	if (ferror(f))
		KeyFileFail(path, strerror(errno));
	fclose(f);
	if (n == sizeof(buf))
		KeyFileFail(path, "too long: a key is 32, 48 or 64 hexadecimal digits");
	e = n;
	while (b < e && UidIsSpace(buf[b]))
		b++;
	while (e > b && UidIsSpace(buf[e - 1]))
		e--;
	if (e - b != 32 && e - b != 48 && e - b != 64)
	{
		snprintf(why, sizeof(why), "a key is 32, 48 or 64 hexadecimal digits "
				 "(as uid.mask_key); the file holds %d characters", (int) (e - b));
		explicit_bzero(buf, sizeof(buf));
		KeyFileFail(path, why);
	}
	for (size_t i = b; i < e; i += 2)
	{
		int			h = UidHexDigitValue(buf[i]);
		int			l = UidHexDigitValue(buf[i + 1]);

		if (h < 0 || l < 0)
		{
			snprintf(why, sizeof(why), "character %d is not a hexadecimal digit",
					 (int) (i - b) + (h < 0 ? 1 : 2));
			explicit_bzero(buf, sizeof(buf));
			explicit_bzero(key, sizeof(key));
			KeyFileFail(path, why);
		}
		key[(i - b) / 2] = (unsigned char) (h * 16 + l);
	}
	aes = Ff1NewAes(key, (int) (e - b) / 2);
	explicit_bzero(buf, sizeof(buf));
	explicit_bzero(key, sizeof(key));
	if (aes == NULL ||
		!Ff1Prepare(aes, UID_MASK_BITS, &key63) ||
		!Ff1Prepare(aes, UUID7_MASK_BITS, &key122))
		KeyFileFail(path, "could not set up AES with OpenSSL");
	have_key = true;
}

int
main(int argc, char **argv)
{
	int			first_id = argc;
	bool		all_ok = true;
	bool		empty;

	for (int i = 1; i < argc; i++)
	{
		const char *a = argv[i];

		if (strcmp(a, "--") == 0)
		{
			first_id = i + 1;
			break;
		}
		else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "-?") == 0)
		{
			usage();
			return 0;
		}
		else if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0)
		{
			printf("uid-decode (uid) %s\n", UID_VERSION);
			return 0;
		}
		else if (strcmp(a, "--json") == 0)
			json = true;
		else if (strncmp(a, "--key-file=", 11) == 0)
			LoadKey(a + 11);
		else if (strcmp(a, "--key-file") == 0)
		{
			if (i + 1 >= argc)
			{
				fprintf(stderr, "uid-decode: --key-file needs a file name\n");
				return EXIT_USAGE;
			}
			LoadKey(argv[++i]);
		}
		else if (a[0] == '-' && a[1] == '-')
		{
			fprintf(stderr, "uid-decode: unknown option \"%s\"\n"
					"Try \"uid-decode --help\".\n", a);
			return EXIT_USAGE;
		}
		else
		{
			first_id = i;
			break;
		}
	}

	if (first_id < argc)
	{
		for (int i = first_id; i < argc; i++)
			if (!DecodeOne(argv[i], strlen(argv[i]), true, &empty))
				all_ok = false;
	}
	else
	{
		char	   *line = NULL;
		size_t		cap = 0;
		ssize_t		n;
		bool		any = false;

		while ((n = getline(&line, &cap, stdin)) >= 0)
		{
			if (!DecodeOne(line, (size_t) n, false, &empty))
				all_ok = false;
			any = any || !empty;
		}
		free(line);
		if (ferror(stdin))
		{
			fprintf(stderr, "uid-decode: could not read standard input: %s\n", strerror(errno));
			return EXIT_USAGE;
		}
		if (!any)
		{
			fprintf(stderr, "uid-decode: no ID on standard input (only empty lines, or none)\n");
			all_ok = false;
		}
	}
	if (fflush(stdout) != 0)
	{
		fprintf(stderr, "uid-decode: could not write: %s\n", strerror(errno));
		return EXIT_USAGE;
	}
	return all_ok ? 0 : EXIT_BAD_INPUT;
}
