/*
 * ff1.c
 *		FF1 format-preserving encryption over bit strings (NIST SP 800-38G,
 *		2016, algorithms 7 and 8, radix 2, empty tweak) with AES from
 *		OpenSSL.  Used by mask.c for uid_mask() (63 bits) and uuid7_mask()
 *		(122 bits).
 *
 * FF1 is a ten-round Feistel network whose round function is AES-CBC-MAC
 * over two blocks, P || Q.  P holds only the radix, the length and the
 * tweak length, so CIPH_K(P) is computed once (Ff1Prepare) and each round
 * costs one AES block: R = CIPH_K(CIPH_K(P) xor Q).  With n <= 128 both
 * halves fit a 64-bit word, Q is one block (b <= 8 bytes of NUM(B), a round
 * byte and zeros), and the d <= 12 bytes of R that FF1 uses end inside that
 * one block, so no round needs more than one AES call or any arithmetic
 * wider than 64 bits: y mod 2^m is the low m bits of NUM(S).
 *
 * The unit test (test/unit/ff1_test.c) checks this code against a direct
 * transcription of the standard for any radix, which itself reproduces
 * NIST's published FF1 samples, against the radix-2 vectors published with
 * Zcash, and checks that it permutes a 20-bit domain exhaustively.
 *
 * Builds in the server and, with -DFRONTEND, in the unit test.
 */
#ifndef FRONTEND
#include "postgres.h"
#else
#include "postgres_fe.h"
#endif

#include "port/pg_bswap.h"

#include "forms/ff1.h"

#define FF1_ROUNDS	10

EVP_CIPHER_CTX *
Ff1NewAes(const unsigned char *key, int keylen)
{
	const EVP_CIPHER *cipher;
	EVP_CIPHER_CTX *ctx;

	switch (keylen)
	{
		case 16:
			cipher = EVP_aes_128_ecb();
			break;
		case 24:
			cipher = EVP_aes_192_ecb();
			break;
		case 32:
			cipher = EVP_aes_256_ecb();
			break;
		default:
			return NULL;
	}
	ctx = EVP_CIPHER_CTX_new();
	if (ctx == NULL)
		return NULL;
	if (EVP_EncryptInit_ex(ctx, cipher, NULL, key, NULL) != 1 ||
		EVP_CIPHER_CTX_set_padding(ctx, 0) != 1)
	{
		EVP_CIPHER_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

/* one AES block; inline here, so that the rounds do not call through the PLT */
static inline bool
Ff1Aes(EVP_CIPHER_CTX *aes, const unsigned char *in, unsigned char *out)
{
	int			outl = 0;

	return EVP_EncryptUpdate(aes, out, &outl, in, 16) == 1 && outl == 16;
}

bool
Ff1AesBlock(EVP_CIPHER_CTX *aes, const unsigned char *in, unsigned char *out)
{
	return Ff1Aes(aes, in, out);
}

static inline uint64
Ff1Load64(const unsigned char *p)
{
	uint64		w;

	memcpy(&w, p, sizeof(w));
	return pg_ntoh64(w);
}

static inline void
Ff1Store64(unsigned char *p, uint64 w)
{
	w = pg_hton64(w);
	memcpy(p, &w, sizeof(w));
}

static inline uint64
Ff1Mask(int bits)
{
	return bits >= 64 ? ~UINT64CONST(0) : (UINT64CONST(1) << bits) - 1;
}

bool
Ff1Prepare(EVP_CIPHER_CTX *aes, int n, Ff1Domain *dom)
{
	unsigned char p[16];
	unsigned char r0[16];

	if (aes == NULL || n < FF1_MIN_BITS || n > FF1_MAX_BITS)
		return false;
	dom->aes = aes;
	dom->n = n;
	dom->u = n / 2;
	dom->v = n - dom->u;
	/* b = ceil(ceil(v * log2(2)) / 8); d = 4 * ceil(b / 4) + 4 */
	dom->b = (dom->v + 7) / 8;
	dom->d = 4 * ((dom->b + 3) / 4) + 4;

	/* P = [1]^1 || [2]^1 || [1]^1 || [radix]^3 || [10]^1 || [u mod 256]^1 || [n]^4 || [t]^4 */
	memset(p, 0, sizeof(p));
	p[0] = 1;
	p[1] = 2;
	p[2] = 1;
	p[5] = 2;					/* radix 2 in three bytes */
	p[6] = FF1_ROUNDS;
	p[7] = (unsigned char) (dom->u % 256);
	p[11] = (unsigned char) n;	/* n < 256 in four bytes; t = 0 */
	if (!Ff1Aes(aes, p, r0))
		return false;
	dom->r0_hi = Ff1Load64(r0);
	dom->r0_lo = Ff1Load64(r0 + 8);
	return true;
}

/*
 * One round's y mod 2^m: R = CIPH_K(r0 xor Q) with
 * Q = [0]^(15 - b) || [round]^1 || [NUM(half)]^b, then the low m bits of
 * NUM(S), S being the first d bytes of R.
 */
static inline bool
Ff1RoundValue(const Ff1Domain *dom, int round, uint64 half, int m, uint64 *y)
{
	unsigned char x[16];
	unsigned char r[16];
	uint64		q_hi;
	uint64		q_lo;

	if (dom->b == 8)
	{
		q_hi = (uint64) round;
		q_lo = half;
	}
	else
	{
		q_hi = 0;
		q_lo = ((uint64) round << (8 * dom->b)) | half;
	}
	Ff1Store64(x, dom->r0_hi ^ q_hi);
	Ff1Store64(x + 8, dom->r0_lo ^ q_lo);
	if (!Ff1Aes(dom->aes, x, r))
		return false;
	*y = Ff1Load64(r + dom->d - 8) & Ff1Mask(m);
	return true;
}

/* A = the top u bits of x, B = the low v bits */
static inline void
Ff1Split(const Ff1Domain *dom, Ff1Value x, uint64 *a, uint64 *b)
{
	*b = x.lo & Ff1Mask(dom->v);
	*a = dom->v == 64 ? x.hi : (x.hi << (64 - dom->v)) | (x.lo >> dom->v);
	*a &= Ff1Mask(dom->u);
}

/* A || B */
static inline Ff1Value
Ff1Join(const Ff1Domain *dom, uint64 a, uint64 b)
{
	Ff1Value	x;

	x.lo = dom->v == 64 ? b : (a << dom->v) | b;
	x.hi = dom->v == 64 ? a : a >> (64 - dom->v);
	return x;
}

/* Algorithm 7 */
bool
Ff1Encrypt(const Ff1Domain *dom, Ff1Value x, Ff1Value *out)
{
	uint64		a;
	uint64		b;

	Ff1Split(dom, x, &a, &b);
	for (int i = 0; i < FF1_ROUNDS; i++)
	{
		int			m = (i % 2 == 0) ? dom->u : dom->v;
		uint64		y;
		uint64		c;

		if (!Ff1RoundValue(dom, i, b, m, &y))
			return false;
		c = (a + y) & Ff1Mask(m);
		a = b;
		b = c;
	}
	*out = Ff1Join(dom, a, b);
	return true;
}

/* Algorithm 8 */
bool
Ff1Decrypt(const Ff1Domain *dom, Ff1Value x, Ff1Value *out)
{
	uint64		a;
	uint64		b;

	Ff1Split(dom, x, &a, &b);
	for (int i = FF1_ROUNDS - 1; i >= 0; i--)
	{
		int			m = (i % 2 == 0) ? dom->u : dom->v;
		uint64		y;
		uint64		c;

		if (!Ff1RoundValue(dom, i, a, m, &y))
			return false;
		c = (b - y) & Ff1Mask(m);
		b = a;
		a = c;
	}
	*out = Ff1Join(dom, a, b);
	return true;
}
