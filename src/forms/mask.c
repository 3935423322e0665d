/*
 * mask.c
 *		Keyed masking of IDs that leave the database:
 *
 *		uid_mask(bigint), uid_unmask(bigint): a keyed permutation of the
 *			non-negative bigints (0 to 2^63 - 1), FF1 over their 63 bits;
 *		uuid7_mask(uuid), uuid7_unmask(uuid): a UUIDv7 to a UUID of version 4
 *			and back, FF1 over the 122 bits that are neither version nor
 *			variant.
 *
 * FF1 is the format-preserving encryption of NIST SP 800-38G (2016), with
 * AES from OpenSSL (ff1.c).  The key is 16, 24 or 32 bytes (AES-128, -192,
 * -256): the one-argument functions read it from the setting uid.mask_key
 * (so they are STABLE); the two-argument ones take it as a bytea (IMMUTABLE;
 * for key rotation).
 *
 * uid.mask_key is a secret, and PostgreSQL shows settings in many places.
 * What keeps it in:
 *	- it is defined only when uid is preloaded, in the postmaster, so no
 *	  session ever holds it as an unrecognised placeholder, which any role
 *	  could read; without preloading, the functions that use it refuse;
 *	- PGC_SUSET and GUC_SUPERUSER_ONLY: only superusers set it, and only
 *	  they and pg_read_all_settings members may SHOW it;
 *	- a show hook: SHOW and current_setting() display the key size and a
 *	  key check value, never the key;
 *	- GUC_NO_SHOW_ALL: out of SHOW ALL and pg_settings for everyone (the
 *	  view's reset_val column would bypass the show hook);
 *	- the check hook never lets PostgreSQL report an invalid value (its
 *	  message quotes the value) and refuses per-database, per-role and
 *	  per-function settings, which catalogs every role can read would keep;
 *	- an emit_log_hook rewrites the postmaster's "parameter changed to"
 *	  line of a reload, which would print the new key.
 *
 * No shared state.  Each backend keeps the last few keys it used, prepared
 * (AES key schedule, FF1's first CBC-MAC block for both lengths), in
 * mask_keys.
 */
#include "postgres.h"

#include <openssl/crypto.h>

#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"

#include "compat.h"
#include "core/catalog.h"
#include "forms/decode.h"
#include "forms/ff1.h"
#include "forms/layout.h"
#include "forms/mask.h"
#include "core/preload.h"
#include "ids.h"

PG_FUNCTION_INFO_V1(uid_mask);
PG_FUNCTION_INFO_V1(uid_unmask);
PG_FUNCTION_INFO_V1(uid_mask_uid);
PG_FUNCTION_INFO_V1(uid_unmask_uid);
PG_FUNCTION_INFO_V1(uid_mask_with_key);
PG_FUNCTION_INFO_V1(uid_unmask_with_key);
PG_FUNCTION_INFO_V1(uuid7_mask);
PG_FUNCTION_INFO_V1(uuid7_unmask);
PG_FUNCTION_INFO_V1(uuid7_mask_with_key);
PG_FUNCTION_INFO_V1(uuid7_unmask_with_key);

/* UID_MASK_BITS, UUID7_MASK_BITS, UID_MASK_MAX_KEY and the bit layout: decode.c */
#define UID_MASK_CACHED_KEYS	4

/* a key ready for use */
typedef struct UidMaskKey
{
	int			keylen;			/* 16, 24 or 32; 0 for an empty slot */
	unsigned char key[UID_MASK_MAX_KEY];
	EVP_CIPHER_CTX *aes;
	Ff1Domain	bits63;			/* uid_mask */
	Ff1Domain	bits122;		/* uuid7_mask */
} UidMaskKey;

static UidMaskKey mask_keys[UID_MASK_CACHED_KEYS];
static int	mask_keys_next = 0;

/* the setting uid.mask_key, parsed by its check hook */
typedef struct UidMaskKeySetting
{
	int			keylen;			/* 0: not set */
	unsigned char key[UID_MASK_MAX_KEY];
	char		shown[64];		/* what SHOW displays instead of the key */
} UidMaskKeySetting;

static char *uid_mask_key_hex = NULL;
static UidMaskKeySetting mask_key_setting;

static emit_log_hook_type prev_emit_log_hook = NULL;

/* ---- prepared keys ---- */

static void
UidMaskKeyForget(UidMaskKey *k)
{
	if (k->aes != NULL)
		EVP_CIPHER_CTX_free(k->aes);
	explicit_bzero(k, sizeof(*k));
}

static void
UidMaskAesFailed(void)
{
	elog(ERROR, "AES encryption with OpenSSL failed");
}

/*
 * The prepared form of a key, from the cache or made now (replacing the
 * least recently made entry).  The comparison takes the same time however
 * much of a key matches, so a caller trying keys of its own learns nothing
 * of a cached one.
 */
static UidMaskKey *
UidMaskKeyFor(const unsigned char *key, int keylen)
{
	UidMaskKey *k;

	for (int i = 0; i < UID_MASK_CACHED_KEYS; i++)
	{
		k = &mask_keys[i];
		if (k->keylen == keylen && CRYPTO_memcmp(k->key, key, keylen) == 0)
			return k;
	}

	k = &mask_keys[mask_keys_next];
	mask_keys_next = (mask_keys_next + 1) % UID_MASK_CACHED_KEYS;
	UidMaskKeyForget(k);
	k->aes = Ff1NewAes(key, keylen);
	if (k->aes == NULL ||
		!Ff1Prepare(k->aes, UID_MASK_BITS, &k->bits63) ||
		!Ff1Prepare(k->aes, UUID7_MASK_BITS, &k->bits122))
	{
		UidMaskKeyForget(k);
		UidMaskAesFailed();
	}
	memcpy(k->key, key, keylen);
	k->keylen = keylen;
	return k;
}

/* The key of uid.mask_key, for the one-argument functions. */
static UidMaskKey *
UidMaskSettingKey(const char *funcname)
{
	if (unlikely(!uid_preloaded))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("%s() requires uid to be loaded via shared_preload_libraries",
						funcname),
				 GetConfigOption("uid.mask_key", true, false) != NULL ?
				 errdetail("uid.mask_key is defined only when uid is preloaded; until then a "
						   "uid.mask_key in the configuration is an unrecognised setting "
						   "that every role can read with SHOW.") :
				 errdetail("uid.mask_key is defined only when uid is preloaded, so that no "
						   "role can read it as an unrecognised setting."),
				 errhint("Add uid to shared_preload_libraries in postgresql.conf and restart "
						 "the server, or pass the key as the second argument.")));
	if (unlikely(mask_key_setting.keylen == 0))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("%s() needs a key, and uid.mask_key is not set", funcname),
				 errhint("Set uid.mask_key in postgresql.conf to 32, 48 or 64 hexadecimal digits "
						 "(AES-128, AES-192 or AES-256; such as the output of "
						 "\"openssl rand -hex 16\") and reload.")));
	return UidMaskKeyFor(mask_key_setting.key, mask_key_setting.keylen);
}

/* The key of a bytea argument, for the two-argument functions. */
static UidMaskKey *
UidMaskArgKey(bytea *key)
{
	int			keylen = VARSIZE_ANY_EXHDR(key);

	if (keylen != 16 && keylen != 24 && keylen != 32)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a uid mask key is 16, 24 or 32 bytes, not %d", keylen),
				 errhint("Use 16 bytes for AES-128, 24 for AES-192 or 32 for AES-256, "
						 "for example decode('<32 hexadecimal digits>', 'hex').")));
	return UidMaskKeyFor((const unsigned char *) VARDATA_ANY(key), keylen);
}

/* ---- bigint ---- */

static int64
UidMaskBigint(UidMaskKey *k, int64 id, bool unmask)
{
	int64		out;

	if (!UidMaskBits63(&k->bits63, id, unmask, &out))
		UidMaskAesFailed();
	return out;
}

/* uid_mask(bigint): the masked form of a non-negative bigint, under uid.mask_key */
Datum
uid_mask(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);

	UidCheckId(id);
	PG_RETURN_INT64(UidMaskBigint(UidMaskSettingKey("uid_mask"), id, false));
}

/* uid_unmask(bigint): the bigint whose masked form this is, under uid.mask_key */
Datum
uid_unmask(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);

	UidCheckId(id);
	PG_RETURN_INT64(UidMaskBigint(UidMaskSettingKey("uid_unmask"), id, true));
}

/* uid_mask(uid): uid_mask(bigint), for those who may execute it (core/catalog.c) */
Datum
uid_mask_uid(PG_FUNCTION_ARGS)
{
	UidCheckBigintFormOnce(fcinfo, "uid_mask");
	return uid_mask(fcinfo);
}

/* uid_unmask(uid): uid_unmask(bigint), for those who may execute it */
Datum
uid_unmask_uid(PG_FUNCTION_ARGS)
{
	UidCheckBigintFormOnce(fcinfo, "uid_unmask");
	return uid_unmask(fcinfo);
}

/* uid_mask(bigint, bytea) */
Datum
uid_mask_with_key(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);

	UidCheckId(id);
	PG_RETURN_INT64(UidMaskBigint(UidMaskArgKey(PG_GETARG_BYTEA_PP(1)), id, false));
}

/* uid_unmask(bigint, bytea) */
Datum
uid_unmask_with_key(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);

	UidCheckId(id);
	PG_RETURN_INT64(UidMaskBigint(UidMaskArgKey(PG_GETARG_BYTEA_PP(1)), id, true));
}

/* ---- uuid ---- */

static char *
UidUuidString(const pg_uuid_t *u)
{
	return DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(u)));
}

/*
 * The checks of uuid7_mask(): a UUIDv7 whose time is below 2^42 ms.  Other
 * versions have no time field to hide, or are not RFC 9562 UUIDs at all.
 */
static void
Uuid7MaskCheckInput(const pg_uuid_t *u)
{
	if (!UuidIsV7(u))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("uuid7_mask() takes a UUIDv7, and %s is not one", UidUuidString(u)),
				 UuidIsRfcVariant(u) ?
				 errdetail("It is version %d.", UuidVersion(u)) :
				 errdetail("It is not of the RFC 9562 variant.")));
	if ((UuidHigh64(u) >> 16) >> UUID7_MASK_TIME_BITS != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the time of UUIDv7 %s is too late to mask", UidUuidString(u)),
				 errdetail("uuid7_mask() takes times before " UUID7_MASK_TIME_END
						   ", so that uuid7_unmask() can tell most UUIDs that were "
						   "not masked with its key from masked ones.")));
}

/*
 * The checks of uuid7_unmask() before unmasking: what uuid7_mask() makes is
 * version 4 of the RFC 9562 variant.
 */
static void
Uuid7UnmaskCheckInput(const pg_uuid_t *u)
{
	if (!UuidIsRfcVariant(u) || UuidVersion(u) != 4)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s is not a masked UUID", UidUuidString(u)),
				 UuidIsRfcVariant(u) ?
				 errdetail("uuid7_mask() makes UUIDs of version 4; this is version %d.",
						   UuidVersion(u)) :
				 errdetail("uuid7_mask() makes UUIDs of the RFC 9562 variant; this is not one.")));
}

/*
 * Masks or unmasks the 122 free bits of a UUID (decode.c); returns the time
 * field of the result.
 */
static uint64
Uuid7MaskBits(UidMaskKey *k, const pg_uuid_t *in, pg_uuid_t *out, bool unmask)
{
	uint64		hi;
	uint64		lo;
	uint64		ms;

	if (!UidMaskBits122(&k->bits122, UuidHigh64(in), UuidLow64(in), unmask, &hi, &lo, &ms))
		UidMaskAesFailed();
	UuidSet64(out, hi, lo);
	return ms;
}

static pg_uuid_t *
Uuid7Mask(UidMaskKey *k, const pg_uuid_t *in)
{
	pg_uuid_t  *out = (pg_uuid_t *) palloc(UUID_LEN);

	Uuid7MaskBits(k, in, out, false);
	return out;
}

/*
 * Unmasking cannot tell a wrong key from a right one by itself (FF1 maps
 * every input to some output); what gives a UUID away is an unmasked time
 * that uuid7_mask() never takes.  The error does not say what the time
 * would be: a client probing an API that unmasks learns no more than that
 * the UUID was refused.
 */
static pg_uuid_t *
Uuid7Unmask(UidMaskKey *k, const pg_uuid_t *in)
{
	pg_uuid_t  *out = (pg_uuid_t *) palloc(UUID_LEN);

	if (Uuid7MaskBits(k, in, out, true) >> UUID7_MASK_TIME_BITS != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s was not made by uuid7_mask() with this key", UidUuidString(in)),
				 errdetail("Unmasked, its time would be after " UUID7_MASK_TIME_END
						   ", and uuid7_mask() takes no such time."),
				 errhint("Check that the UUID comes from uuid7_mask() and that the key is "
						 "the one it was masked with.")));
	return out;
}

/* uuid7_mask(uuid): the masked (version 4) form of a UUIDv7, under uid.mask_key */
Datum
uuid7_mask(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);

	Uuid7MaskCheckInput(u);
	PG_RETURN_UUID_P(Uuid7Mask(UidMaskSettingKey("uuid7_mask"), u));
}

/* uuid7_unmask(uuid): the UUIDv7 whose masked form this is, under uid.mask_key */
Datum
uuid7_unmask(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);

	Uuid7UnmaskCheckInput(u);
	PG_RETURN_UUID_P(Uuid7Unmask(UidMaskSettingKey("uuid7_unmask"), u));
}

/* uuid7_mask(uuid, bytea) */
Datum
uuid7_mask_with_key(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);

	Uuid7MaskCheckInput(u);
	PG_RETURN_UUID_P(Uuid7Mask(UidMaskArgKey(PG_GETARG_BYTEA_PP(1)), u));
}

/* uuid7_unmask(uuid, bytea) */
Datum
uuid7_unmask_with_key(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *u = PG_GETARG_UUID_P(0);

	Uuid7UnmaskCheckInput(u);
	PG_RETURN_UUID_P(Uuid7Unmask(UidMaskArgKey(PG_GETARG_BYTEA_PP(1)), u));
}

/* ---- the setting uid.mask_key ---- */

/*
 * Parses the key into extra.  Every refusal sets its own message: without
 * one, PostgreSQL's "invalid value for parameter" would quote the key to
 * the client and the server log.
 */
static bool
UidMaskKeyCheck(char **newval, void **extra, GucSource source)
{
	const char *hex = *newval ? *newval : "";
	int			len = (int) strlen(hex);
	UidMaskKeySetting parsed;

	/* ALTER DATABASE/ROLE ... SET and CREATE FUNCTION ... SET */
	if (source == PGC_S_GLOBAL || source == PGC_S_DATABASE || source == PGC_S_USER ||
		source == PGC_S_DATABASE_USER || source == PGC_S_TEST)
	{
		GUC_check_errmsg("uid.mask_key cannot be set for a database, a role or a function");
		GUC_check_errdetail("Such settings are kept in catalogs that every role can read.");
		GUC_check_errhint("Set uid.mask_key in postgresql.conf.");
		return false;
	}

	memset(&parsed, 0, sizeof(parsed));
	if (len != 0 && len != 32 && len != 48 && len != 64)
	{
		GUC_check_errmsg("invalid value for parameter \"%s\"", "uid.mask_key");
		GUC_check_errdetail("A key is 32, 48 or 64 hexadecimal digits (AES-128, AES-192 or "
							"AES-256); the value has %d characters.", len);
		return false;
	}
	for (int i = 0; i < len; i += 2)
	{
		int			h = UidHexDigitValue(hex[i]);
		int			l = UidHexDigitValue(hex[i + 1]);

		if (h < 0 || l < 0)
		{
			explicit_bzero(&parsed, sizeof(parsed));
			GUC_check_errmsg("invalid value for parameter \"%s\"", "uid.mask_key");
			GUC_check_errdetail("Character %d of the value is not a hexadecimal digit.",
								h < 0 ? i + 1 : i + 2);
			return false;
		}
		parsed.key[i / 2] = (unsigned char) (h * 16 + l);
	}
	parsed.keylen = len / 2;

	/*
	 * The key check value, as customary: the first 3 bytes of the key's AES
	 * encryption of a zero block.  It tells keys apart without telling them.
	 */
	if (parsed.keylen > 0)
	{
		static const unsigned char zero[16] = {0};
		unsigned char kcv[16];
		EVP_CIPHER_CTX *aes = Ff1NewAes(parsed.key, parsed.keylen);
		bool		ok = aes != NULL && Ff1AesBlock(aes, zero, kcv);

		if (aes != NULL)
			EVP_CIPHER_CTX_free(aes);
		if (!ok)
		{
			explicit_bzero(&parsed, sizeof(parsed));
			GUC_check_errmsg("could not set up AES for uid.mask_key");
			return false;
		}
		snprintf(parsed.shown, sizeof(parsed.shown), "AES-%d key, check value %02X%02X%02X",
				 parsed.keylen * 8, kcv[0], kcv[1], kcv[2]);
	}

	*extra = UidGucMalloc(sizeof(parsed));
	if (*extra != NULL)
		memcpy(*extra, &parsed, sizeof(parsed));
	explicit_bzero(&parsed, sizeof(parsed));
	return *extra != NULL;
}

static void
UidMaskKeyAssign(const char *newval, void *extra)
{
	if (extra != NULL)
		memcpy(&mask_key_setting, extra, sizeof(mask_key_setting));
	else
		explicit_bzero(&mask_key_setting, sizeof(mask_key_setting));
}

/* SHOW uid.mask_key: empty when unset, else the key size and check value */
static const char *
UidMaskKeyShow(void)
{
	return mask_key_setting.shown;
}

/*
 * On a reload the postmaster logs each changed setting with its new value:
 * for uid.mask_key the line says what SHOW says instead.
 */
static void
UidMaskRedactLog(ErrorData *edata)
{
	if (edata->message_id != NULL && edata->message != NULL &&
		strcmp(edata->message_id, "parameter \"%s\" changed to \"%s\"") == 0 &&
		strstr(edata->message, "\"uid.mask_key\"") != NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(ErrorContext);

		edata->message = psprintf("parameter \"%s\" changed to \"%s\"",
								  "uid.mask_key", mask_key_setting.shown);
		MemoryContextSwitchTo(old);
	}
	if (prev_emit_log_hook)
		prev_emit_log_hook(edata);
}

/* Called from _PG_init when uid is preloaded. */
void
UidMaskInit(void)
{
	DefineCustomStringVariable("uid.mask_key",
							   "Key of uid_mask(), uid_unmask(), uuid7_mask() and uuid7_unmask(): "
							   "32, 48 or 64 hexadecimal digits.",
							   "Only superusers can set it, in postgresql.conf; SHOW displays the "
							   "key size and a check value, never the key.",
							   &uid_mask_key_hex,
							   "",
							   PGC_SUSET,
							   GUC_SUPERUSER_ONLY | GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE,
							   UidMaskKeyCheck, UidMaskKeyAssign, UidMaskKeyShow);

	prev_emit_log_hook = emit_log_hook;
	emit_log_hook = UidMaskRedactLog;
}
