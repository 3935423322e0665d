/*
 * ff1_test.c
 *		Unit test of src/forms/ff1.c, run by "make check-unit" (test/run.sh, suite
 *		"unit").  Prints TAP; exits non-zero if any check fails.
 *
 * 1. A transcription of FF1 as SP 800-38G states it (algorithms 7
 *    and 8, any radix, any tweak; Ff1Ref* below, sharing no code with
 *    src/forms/ff1.c) reproduces NIST's FF1 samples 1 to 9 (radix 10 and 36,
 *    AES-128/192/256, with and without tweak) and the radix-2 vectors
 *    published with Zcash (88 bits, AES-256).
 * 2. src/forms/ff1.c reproduces the Zcash vectors that have an empty tweak, and
 *    agrees with the transcription on random values of every length from
 *    20 to 128 bits under all three key sizes, both ways.
 * 3. src/forms/ff1.c is a permutation of the whole domain for 20 and 21 bits:
 *    every value maps to a distinct value of the domain and back.
 * 4. uid's own uses (63 and 122 bits) give the known answers that
 *    sql/mask_test.sql pins at the SQL level.
 */
#include "postgres_fe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "forms/ff1.h"
#include "unit_tap.h"

typedef unsigned __int128 u128;

static int
unhex(const char *hex, unsigned char *out)
{
	int			n = 0;
	unsigned int byte;

	for (; hex[0] && hex[1] && sscanf(hex, "%2x", &byte) == 1; hex += 2)
		out[n++] = (unsigned char) byte;
	return n;
}

/* ---- FF1 as the standard states it ---- */

typedef struct RefKey
{
	EVP_CIPHER_CTX *ctx;
} RefKey;

static RefKey
RefKeyNew(const unsigned char *key, int keylen)
{
	RefKey		k;
	const EVP_CIPHER *c = keylen == 16 ? EVP_aes_128_ecb() :
		keylen == 24 ? EVP_aes_192_ecb() : EVP_aes_256_ecb();

	k.ctx = EVP_CIPHER_CTX_new();
	if (k.ctx == NULL || EVP_EncryptInit_ex(k.ctx, c, NULL, key, NULL) != 1)
		abort();
	EVP_CIPHER_CTX_set_padding(k.ctx, 0);
	return k;
}

static void
RefCiph(RefKey k, const unsigned char *in, unsigned char *out)
{
	int			outl;

	if (EVP_EncryptUpdate(k.ctx, out, &outl, in, 16) != 1 || outl != 16)
		abort();
}

/* PRF(X): CBC-MAC with a zero IV over X (a multiple of 16 bytes) */
static void
RefPrf(RefKey k, const unsigned char *x, int len, unsigned char *y)
{
	unsigned char blk[16];

	memset(y, 0, 16);
	for (int j = 0; j < len; j += 16)
	{
		for (int i = 0; i < 16; i++)
			blk[i] = y[i] ^ x[j + i];
		RefCiph(k, blk, y);
	}
}

static u128
RefNum(const int *x, int len, int radix)
{
	u128		v = 0;

	for (int i = 0; i < len; i++)
		v = v * radix + x[i];
	return v;
}

static void
RefStr(u128 v, int radix, int m, int *out)
{
	for (int i = m - 1; i >= 0; i--)
	{
		out[i] = (int) (v % radix);
		v /= radix;
	}
}

static u128
RefPow(int radix, int m)
{
	u128		p = 1;

	for (int i = 0; i < m; i++)
		p *= radix;
	return p;
}

/*
 * Algorithms 7 (decrypt = false) and 8.  Limited to radix^ceil(n/2) <= 2^64
 * and d <= 16, which covers every vector used here.
 */
static void
RefFf1(RefKey k, int radix, const unsigned char *tweak, int t,
	   const int *x, int n, int *out, bool decrypt)
{
	int			u = n / 2;
	int			v = n - u;
	int			a[128];
	int			b[128];
	int			c[128];
	u128		rv = RefPow(radix, v) - 1;
	int			bits = 0;
	int			bb;
	int			d;
	unsigned char p[16];
	unsigned char pq[16 + 512];
	int			qlen;

	/* ceil(v * log2(radix)) = bit length of radix^v - 1 */
	while (rv > 0)
	{
		bits++;
		rv >>= 1;
	}
	bb = (bits + 7) / 8;
	d = 4 * ((bb + 3) / 4) + 4;
	if (d > 16 || RefPow(radix, v) > ((u128) 1 << 64))
		abort();

	memcpy(a, x, u * sizeof(int));
	memcpy(b, x + u, v * sizeof(int));

	p[0] = 1;
	p[1] = 2;
	p[2] = 1;
	p[3] = (unsigned char) (radix >> 16);
	p[4] = (unsigned char) (radix >> 8);
	p[5] = (unsigned char) radix;
	p[6] = 10;
	p[7] = (unsigned char) (u % 256);
	p[8] = (unsigned char) (n >> 24);
	p[9] = (unsigned char) (n >> 16);
	p[10] = (unsigned char) (n >> 8);
	p[11] = (unsigned char) n;
	p[12] = (unsigned char) (t >> 24);
	p[13] = (unsigned char) (t >> 16);
	p[14] = (unsigned char) (t >> 8);
	p[15] = (unsigned char) t;

	for (int step = 0; step < 10; step++)
	{
		int			i = decrypt ? 9 - step : step;
		int			pad = ((-t - bb - 1) % 16 + 16) % 16;
		/* the half that feeds the round: B (encrypt) or A (decrypt) */
		int		   *half = decrypt ? a : b;
		int			halflen = (i % 2 == 0) ? v : u;
		u128		numhalf;
		unsigned char r[16];
		u128		y = 0;
		int			m = (i % 2 == 0) ? u : v;
		u128		mod = RefPow(radix, m);
		u128		cv;

		numhalf = RefNum(half, halflen, radix);

		/* Q = T || [0]^pad || [i]^1 || [NUM(B)]^b */
		memcpy(pq, p, 16);
		qlen = 0;
		if (t > 0)
			memcpy(pq + 16, tweak, t);
		qlen += t;
		memset(pq + 16 + qlen, 0, pad);
		qlen += pad;
		pq[16 + qlen++] = (unsigned char) i;
		for (int j = bb - 1; j >= 0; j--)
			pq[16 + qlen++] = (unsigned char) (numhalf >> (8 * j));
		RefPrf(k, pq, 16 + qlen, r);
		for (int j = 0; j < d; j++)
			y = (y << 8) | r[j];

		if (!decrypt)
		{
			cv = (RefNum(a, m, radix) + y) % mod;
			RefStr(cv, radix, m, c);
			memcpy(a, b, halflen * sizeof(int));
			memcpy(b, c, m * sizeof(int));
		}
		else
		{
			cv = (RefNum(b, m, radix) + (mod - y % mod)) % mod;
			RefStr(cv, radix, m, c);
			memcpy(b, a, halflen * sizeof(int));
			memcpy(a, c, m * sizeof(int));
		}
	}
	memcpy(out, a, u * sizeof(int));
	memcpy(out + u, b, v * sizeof(int));
}

/* ---- vectors ---- */

static int
digits(const char *s, int *out)
{
	int			n = 0;

	for (; *s; s++)
		out[n++] = (*s >= '0' && *s <= '9') ? *s - '0' : *s - 'a' + 10;
	return n;
}

/*
 * NIST's FF1 samples (Cryptographic Standards and Guidelines, "Examples
 * with Intermediate Values", FF1samples.pdf), numerals as 0-9a-z.
 */
static const struct
{
	const char *key;
	int			radix;
	const char *tweak;
	const char *pt;
	const char *ct;
}			nist[] = {
	{"2B7E151628AED2A6ABF7158809CF4F3C", 10, "", "0123456789", "2433477484"},
	{"2B7E151628AED2A6ABF7158809CF4F3C", 10, "39383736353433323130", "0123456789", "6124200773"},
	{"2B7E151628AED2A6ABF7158809CF4F3C", 36, "3737373770717273373737", "0123456789abcdefghi", "a9tv40mll9kdu509eum"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F", 10, "", "0123456789", "2830668132"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F", 10, "39383736353433323130", "0123456789", "2496655549"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F", 36, "3737373770717273373737", "0123456789abcdefghi", "xbj3kv35jrawxv32ysr"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94", 10, "", "0123456789", "6657667009"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94", 10, "39383736353433323130", "0123456789", "1001623463"},
	{"2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94", 36, "3737373770717273373737", "0123456789abcdefghi", "xs8a0azh2avyalyzuwd"},
};

/*
 * Radix-2 vectors published with Zcash (zcash-hackworks/zcash-test-vectors,
 * ff1.py): AES-256 under NIST's sample key, 88 bits, as bit strings.  The
 * last one has the 255-byte tweak 00 01 .. fe.
 */
#define ZCASH_KEY "2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94"
static const struct
{
	bool		tweak;
	const char *pt;
	const char *ct;
}			zcash[] = {
	{false,
		"0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
	"0000100100110101011101111111110011000001101100111110011101110101011010100100010011001111"},
	{false,
		"0000100100110101011101111111110011000001101100111110011101110101011010100100010011001111",
	"1101101011010001100011110000010011001111110110011101010110100001111001000101011111011000"},
	{false,
		"0101010101010101010101010101010101010101010101010101010101010101010101010101010101010101",
	"0000111101000001111011010111011111110001100101000000001101101110100010010111001100100110"},
	{true,
		"0101010101010101010101010101010101010101010101010101010101010101010101010101010101010101",
	"0111110110001000000111010110000100010101101000000011100111100100100010101101111010100011"},
};

static Ff1Value
BitsToValue(const int *x, int n)
{
	Ff1Value	v = {0, 0};

	for (int i = 0; i < n; i++)
	{
		v.hi = (v.hi << 1) | (v.lo >> 63);
		v.lo = (v.lo << 1) | (uint64) x[i];
	}
	return v;
}

static void
ValueToBits(Ff1Value v, int n, int *x)
{
	for (int i = n - 1; i >= 0; i--)
	{
		x[i] = (int) (v.lo & 1);
		v.lo = (v.lo >> 1) | (v.hi << 63);
		v.hi >>= 1;
	}
}

static uint64 rng_state = UINT64CONST(0x9E3779B97F4A7C15);

/* splitmix64: a fixed, reproducible sequence */
static uint64
Next64(void)
{
	uint64		z = (rng_state += UINT64CONST(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64CONST(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64CONST(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static Ff1Value
RandomValue(int n)
{
	Ff1Value	v;

	v.lo = Next64();
	v.hi = Next64();
	if (n <= 64)
	{
		v.hi = 0;
		if (n < 64)
			v.lo &= (UINT64CONST(1) << n) - 1;
	}
	else if (n < 128)
		v.hi &= (UINT64CONST(1) << (n - 64)) - 1;
	return v;
}

static bool
ValueEq(Ff1Value a, Ff1Value b)
{
	return a.hi == b.hi && a.lo == b.lo;
}

static void
TestNist(void)
{
	for (size_t s = 0; s < sizeof(nist) / sizeof(nist[0]); s++)
	{
		unsigned char key[32];
		unsigned char tweak[64];
		int			pt[64];
		int			ct[64];
		int			out[64];
		int			back[64];
		int			keylen = unhex(nist[s].key, key);
		int			t = unhex(nist[s].tweak, tweak);
		int			n = digits(nist[s].pt, pt);
		RefKey		k = RefKeyNew(key, keylen);
		char		what[128];

		digits(nist[s].ct, ct);
		RefFf1(k, nist[s].radix, tweak, t, pt, n, out, false);
		RefFf1(k, nist[s].radix, tweak, t, out, n, back, true);
		snprintf(what, sizeof(what), "NIST FF1 sample %zu (AES-%d, radix %d, %d-byte tweak): encrypt, decrypt",
				 s + 1, keylen * 8, nist[s].radix, t);
		check(memcmp(out, ct, n * sizeof(int)) == 0 &&
			  memcmp(back, pt, n * sizeof(int)) == 0, what);
		EVP_CIPHER_CTX_free(k.ctx);
	}
}

static void
TestZcash(void)
{
	unsigned char key[32];
	unsigned char tweak[255];
	int			keylen = unhex(ZCASH_KEY, key);
	RefKey		k = RefKeyNew(key, keylen);
	EVP_CIPHER_CTX *aes = Ff1NewAes(key, keylen);
	Ff1Domain	dom;

	for (int i = 0; i < 255; i++)
		tweak[i] = (unsigned char) i;
	check(aes != NULL && Ff1Prepare(aes, 88, &dom), "Ff1Prepare: AES-256, 88 bits");
	for (size_t s = 0; s < sizeof(zcash) / sizeof(zcash[0]); s++)
	{
		int			pt[128];
		int			ct[128];
		int			out[128];
		int			back[128];
		int			n = (int) strlen(zcash[s].pt);
		char		what[128];

		for (int i = 0; i < n; i++)
		{
			pt[i] = zcash[s].pt[i] - '0';
			ct[i] = zcash[s].ct[i] - '0';
		}
		RefFf1(k, 2, tweak, zcash[s].tweak ? 255 : 0, pt, n, out, false);
		RefFf1(k, 2, tweak, zcash[s].tweak ? 255 : 0, out, n, back, true);
		snprintf(what, sizeof(what), "Zcash FF1 vector %zu (AES-256, radix 2, %d bits, %s tweak), transcription",
				 s + 1, n, zcash[s].tweak ? "255-byte" : "empty");
		check(memcmp(out, ct, n * sizeof(int)) == 0 &&
			  memcmp(back, pt, n * sizeof(int)) == 0, what);
		if (!zcash[s].tweak)
		{
			Ff1Value	x = BitsToValue(pt, n);
			Ff1Value	y;
			Ff1Value	z;

			snprintf(what, sizeof(what), "Zcash FF1 vector %zu, src/forms/ff1.c: encrypt, decrypt", s + 1);
			check(Ff1Encrypt(&dom, x, &y) && ValueEq(y, BitsToValue(ct, n)) &&
				  Ff1Decrypt(&dom, y, &z) && ValueEq(z, x), what);
		}
	}
	EVP_CIPHER_CTX_free(aes);
	EVP_CIPHER_CTX_free(k.ctx);
}

/* src/forms/ff1.c against the transcription, every length, three key sizes */
static void
TestAgreement(void)
{
	static const int keylens[] = {16, 24, 32};

	for (int kl = 0; kl < 3; kl++)
	{
		unsigned char key[32];
		RefKey		k;
		EVP_CIPHER_CTX *aes;
		int			mismatches = 0;
		int			cases = 0;
		char		what[128];

		for (int i = 0; i < keylens[kl]; i++)
			key[i] = (unsigned char) Next64();
		k = RefKeyNew(key, keylens[kl]);
		aes = Ff1NewAes(key, keylens[kl]);
		for (int n = FF1_MIN_BITS; n <= FF1_MAX_BITS; n++)
		{
			Ff1Domain	dom;

			if (!Ff1Prepare(aes, n, &dom))
			{
				mismatches++;
				continue;
			}
			for (int r = 0; r < 200; r++)
			{
				Ff1Value	x = RandomValue(n);
				Ff1Value	y;
				Ff1Value	z;
				int			bits[128];
				int			ref[128];

				ValueToBits(x, n, bits);
				RefFf1(k, 2, NULL, 0, bits, n, ref, false);
				cases++;
				if (!Ff1Encrypt(&dom, x, &y) || !ValueEq(y, BitsToValue(ref, n)) ||
					!Ff1Decrypt(&dom, y, &z) || !ValueEq(z, x))
					mismatches++;
			}
		}
		snprintf(what, sizeof(what), "src/forms/ff1.c = transcription on %d random values of 20..128 bits, AES-%d (%d differ)",
				 cases, keylens[kl] * 8, mismatches);
		check(mismatches == 0, what);
		EVP_CIPHER_CTX_free(aes);
		EVP_CIPHER_CTX_free(k.ctx);
	}
	/* lengths outside 20..128 are refused */
	{
		unsigned char key[16] = {0};
		EVP_CIPHER_CTX *aes = Ff1NewAes(key, 16);
		Ff1Domain	dom;

		check(!Ff1Prepare(aes, FF1_MIN_BITS - 1, &dom) && !Ff1Prepare(aes, FF1_MAX_BITS + 1, &dom),
			  "Ff1Prepare refuses 19 and 129 bits");
		check(Ff1NewAes(key, 15) == NULL && Ff1NewAes(key, 17) == NULL && Ff1NewAes(key, 0) == NULL,
			  "Ff1NewAes refuses keys of other than 16, 24 or 32 bytes");
		EVP_CIPHER_CTX_free(aes);
	}
}

/* every value of an n-bit domain maps to a distinct value and back */
static void
TestPermutation(int n)
{
	unsigned char key[16];
	EVP_CIPHER_CTX *aes;
	Ff1Domain	dom;
	uint64		size = UINT64CONST(1) << n;
	unsigned char *seen = calloc(size, 1);
	uint64		outside = 0;
	uint64		repeated = 0;
	uint64		wrong_back = 0;
	uint64		fixed = 0;
	char		what[160];

	for (int i = 0; i < 16; i++)
		key[i] = (unsigned char) Next64();
	aes = Ff1NewAes(key, 16);
	if (seen == NULL || !Ff1Prepare(aes, n, &dom))
		abort();
	for (uint64 x = 0; x < size; x++)
	{
		Ff1Value	in = {0, x};
		Ff1Value	y;
		Ff1Value	z;

		if (!Ff1Encrypt(&dom, in, &y) || !Ff1Decrypt(&dom, y, &z))
			abort();
		if (y.hi != 0 || y.lo >= size)
		{
			outside++;
			continue;
		}
		if (seen[y.lo]++)
			repeated++;
		if (z.lo != x || z.hi != 0)
			wrong_back++;
		if (y.lo == x)
			fixed++;
	}
	snprintf(what, sizeof(what),
			 "all %llu values of %d bits: %llu outside, %llu repeated, %llu not restored (%llu fixed points)",
			 (unsigned long long) size, n, (unsigned long long) outside,
			 (unsigned long long) repeated, (unsigned long long) wrong_back,
			 (unsigned long long) fixed);
	check(outside == 0 && repeated == 0 && wrong_back == 0, what);
	free(seen);
	EVP_CIPHER_CTX_free(aes);
}

/*
 * uid's uses, under NIST's AES-128 and AES-256 sample keys: these are the
 * values sql/mask_test.sql expects from uid_mask() (63 bits: 0, 1, 2, 2^22,
 * 2^62, 2^63 - 1, 1234567890123456789) and uuid7_mask() (122 bits: 0, 1,
 * 2^121, 2^122 - 1 and the free bits of RFC 9562's UUIDv7 example
 * 017f22e2-79b0-7cc3-98c4-dc0c0c07398f).
 */
#define K128 "2B7E151628AED2A6ABF7158809CF4F3C"
#define K256 "2B7E151628AED2A6ABF7158809CF4F3CEF4359D8D580AA4F7F036D6F04FC6A94"
static void
TestUidUses(void)
{
	static const struct
	{
		const char *key;
		int			n;
		Ff1Value	in;
		Ff1Value	out;
	}			kat[] = {
		{K128, 63, {0, UINT64CONST(0x0000000000000000)}, {0, UINT64CONST(0x66cc59871e639b8d)}},
		{K128, 63, {0, UINT64CONST(0x0000000000000001)}, {0, UINT64CONST(0x0d6cbcd80dbea4ee)}},
		{K128, 63, {0, UINT64CONST(0x0000000000000002)}, {0, UINT64CONST(0x0ff2d34189ef5bf4)}},
		{K128, 63, {0, UINT64CONST(0x0000000000400000)}, {0, UINT64CONST(0x4c3597d847189203)}},
		{K128, 63, {0, UINT64CONST(0x4000000000000000)}, {0, UINT64CONST(0x23108e506cea2b8f)}},
		{K128, 63, {0, UINT64CONST(0x7fffffffffffffff)}, {0, UINT64CONST(0x375eb17c732aee96)}},
		{K128, 63, {0, UINT64CONST(0x112210f47de98115)}, {0, UINT64CONST(0x742e5ec8f49cba16)}},
		{K128, 122, {UINT64CONST(0x0000000000000000), UINT64CONST(0x0000000000000000)}, {UINT64CONST(0x0092aed87dc51d5f), UINT64CONST(0x9f570ffc60974551)}},
		{K128, 122, {UINT64CONST(0x0000000000000000), UINT64CONST(0x0000000000000001)}, {UINT64CONST(0x0368fae00e18fb7b), UINT64CONST(0x0f2950bc65aa6e41)}},
		{K128, 122, {UINT64CONST(0x0200000000000000), UINT64CONST(0x0000000000000000)}, {UINT64CONST(0x02ef2f81db35e8cd), UINT64CONST(0x83376e1cd4f30356)}},
		{K128, 122, {UINT64CONST(0x03ffffffffffffff), UINT64CONST(0xffffffffffffffff)}, {UINT64CONST(0x0354a6dec1a26d66), UINT64CONST(0x6e05b9f03e966ef2)}},
		{K128, 122, {UINT64CONST(0x0005fc8b89e6c330), UINT64CONST(0xd8c4dc0c0c07398f)}, {UINT64CONST(0x00698696dde1d069), UINT64CONST(0x228926b20db2ad65)}},
		{K256, 63, {0, UINT64CONST(0x0000000000000000)}, {0, UINT64CONST(0x3c055833f2758087)}},
		{K256, 63, {0, UINT64CONST(0x0000000000000001)}, {0, UINT64CONST(0x4126afa740a86b05)}},
		{K256, 63, {0, UINT64CONST(0x0000000000000002)}, {0, UINT64CONST(0x75da562518cffbb6)}},
		{K256, 63, {0, UINT64CONST(0x0000000000400000)}, {0, UINT64CONST(0x4cc9fb41dd0697b9)}},
		{K256, 63, {0, UINT64CONST(0x4000000000000000)}, {0, UINT64CONST(0x1a05014b8c170104)}},
		{K256, 63, {0, UINT64CONST(0x7fffffffffffffff)}, {0, UINT64CONST(0x28408dcfd2d477f8)}},
		{K256, 63, {0, UINT64CONST(0x112210f47de98115)}, {0, UINT64CONST(0x72fb4f04848cdd36)}},
		{K256, 122, {UINT64CONST(0x0000000000000000), UINT64CONST(0x0000000000000000)}, {UINT64CONST(0x02beb6aa7a7cd1eb), UINT64CONST(0x418dd7981d3dc084)}},
		{K256, 122, {UINT64CONST(0x0000000000000000), UINT64CONST(0x0000000000000001)}, {UINT64CONST(0x00da2c8192957a1d), UINT64CONST(0x2ab7b0c9b2992ab5)}},
		{K256, 122, {UINT64CONST(0x0200000000000000), UINT64CONST(0x0000000000000000)}, {UINT64CONST(0x010a8f9380d00397), UINT64CONST(0xf1dc94f949312a36)}},
		{K256, 122, {UINT64CONST(0x03ffffffffffffff), UINT64CONST(0xffffffffffffffff)}, {UINT64CONST(0x01a8341be5da0bb2), UINT64CONST(0x76ff9861fa0b1fdc)}},
		{K256, 122, {UINT64CONST(0x0005fc8b89e6c330), UINT64CONST(0xd8c4dc0c0c07398f)}, {UINT64CONST(0x0204465834a20443), UINT64CONST(0x159d8c8b1129013e)}}
	};

	for (size_t s = 0; s < sizeof(kat) / sizeof(kat[0]); s++)
	{
		unsigned char key[32];
		int			keylen = unhex(kat[s].key, key);
		EVP_CIPHER_CTX *aes = Ff1NewAes(key, keylen);
		RefKey		k = RefKeyNew(key, keylen);
		Ff1Domain	dom;
		Ff1Value	y;
		int			bits[128];
		int			ref[128];
		char		what[160];

		ValueToBits(kat[s].in, kat[s].n, bits);
		RefFf1(k, 2, NULL, 0, bits, kat[s].n, ref, false);
		snprintf(what, sizeof(what), "known answer %zu (AES-%d, %d bits): src/forms/ff1.c and the transcription",
				 s + 1, keylen * 8, kat[s].n);
		check(Ff1Prepare(aes, kat[s].n, &dom) && Ff1Encrypt(&dom, kat[s].in, &y) &&
			  ValueEq(y, kat[s].out) && ValueEq(BitsToValue(ref, kat[s].n), kat[s].out), what);
		EVP_CIPHER_CTX_free(aes);
		EVP_CIPHER_CTX_free(k.ctx);
	}
}

int
main(void)
{
	TestNist();
	TestZcash();
	TestAgreement();
	TestPermutation(20);
	TestPermutation(21);
	TestUidUses();
	return check_done("ff1_test");
}
